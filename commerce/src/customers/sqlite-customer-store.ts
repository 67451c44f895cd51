import { eq } from 'drizzle-orm';
import type { CommerceDatabase } from '../db/database.ts';
import { customers } from '../db/schema.ts';
import type { CustomerTier } from '../pricing/types.ts';
import type { CustomerStore } from './customer-store.ts';

/** The customer store on the commerce database. */
export function createSqliteCustomerStore(db: CommerceDatabase): CustomerStore {
  const { orm } = db;
  return {
    findCustomer(id) {
      const row = orm.select().from(customers).where(eq(customers.id, id)).get();
      return row ? { ...row, tier: row.tier as CustomerTier } : null;
    },
    insertCustomer(customer) {
      orm.insert(customers).values(customer).run();
    },
    updateCustomer({ id, name, tier, updatedAt }) {
      orm.update(customers).set({ name, tier, updatedAt }).where(eq(customers.id, id)).run();
    },
  };
}
