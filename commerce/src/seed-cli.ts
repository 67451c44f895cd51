import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, parseConfig } from './config.ts';
import { migrateDatabase, openDatabase } from './db/database.ts';
import { assertDatabaseEnvironment, DatabaseEnvironmentError } from './db/database-environment.ts';
import { DEFAULT_SEED_PRODUCTS } from './seed/seed-data.ts';
import { clearDatabase, isDatabaseEmpty, seedDatabase } from './seed/seed-database.ts';

/**
 * Seeds a commerce database:
 *   node src/seed-cli.ts --env live|test [--products N] [--db FILE] [--reset]
 * Without --db the file is the service's own (KEYGATE_DATA_DIR / COMMERCE_DB_FILE, as main.ts
 * resolves it); relative paths are taken from the directory the command was started in.
 * A database that already has data is left alone unless --reset is given; one recorded for the
 * other environment is refused even then.
 */

const USAGE = 'usage: node src/seed-cli.ts --env live|test [--products N] [--db FILE] [--reset]';

function fail(message: string): never {
  process.stderr.write(`${message}\n${USAGE}\n`);
  process.exit(1);
}

function run(): void {
  let values: { env?: string; products?: string; db?: string; reset?: boolean };
  try {
    ({ values } = parseArgs({
      // `pnpm seed -- --env test` passes the `--` through; it is not an argument.
      args: process.argv.slice(2).filter((arg) => arg !== '--'),
      options: {
        env: { type: 'string' },
        products: { type: 'string' },
        db: { type: 'string' },
        reset: { type: 'boolean', default: false },
      },
      strict: true,
    }));
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
  const environment = values.env;
  if (environment !== 'live' && environment !== 'test') fail('--env must be live or test');
  const products = values.products === undefined ? DEFAULT_SEED_PRODUCTS : Number(values.products);
  if (!Number.isInteger(products) || products < 1) fail('--products must be a positive integer');
  let file = values.db;
  if (!file) {
    try {
      file = parseConfig({ ...process.env, COMMERCE_ENV: environment }).dbFile;
    } catch (error) {
      if (error instanceof ConfigError) fail(`config error: ${error.message}`);
      throw error;
    }
  }

  // Under `pnpm --filter … seed` the cwd is the package; relative paths mean the caller's cwd.
  file = resolve(process.env.INIT_CWD ?? process.cwd(), file);
  const started = performance.now();
  const db = openDatabase(file);
  try {
    migrateDatabase(db);
    try {
      assertDatabaseEnvironment(db, environment);
    } catch (error) {
      if (error instanceof DatabaseEnvironmentError) fail(`config error: ${error.message}`);
      throw error;
    }
    if (!isDatabaseEmpty(db)) {
      if (!values.reset) fail(`${file} already has data; pass --reset to replace it`);
      clearDatabase(db);
    }
    const result = seedDatabase(db, { environment, products });
    const ms = Math.round(performance.now() - started);
    process.stdout.write(`${JSON.stringify({ file, environment, ...result, ms })}\n`);
  } finally {
    db.close();
  }
}

run();
