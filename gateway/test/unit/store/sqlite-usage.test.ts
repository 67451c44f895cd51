import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteKeyStore } from '../../../src/store/sqlite/sqlite-store.ts';
import { describeBudgetUsageContract } from '../../budget-usage.contract.ts';

describe('billing usage and analytics buckets in SQLite', () => {
  describeBudgetUsageContract('sqlite', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'keygate-usage-'));
    const store = openSqliteKeyStore(join(dir, 'gateway.db'));
    return {
      usage: store.budgetStorage.usage,
      async cleanup() {
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  });
});
