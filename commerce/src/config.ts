import { join } from 'node:path';
import type { Environment } from '@keygate/identity';
import { z } from 'zod';

/**
 * Commerce configuration, from environment variables (documented defaults):
 * - COMMERCE_ENV           live | test (live)
 * - COMMERCE_PORT          port; else COMMERCE_LIVE_PORT (8081) or COMMERCE_TEST_PORT (8082)
 * - COMMERCE_HOST          127.0.0.1
 * - KEYGATE_DATA_DIR       ./data
 * - COMMERCE_DB_FILE       ${KEYGATE_DATA_DIR}/commerce-${env}.db
 * - KEYGATE_JWKS_FILE      a JWKS JSON file with the gateway's public keys (wins if set)
 * - KEYGATE_JWKS_URL       http://127.0.0.1:8080/.well-known/jwks.json (fetched lazily)
 * - COMMERCE_AUDIENCE      commerce
 * - LOG_LEVEL              info (fatal, error, warn, info, debug, trace, silent)
 */
export interface CommerceConfig {
  environment: Environment;
  host: string;
  port: number;
  dataDir: string;
  dbFile: string;
  /** Where the gateway's public keys come from. */
  jwks: { kind: 'file'; path: string } | { kind: 'url'; url: URL };
  audience: string;
  logLevel: LogLevel;
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const PortSchema = z.coerce
  .number({ error: 'must be a port number' })
  .int('must be an integer')
  .min(0, 'must be 0..65535')
  .max(65535, 'must be 0..65535');

const EnvSchema = z.object({
  COMMERCE_ENV: z.enum(['live', 'test'], { error: "must be 'live' or 'test'" }).default('live'),
  COMMERCE_PORT: PortSchema.optional(),
  COMMERCE_LIVE_PORT: PortSchema.default(8081),
  COMMERCE_TEST_PORT: PortSchema.default(8082),
  COMMERCE_HOST: z.string().default('127.0.0.1'),
  KEYGATE_DATA_DIR: z.string().default('./data'),
  COMMERCE_DB_FILE: z.string().optional(),
  KEYGATE_JWKS_FILE: z.string().optional(),
  KEYGATE_JWKS_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
    .default('http://127.0.0.1:8080/.well-known/jwks.json'),
  COMMERCE_AUDIENCE: z.string().default('commerce'),
  LOG_LEVEL: z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }).default('info'),
});

/** Thrown by `parseConfig`; the message is one line naming every problem. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** Parses and validates the environment record; returns a frozen config or throws ConfigError. */
export function parseConfig(env: Record<string, string | undefined>): Readonly<CommerceConfig> {
  // An empty variable counts as unset, so `FOO= node src/main.ts` takes the default.
  const present = Object.fromEntries(
    Object.entries(env).filter(([, v]) => v !== undefined && v.trim() !== ''),
  );
  const parsed = EnvSchema.safeParse(present);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0] ?? 'config');
      const got = env[name];
      return `${name} ${issue.message}${got === undefined ? '' : ` (got ${JSON.stringify(got)})`}`;
    });
    throw new ConfigError(problems.join('; '));
  }
  const e = parsed.data;
  const environment = e.COMMERCE_ENV;
  const port = e.COMMERCE_PORT ?? (environment === 'live' ? e.COMMERCE_LIVE_PORT : e.COMMERCE_TEST_PORT);
  return Object.freeze({
    environment,
    host: e.COMMERCE_HOST,
    port,
    dataDir: e.KEYGATE_DATA_DIR,
    dbFile: e.COMMERCE_DB_FILE ?? join(e.KEYGATE_DATA_DIR, `commerce-${environment}.db`),
    jwks: e.KEYGATE_JWKS_FILE
      ? { kind: 'file' as const, path: e.KEYGATE_JWKS_FILE }
      : { kind: 'url' as const, url: new URL(e.KEYGATE_JWKS_URL) },
    audience: e.COMMERCE_AUDIENCE,
    logLevel: e.LOG_LEVEL,
  });
}
