import { and, eq } from 'drizzle-orm';
import type { CommerceDatabase } from '../db/database.ts';
import { channels, prices, products, vatRates } from '../db/schema.ts';
import type { PriceLevel } from '../pricing/types.ts';
import type { PriceStore } from './price-store.ts';

/** The price store on the commerce database. */
export function createSqlitePriceStore(db: CommerceDatabase): PriceStore {
  const { orm } = db;
  return {
    findPrice(id) {
      const row = orm
        .select({
          id: prices.id,
          sku: products.sku,
          productId: prices.productId,
          channel: prices.channelCode,
          currency: channels.currency,
          level: prices.level,
          tier: prices.tierCode,
          customerId: prices.customerId,
          minQuantity: prices.minQuantity,
          validFrom: prices.validFrom,
          validTo: prices.validTo,
          amount: prices.amount,
        })
        .from(prices)
        .innerJoin(products, eq(products.id, prices.productId))
        .innerJoin(channels, eq(channels.code, prices.channelCode))
        .where(eq(prices.id, id))
        .get();
      return row ? { ...row, level: row.level as PriceLevel } : null;
    },
    insertPrice(row) {
      orm.insert(prices).values(row).run();
    },
    updatePrice(id, terms) {
      orm.update(prices).set(terms).where(eq(prices.id, id)).run();
    },
    deletePrice(id) {
      orm.delete(prices).where(eq(prices.id, id)).run();
    },
    findVatRate(country, taxClass) {
      const row = orm
        .select({ rateBp: vatRates.rateBp })
        .from(vatRates)
        .where(and(eq(vatRates.country, country), eq(vatRates.taxClass, taxClass)))
        .get();
      return row?.rateBp ?? null;
    },
    saveVatRate(country, taxClass, rateBp) {
      orm
        .insert(vatRates)
        .values({ country, taxClass, rateBp })
        .onConflictDoUpdate({ target: [vatRates.country, vatRates.taxClass], set: { rateBp } })
        .run();
    },
  };
}
