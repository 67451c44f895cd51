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
 * How a search runs: the trigram index (migration 0005) answers any text of three or more
 * characters; it cannot see shorter ones, which a scan of name and SKU answers instead.
 */
type SearchKind = 'none' | 'index' | 'scan';
const TRIGRAM = 3;

function searchKindOf(search: string | null): SearchKind {
  if (search === null || search === '') return 'none';
  return [...search].length >= TRIGRAM ? 'index' : 'scan';
}

/** An FTS5 phrase: the text matched as one substring, its double quotes doubled (no query syntax). */
function ftsPhrase(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

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
  /** Ids of the products with an agreement row for the customer or a tier row for the tier. */
  const pricedFor = orm
    .selectDistinct({ productId: prices.productId })
    .from(prices)
    .where(
      or(
        and(eq(prices.level, 'agreement'), eq(prices.customerId, p('customer'))),
        and(eq(prices.level, 'tier'), eq(prices.tierCode, p('tier'))),
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
    productsPricedFor: stockedProducts()
      .where(sql`${products.id} IN ${pricedFor}`)
      .orderBy(asc(products.sku))
      .prepare(),
    prices: orm
      .select()
      .from(prices)
      .where(and(eq(prices.channelCode, p('channel')), inJsonList(prices.productId, 'ids')))
      .prepare(),
    pricesOfPricedFor: orm.select().from(prices).where(sql`${prices.productId} IN ${pricedFor}`).prepare(),
  };

  /** One prepared page query per filter shape (cursor or not × inStock null/true/false × search kind). */
  const pageQueries = new Map<string, ReturnType<typeof buildPageQuery>>();
  function buildPageQuery(hasCursor: boolean, inStock: boolean | null, search: SearchKind) {
    const stockFilter =
      inStock === null ? undefined : inStock ? sql`${available} > 0` : sql`${available} <= 0`;
    const searchFilter =
      search === 'index'
        ? sql`${products}.rowid IN (SELECT rowid FROM product_search WHERE product_search MATCH ${p('match')})`
        : search === 'scan'
          ? sql`(${products.name} LIKE ${p('like')} ESCAPE '\\' OR ${products.sku} LIKE ${p('like')} ESCAPE '\\')`
          : undefined;
    return stockedProducts()
      .where(
        and(hasCursor ? gt(products.sku, p('afterSku')) : undefined, isSoldIn, stockFilter, searchFilter),
      )
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
      const search = searchKindOf(query.search);
      const key = `${query.afterSku !== null}:${query.inStock}:${search}`;
      let statement = pageQueries.get(key);
      if (!statement) {
        statement = buildPageQuery(query.afterSku !== null, query.inStock, search);
        pageQueries.set(key, statement);
      }
      const params: Record<string, string | number> = {
        channel: query.channelCode,
        at: query.at.toISOString(),
        limit: query.limit,
      };
      if (query.afterSku !== null) params.afterSku = query.afterSku;
      if (search === 'index') params.match = ftsPhrase(query.search ?? '');
      if (search === 'scan') params.like = `%${escapeLike(query.search ?? '')}%`;
      const rows = statement.all(params);
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
    listProductsPricedFor(customerId, tier) {
      return q.productsPricedFor.all({ customer: customerId, tier }).map(toStockedProduct);
    },
    listPrices(channelCode, productIds) {
      if (productIds.length === 0) return [];
      return q.prices.all({ channel: channelCode, ids: JSON.stringify(productIds) }).map(toPriceRow);
    },
    listPricesOfProductsPricedFor(customerId, tier) {
      return q.pricesOfPricedFor.all({ customer: customerId, tier }).map(toPriceRow);
    },
  };
}
