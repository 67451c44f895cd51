import type { Environment } from '@keygate/identity';
import { eq } from 'drizzle-orm';
import type { CommerceDatabase } from './database.ts';
import { meta } from './schema.ts';

const ENVIRONMENT_KEY = 'environment';

/** Thrown when a database recorded for one environment is opened for the other one. */
export class DatabaseEnvironmentError extends Error {
  readonly recorded: string;
  readonly expected: Environment;
  constructor(file: string, recorded: string, expected: Environment) {
    super(
      `database ${file} belongs to the ${recorded} environment, this process serves ${expected}; ` +
        'give each environment its own file (COMMERCE_DB_FILE / KEYGATE_DATA_DIR)',
    );
    this.name = 'DatabaseEnvironmentError';
    this.recorded = recorded;
    this.expected = expected;
  }
}

/** The environment recorded in the (migrated) database, or null when none is recorded yet. */
export function readDatabaseEnvironment(db: CommerceDatabase): string | null {
  const row = db.orm.select().from(meta).where(eq(meta.key, ENVIRONMENT_KEY)).get();
  return row?.value ?? null;
}

/** Throws DatabaseEnvironmentError when the database is recorded for another environment. */
export function assertDatabaseEnvironment(db: CommerceDatabase, environment: Environment): void {
  const recorded = readDatabaseEnvironment(db);
  if (recorded !== null && recorded !== environment) {
    throw new DatabaseEnvironmentError(db.file, recorded, environment);
  }
}

/**
 * Records `environment` in a migrated database that has none yet (the first process to open a file
 * claims it), in one transaction with the check; throws DatabaseEnvironmentError on a mismatch.
 */
export function claimDatabaseEnvironment(db: CommerceDatabase, environment: Environment): void {
  db.sqlite
    .transaction(() => {
      assertDatabaseEnvironment(db, environment);
      db.orm.insert(meta).values({ key: ENVIRONMENT_KEY, value: environment }).onConflictDoNothing().run();
    })
    .immediate();
}
