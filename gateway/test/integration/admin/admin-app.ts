import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { createIdentitySigner, generateIdentityKeyPair } from '@keygate/identity';
import request from 'supertest';
import { createApp, type GatewayApp } from '../../../src/app.ts';
import { loadConfig } from '../../../src/config.ts';
import type { GatewayListener } from '../../../src/data-plane/gateway-listener.ts';
import { createLogger } from '../../../src/http/logger.ts';
import { createAdminUser } from '../../../src/keys/admin-users.ts';
import { createKeyService, type KeyService } from '../../../src/keys/key-service.ts';
import { createLocalKeyEvents } from '../../../src/model/events.ts';
import { openSqliteKeyStore } from '../../../src/store/sqlite/sqlite-store.ts';
import type { KeyStore } from '../../../src/store/store.ts';
import { type CountingHasher, createCountingHasher } from '../../support/counting-hasher.ts';
import { createTestClock, type TestClock } from '../../support/gateway.ts';

export const ADMIN_EMAIL = 'ops@example.com';
export const ADMIN_PASSWORD = 'correct horse battery staple';
/** A foreign site's origin; tests send an Origin header only when they mean to. */
export const EVIL_ORIGIN = 'https://evil.example';

/** A built admin interface in a temp dir: index.html, one hashed asset, one plain file. */
export function writeUiDir(root: string): string {
  const dir = join(root, 'ui');
  mkdirSync(join(dir, 'assets'), { recursive: true });
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>keygate admin</title><div id="app"></div>');
  writeFileSync(join(dir, 'assets', 'index-3f2a1b.js'), 'console.log("admin");');
  writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return dir;
}

export interface AdminApp {
  app: GatewayListener;
  gateway: GatewayApp;
  store: KeyStore;
  keyService: KeyService;
  hasher: CountingHasher;
  clock: TestClock;
  adminId: string;
  /** Every log line written, as text. */
  logs: string[];
  dir: string;
  close(): Promise<void>;
}

export interface AdminAppOptions {
  env?: Record<string, string>;
  /** Share this store (another instance); default a fresh SQLite file. */
  store?: KeyStore;
  clock?: TestClock;
  /** Create the administrator (default true). */
  createAdmin?: boolean;
  /** Replaces the fast counting hasher (e.g. one whose verifications can be held). */
  hasher?: CountingHasher;
}

/** The gateway app (createApp) with the admin router mounted: SQLite store, fast counting hasher, test clock, a UI dir. */
export async function startAdminApp(options: AdminAppOptions = {}): Promise<AdminApp> {
  const dir = mkdtempSync(join(tmpdir(), 'keygate-admin-'));
  const config = loadConfig({
    KEYGATE_DATA_DIR: dir,
    KEYGATE_UPSTREAM_LIVE: 'http://127.0.0.1:9',
    KEYGATE_UPSTREAM_TEST: 'http://127.0.0.1:9',
    KEYGATE_ADMIN_UI_DIR: writeUiDir(dir),
    ...options.env,
  });
  const store = options.store ?? openSqliteKeyStore(join(dir, 'gateway.db'));
  const hasher = options.hasher ?? createCountingHasher();
  const clock = options.clock ?? createTestClock();
  const events = createLocalKeyEvents();
  const keyService = createKeyService({ store, hasher, events, clock });
  const { privateJwk } = await generateIdentityKeyPair();
  const signer = await createIdentitySigner({ privateJwk });
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logs.push(String(chunk));
      done();
    },
  });
  const logger = createLogger('debug', sink);
  const gateway = createApp({ config, store, hasher, events, signer, keyService, logger, clock });
  let adminId = '';
  if (options.createAdmin !== false && !(await store.findAdminByEmail(ADMIN_EMAIL))) {
    adminId = (
      await createAdminUser({ store, hasher, clock }, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD })
    ).id;
  } else {
    adminId = (await store.findAdminByEmail(ADMIN_EMAIL))?.id ?? '';
  }
  return {
    app: gateway.app,
    gateway,
    store,
    keyService,
    hasher,
    clock,
    adminId,
    logs,
    dir,
    async close() {
      await gateway.close();
      if (!options.store) await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A logged-in session: the Cookie header value and the CSRF token. */
export interface LoggedIn {
  cookie: string;
  csrfToken: string;
  setCookie: string;
}

/** Logs in through the API; throws unless 201. */
export async function logIn(
  app: GatewayListener,
  email = ADMIN_EMAIL,
  password = ADMIN_PASSWORD,
): Promise<LoggedIn> {
  const res = await request(app).post('/admin/api/session').send({ email, password });
  if (res.status !== 201) throw new Error(`login answered ${res.status}: ${JSON.stringify(res.body)}`);
  const setCookie = ([] as string[]).concat(res.headers['set-cookie'] ?? [])[0] ?? '';
  return { cookie: setCookie.split(';')[0]!, csrfToken: res.body.csrfToken, setCookie };
}

/** A state-changing call with session cookie and CSRF token, as the interface sends it. */
export function send(
  app: GatewayListener,
  method: 'post' | 'patch' | 'delete',
  path: string,
  session: LoggedIn,
) {
  return request(app)
    [method](`/admin/api${path}`)
    .set('Cookie', session.cookie)
    .set('X-CSRF-Token', session.csrfToken);
}

/** A read with the session cookie. */
export function read(app: GatewayListener, path: string, session: LoggedIn) {
  return request(app).get(`/admin/api${path}`).set('Cookie', session.cookie);
}
