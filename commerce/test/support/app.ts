import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Environment } from '@keygate/identity';
import type { Logger as QueryLogger } from 'drizzle-orm';
import type { Express } from 'express';
import { type Logger, pino } from 'pino';
import request from 'supertest';
import { type AppDeps, createApp } from '../../src/app.ts';
import { type CommerceDatabase, migrateDatabase, openDatabase } from '../../src/db/database.ts';
import { seedDatabase } from '../../src/seed/seed-database.ts';
import type { WebhookAppOptions } from '../../src/services.ts';
import type { EventOutbox } from '../../src/webhooks/outbox.ts';
import { type AssertionOptions, createTestIdentity, type TestIdentity } from './identity.ts';

/** The instant tests price at: inside the current promotion, after the expired one. */
export const TEST_NOW = new Date('2026-06-01T12:00:00.000Z');

/** A temporary directory removed by the returned function. */
export function createTempDir(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'commerce-test-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface CallOptions extends Partial<Omit<AssertionOptions, 'method' | 'path'>> {
  headers?: Record<string, string>;
  /** Skip the assertion entirely. */
  anonymous?: boolean;
}

export interface TestApp {
  app: Express;
  db: CommerceDatabase;
  identity: TestIdentity;
  environment: Environment;
  /** GET with a signed assertion for exactly this method and path. */
  get(path: string, options?: CallOptions): Promise<request.Response>;
  /** POST a JSON body (or a raw string) with a signed assertion. */
  post(path: string, body?: unknown, options?: CallOptions): Promise<request.Response>;
  /** PUT a JSON body with a signed assertion. */
  put(path: string, body?: unknown, options?: CallOptions): Promise<request.Response>;
  /** PATCH a JSON body with a signed assertion. */
  patch(path: string, body?: unknown, options?: CallOptions): Promise<request.Response>;
  /** DELETE with a signed assertion. */
  delete(path: string, options?: CallOptions): Promise<request.Response>;
  close(): void;
}

export interface TestAppOptions {
  environment?: Environment;
  /** Share one gateway key pair between apps. */
  identity?: TestIdentity;
  clock?: () => Date;
  products?: number;
  queryLogger?: QueryLogger;
  /** Sees every statement the SQLite driver executes (raw ones too). */
  onStatement?: (sql: string) => void;
  logger?: Logger;
  /** Skip the seed (an empty, migrated database). */
  empty?: boolean;
  webhooks?: WebhookAppOptions;
  wrapOutbox?: (outbox: EventOutbox) => EventOutbox;
  /** Bounds of the response cache (maxBytes 0 turns it off). */
  responseCache?: AppDeps['responseCache'];
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A migrated, seeded SQLite file in a temp dir and the app on it; close() removes both. */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const environment = options.environment ?? 'live';
  const identity = options.identity ?? (await createTestIdentity());
  const temp = createTempDir();
  const db = openDatabase(join(temp.dir, `commerce-${environment}.db`), {
    queryLogger: options.queryLogger,
    onStatement: options.onStatement,
  });
  migrateDatabase(db);
  if (!options.empty) seedDatabase(db, { environment, products: options.products });
  const app = createApp({
    db,
    environment,
    verifier: identity.verifier,
    logger: options.logger ?? pino({ level: 'silent' }),
    clock: options.clock ?? (() => TEST_NOW),
    webhooks: options.webhooks,
    wrapOutbox: options.wrapOutbox,
    responseCache: options.responseCache,
  });

  async function send(method: Method, path: string, body: unknown, call: CallOptions = {}) {
    const { headers = {}, anonymous, ...assertion } = call;
    const agent = request(app);
    let req =
      method === 'GET'
        ? agent.get(path)
        : method === 'POST'
          ? agent.post(path)
          : method === 'PUT'
            ? agent.put(path)
            : method === 'PATCH'
              ? agent.patch(path)
              : agent.delete(path);
    if (!anonymous) {
      req = req.set('X-Keygate-Identity', await identity.assert({ environment, ...assertion, method, path }));
    }
    for (const [name, value] of Object.entries(headers)) req = req.set(name, value);
    if (body === undefined) return req;
    if (typeof body === 'string') return req.set('Content-Type', 'application/json').send(body);
    return req.send(body as object);
  }

  return {
    app,
    db,
    identity,
    environment,
    get: (path, call) => send('GET', path, undefined, call),
    post: (path, body, call) => send('POST', path, body, call),
    put: (path, body, call) => send('PUT', path, body, call),
    patch: (path, body, call) => send('PATCH', path, body, call),
    delete: (path, call) => send('DELETE', path, undefined, call),
    close() {
      db.close();
      temp.remove();
    },
  };
}
