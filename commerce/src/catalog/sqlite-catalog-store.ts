import { type AnyColumn, and, asc, eq, exists, gt, isNull, lte, or, sql } from 'drizzle-orm';
import type { Orm } from '../db/database.ts';
import { channels, customers, prices, products, stock, vatRates } from '../db/schema.ts';
import type { CustomerTier, PriceLevel } from '../pricing/types.ts';
import type { CatalogStore } from './catalog-store.ts';
import type { PriceRow, ProductPageQuery, StockedProduct } from './types.ts';

const productColumns = {
  id: products.id,
  sku: products.sku,
  name: products.name,
  taxClass: products.taxClass,
  onHand: stock.onHand,
  allocated: stock.allocated,
};

type ProductRow = {
  id: string;
  sku: string;
  name: string;
  taxClass: string;
  onHand: number | null;
  allocated: number | null;
};

function toStockedProduct(row: ProductRow): StockedProduct {
  const onHand = row.onHand ?? 0;
  const allocated = row.allocated ?? 0;
  return {
    id: row.id,
    sku: row.sku,
    name: row.name,
    taxClass: row.taxClass,
    stock: { onHand, allocated, available: Math.max(0, onHand - allocated) },
  };
}

function toPriceRow(row: typeof prices.$inferSelect): PriceRow {
  return { ...row, level: row.level as PriceLevel };
}

const p = sql.placeholder;
const available = sql`coalesce(${stock.onHand}, 0) - coalesce(${stock.allocated}, 0)`;
/** `column IN (the ids of a JSON array parameter)`: one prepared statement for any list length. */
const inJsonList = (column: AnyColumn, name: string) =>
  sql`${column} IN (SELECT value FROM json_each(${p(name)}))`;

/**
 * The catalogue store on the commerce SQLite database. Every query is a drizzle prepared
 * statement built once per store (building SQL per call cost more than running it).
 */
export function createSqliteCatalogStore(orm: Orm): CatalogStore {
  /** The outer product has a base price in the channel, valid at `at`, from quantity 1. */
  const isSoldIn = exists(
    orm
      .select({ one: sql`1` })
      .from(prices)
      .where(
        and(
          eq(prices.productId, products.id),
          eq(prices.channelCode, p('channel')),
          eq(prices.level, 'base'),
          eq(prices.minQuantity, 1),
          or(isNull(prices.validFrom), lte(prices.validFrom, p('at'))),
          or(isNull(prices.validTo), gt(prices.validTo, p('at'))),
        ),
      ),
  );
  const stockedProducts = () =>
    orm.select(productColumns).from(products).leftJoin(stock, eq(stock.productId, products.id));

  const q = {
    channels: orm.select().from(channels).orderBy(asc(channels.code)).prepare(),
    channel: orm
      .select()
      .from(channels)
      .where(eq(channels.code, p('code')))
      .prepare(),
    customer: orm
      .select()
      .from(customers)
      .where(eq(customers.id, p('id')))
      .prepare(),
    vatRates: orm
      .select()
      .from(vatRates)
      .where(eq(vatRates.country, p('country')))
      .prepare(),
    allVatRates: orm.select().from(vatRates).prepare(),
    productBySku: stockedProducts()
      .where(eq(products.sku, p('sku')))
      .prepare(),
    productsByIds: stockedProducts().where(inJsonList(products.id, 'ids')).prepare(),
    // Two plans for one answer, chosen per call. When the tier has rows (a third of a catalogue
    // for the seeded tiers), walking products in SKU order and probing prices_tier_product_idx
    // and prices_customer_idx per product stops after about one page: its cost does not grow with
    // the catalogue. When it has none, only the customer's few agreement rows can match, so those
    // are collected (prices_customer_idx) and sorted instead of walking every product.
    productsPricedForByWalk: stockedProducts()
      .where(
        and(
          gt(products.sku, p('afterSku')),
          or(
            sql`EXISTS (SELECT 1 FROM ${prices} WHERE ${prices.tierCode} = ${p('tier')} AND ${prices.productId} = ${products.id} AND ${prices.level} = 'tier')`,
            sql`EXISTS (SELECT 1 FROM ${prices} WHERE ${prices.customerId} = ${p('customer')} AND ${prices.productId} = ${products.id} AND ${prices.level} = 'agreement')`,
          ),
        ),
      )
      .orderBy(asc(products.sku))
      .limit(p('limit'))
      .prepare(),
    productsWithAgreements: stockedProducts()
      .where(
        and(
          gt(products.sku, p('afterSku')),
          sql`${products.id} IN (SELECT ${prices.productId} FROM ${prices} WHERE ${prices.customerId} = ${p('customer')} AND ${prices.level} = 'agreement')`,
        ),
      )
      .orderBy(asc(products.sku))
      .limit(p('limit'))
      .prepare(),
    tierHasPrices: orm
      .select({ one: sql`1` })
      .from(prices)
      .where(and(eq(prices.tierCode, p('tier')), eq(prices.level, 'tier')))
      .limit(1)
      .prepare(),
    prices: orm
      .select()
      .from(prices)
      .where(and(eq(prices.channelCode, p('channel')), inJsonList(prices.productId, 'ids')))
      .prepare(),
    // Every channel's rows through prices_channel_product_idx: one probe per channel and product.
    pricesOfProducts: orm
      .select()
      .from(prices)
      .where(
        and(
          sql`${prices.channelCode} IN (SELECT ${channels.code} FROM ${channels})`,
          inJsonList(prices.productId, 'ids'),
        ),
      )
      .prepare(),
  };

  /** One prepared page query per filter shape (with/without cursor × inStock null/true/false). */
  const pageQueries = new Map<string, ReturnType<typeof buildPageQuery>>();
  function buildPageQuery(hasCursor: boolean, inStock: boolean | null) {
    const stockFilter =
      inStock === null ? undefined : inStock ? sql`${available} > 0` : sql`${available} <= 0`;
    return stockedProducts()
      .where(and(hasCursor ? gt(products.sku, p('afterSku')) : undefined, isSoldIn, stockFilter))
      .orderBy(asc(products.sku))
      .limit(p('limit'))
      .prepare();
  }

  return {
    listChannels: () => q.channels.all(),
    findChannel: (code) => q.channel.get({ code }) ?? null,
    findCustomer(id) {
      const row = q.customer.get({ id });
      return row ? { ...row, tier: row.tier as CustomerTier } : null;
    },
    listVatRates(country) {
      return new Map(q.vatRates.all({ country }).map((r) => [r.taxClass, r.rateBp]));
    },
    listAllVatRates() {
      const result = new Map<string, Map<string, number>>();
      for (const r of q.allVatRates.all()) {
        const byClass = result.get(r.country) ?? new Map<string, number>();
        byClass.set(r.taxClass, r.rateBp);
        result.set(r.country, byClass);
      }
      return result;
    },
    listSellableProducts(query: ProductPageQuery) {
      const key = `${query.afterSku !== null}:${query.inStock}`;
      let statement = pageQueries.get(key);
      if (!statement) {
        statement = buildPageQuery(query.afterSku !== null, query.inStock);
        pageQueries.set(key, statement);
      }
      const params = { channel: query.channelCode, at: query.at.toISOString(), limit: query.limit };
      const rows = statement.all(query.afterSku === null ? params : { ...params, afterSku: query.afterSku });
      return rows.map(toStockedProduct);
    },
    findProductBySku(sku) {
      const row = q.productBySku.get({ sku });
      return row ? toStockedProduct(row) : null;
    },
    listProductsByIds(ids) {
      if (ids.length === 0) return [];
      return q.productsByIds.all({ ids: JSON.stringify(ids) }).map(toStockedProduct);
    },
    listProductsPricedFor({ customerId, tier, afterSku, limit }) {
      // '' sorts before every SKU, so the first page needs no second statement.
      const params = { customer: customerId, tier, afterSku: afterSku ?? '', limit };
      const statement =
        q.tierHasPrices.get({ tier }) === undefined ? q.productsWithAgreements : q.productsPricedForByWalk;
      return statement.all(params).map(toStockedProduct);
    },
    listPrices(channelCode, productIds) {
      if (productIds.length === 0) return [];
      return q.prices.all({ channel: channelCode, ids: JSON.stringify(productIds) }).map(toPriceRow);
    },
    listPricesOfProducts(productIds) {
      if (productIds.length === 0) return [];
      return q.pricesOfProducts.all({ ids: JSON.stringify(productIds) }).map(toPriceRow);
    },
  };
}
