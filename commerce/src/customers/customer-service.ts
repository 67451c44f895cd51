import type { Atomically } from '../atomically.ts';
import type { Customer } from '../catalog/types.ts';
import { CommerceError } from '../errors.ts';
import type { CustomerTier } from '../pricing/types.ts';
import type { EventOutbox } from '../webhooks/outbox.ts';
import type { CustomerStore } from './customer-store.ts';

export interface CustomerChanges {
  name?: string;
  tier?: CustomerTier;
}

/** Customers: every change with its events in one transaction. */
export interface CustomerService {
  /** Creates a customer and records `customer.created`. */
  createCustomer(input: { name: string; tier: CustomerTier }): Customer;
  /** The customer (CUSTOMER_NOT_FOUND). */
  getCustomer(id: string): Customer;
  /**
   * Applies the changes; records `customer.updated` (old/new) and, when the tier changed,
   * `customer.tier_changed`. Changes that change nothing record nothing.
   */
  updateCustomer(id: string, changes: CustomerChanges): Customer;
}

export function createCustomerService(deps: {
  store: CustomerStore;
  outbox: EventOutbox;
  atomically: Atomically;
  clock: () => Date;
  newCustomerId: () => string;
}): CustomerService {
  const { store, outbox, atomically } = deps;

  function getCustomer(id: string): Customer {
    const customer = store.findCustomer(id);
    if (!customer) throw new CommerceError('CUSTOMER_NOT_FOUND', `There is no customer ${id}.`);
    return customer;
  }

  return {
    getCustomer,
    createCustomer(input) {
      return atomically(() => {
        const at = deps.clock().toISOString();
        const customer: Customer = { id: deps.newCustomerId(), ...input, createdAt: at, updatedAt: at };
        store.insertCustomer(customer);
        outbox.record('customer.created', { customer });
        return customer;
      });
    },
    updateCustomer(id, changes) {
      return atomically(() => {
        const old = getCustomer(id);
        const changed = (['name', 'tier'] as const).filter(
          (field) => changes[field] !== undefined && changes[field] !== old[field],
        );
        if (changed.length === 0) return old;
        const updated: Customer = {
          ...old,
          name: changes.name ?? old.name,
          tier: changes.tier ?? old.tier,
          updatedAt: deps.clock().toISOString(),
        };
        store.updateCustomer(updated);
        outbox.record('customer.updated', { customerId: id, changed, old, new: updated });
        if (changed.includes('tier')) {
          outbox.record('customer.tier_changed', {
            customerId: id,
            oldTier: old.tier,
            newTier: updated.tier,
            customer: updated,
          });
        }
        return updated;
      });
    },
  };
}
