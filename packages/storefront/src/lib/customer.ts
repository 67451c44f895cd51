import 'server-only';
import { cookies } from 'next/headers';
import { isBuyingAsEnabled, storefrontEnv } from './env.ts';

/** Cookie of the "buying as" switcher (development only): the customer id prices are shown for. */
export const BUYING_AS_COOKIE = 'kg_buying_as';

/** Customer ids the switcher offers, or [] when it is off. */
export function buyingAsChoices(): string[] {
  return isBuyingAsEnabled() ? storefrontEnv().STOREFRONT_BUYING_AS_CUSTOMERS.split(',') : [];
}

/**
 * Whose prices apply: STOREFRONT_CUSTOMER when the shop is run for one customer, else the
 * switcher's choice while it is on, else nobody (list prices).
 */
export async function currentCustomer(): Promise<string | null> {
  const pinned = storefrontEnv().STOREFRONT_CUSTOMER;
  if (pinned) return pinned;
  const choices = buyingAsChoices();
  const chosen = (await cookies()).get(BUYING_AS_COOKIE)?.value;
  return chosen && choices.includes(chosen) ? chosen : null;
}
