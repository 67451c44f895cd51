import type { Customer } from '../catalog/types.ts';

/** The customers' storage port (synchronous; null for "not found"). */
export interface CustomerStore {
  /** The customer with this id, or null. */
  findCustomer(id: string): Customer | null;
  /** Stores a new customer. */
  insertCustomer(customer: Customer): void;
  /** Replaces the customer's name, tier and updatedAt. */
  updateCustomer(customer: Customer): void;
}
