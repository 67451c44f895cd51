import type { Statement } from 'better-sqlite3';
import { type AnyColumn, and, asc, eq, gt, or, sql } from 'drizzle-orm';
import type { CommerceDatabase } from '../db/database.ts';
import { channels, customers, prices, products, stock, vatRates } from '../db/schema.ts';
import type { CustomerTier, PriceLevel } from '../pricing/types.ts';
import type { CatalogStore } from './catalog-store.ts';
import type { Channel, PriceRow, ProductImage, ProductPageQuery, StockedProduct } from './types.ts';

const productColumns = {
  id: products.id,
  sku: products.sku,
  name: products.name,
  taxClass: products.taxClass,
  images: products.images,
  onHand: stock.onHand,
  allocated: stock.allocated,
};

type PageParams = {
  channel: string;
  at: string;
  limit: number;
  afterSku?: string;
  match?: string;
  like?: string;
};

type ProductRow = {
  id: string;
  sku: string;
  name: string;
  taxClass: string;
  images: string | null;
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
    // Written only by the image store from validated lists (and a CHECK keeps it an array).
    images: row.images === null ? null : (JSON.parse(row.images) as ProductImage[]),
    stock: { onHand, allocated, available: Math.max(0, onHand - allocated) },
  };
}

function toPriceRow(row: typeof prices.$inferSelect): PriceRow {
  return { ...row, level: row.level as PriceLevel };
}

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

const p = sql.placeholder;
/** `column IN (the ids of a JSON array parameter)`: one prepared statement for any list length. */
const inJsonList = (column: AnyColumn, name: string) =>
  sql`${column} IN (SELECT value FROM json_each(${p(name)}))`;

/**
 * The catalogue store on the commerce SQLite database. Every query is prepared once per store
 * (building SQL per call cost more than running it): drizzle's for the rarer reads, better-sqlite3's
 * own for the ones every page and cart change runs (see below).
 */
export function createSqliteCatalogStore(db: CommerceDatabase): CatalogStore {
  const { orm } = db;
  const stockedProducts = () =>
    orm.select(productColumns).from(products).leftJoin(stock, eq(stock.productId, products.id));

  const q = {
    channels: orm.select().from(channels).orderBy(asc(channels.code)).prepare(),
    customer: orm
      .select()
      .from(customers)
      .where(eq(customers.id, p('id')))
      .prepare(),
    allVatRates: orm.select().from(vatRates).prepare(),
    productBySku: stockedProducts()
      .where(eq(products.sku, p('sku')))
      .prepare(),
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

  // The catalogue page's two queries run on better-sqlite3 directly, prepared once per filter
  // shape: drizzle's prepared statements run the same SQL but map every row of every column
  // through its decoders, which profiles showed costing about as much as SQLite's own work for a
  // page's price rows. Here SQL aliases give the rows the domain's shape. The table and column
  // names are the drizzle schema's (schema.ts), which still owns them and the migrations.
  const client = db.sqlite;
  const priceRowsOfChannel = client.prepare<[string, string], PriceRow>(
    `SELECT id, product_id AS productId, channel_code AS channelCode, level, tier_code AS tierCode,
       customer_id AS customerId, min_quantity AS minQuantity, valid_from AS validFrom,
       valid_to AS validTo, amount
     FROM prices
     WHERE channel_code = ? AND product_id IN (SELECT value FROM json_each(?))`,
  );
  // What every priced answer loads besides its products (the pricing context), and a cart's
  // products: each cart change runs them, on the same direct statements.
  const channelByCode = client.prepare<
    [string],
    Omit<Channel, 'pricesIncludeVat'> & { pricesIncludeVat: number }
  >(
    `SELECT code, name, currency, tax_country AS taxCountry, prices_include_vat AS pricesIncludeVat
     FROM channels WHERE code = ?`,
  );
  const vatRatesOfCountry = client.prepare<[string], { taxClass: string; rateBp: number }>(
    'SELECT tax_class AS taxClass, rate_bp AS rateBp FROM vat_rates WHERE country = ?',
  );
  const productsByIds = client.prepare<[string], ProductRow>(
    `SELECT p.id, p.sku, p.name, p.tax_class AS taxClass, p.images, s.on_hand AS onHand, s.allocated
     FROM products p LEFT JOIN stock s ON s.product_id = p.id
     WHERE p.id IN (SELECT value FROM json_each(?))`,
  );
  const pageQueries = new Map<string, Statement<PageParams, ProductRow>>();
  /** One prepared page query per filter shape: cursor or not × inStock null/true/false × search kind. */
  function pageQuery(
    hasCursor: boolean,
    inStock: boolean | null,
    search: SearchKind,
  ): Statement<PageParams, ProductRow> {
    const key = `${hasCursor}:${inStock}:${search}`;
    const known = pageQueries.get(key);
    if (known) return known;
    const available = 'coalesce(s.on_hand, 0) - coalesce(s.allocated, 0)';
    const filters = [
      hasCursor ? 'p.sku > @afterSku' : null,
      // Sold in the channel: a base price valid at `at` from quantity 1.
      `EXISTS (SELECT 1 FROM prices r WHERE r.product_id = p.id AND r.channel_code = @channel
         AND r.level = 'base' AND r.min_quantity = 1
         AND (r.valid_from IS NULL OR r.valid_from <= @at) AND (r.valid_to IS NULL OR r.valid_to > @at))`,
      inStock === null ? null : inStock ? `${available} > 0` : `${available} <= 0`,
      search === 'index'
        ? 'p.rowid IN (SELECT rowid FROM product_search WHERE product_search MATCH @match)'
        : search === 'scan'
          ? "(p.name LIKE @like ESCAPE '\\' OR p.sku LIKE @like ESCAPE '\\')"
          : null,
    ].filter((f) => f !== null);
    const statement = client.prepare<PageParams, ProductRow>(
      `SELECT p.id, p.sku, p.name, p.tax_class AS taxClass, p.images, s.on_hand AS onHand, s.allocated
       FROM products p LEFT JOIN stock s ON s.product_id = p.id
       WHERE ${filters.join(' AND ')}
       ORDER BY p.sku LIMIT @limit`,
    );
    pageQueries.set(key, statement);
    return statement;
  }

  return {
    listChannels: () => q.channels.all(),
    findChannel(code) {
      const row = channelByCode.get(code);
      return row ? { ...row, pricesIncludeVat: row.pricesIncludeVat === 1 } : null;
    },
    findCustomer(id) {
      const row = q.customer.get({ id });
      return row ? { ...row, tier: row.tier as CustomerTier } : null;
    },
    listVatRates(country) {
      return new Map(vatRatesOfCountry.all(country).map((r) => [r.taxClass, r.rateBp]));
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
      const statement = pageQuery(query.afterSku !== null, query.inStock, search);
      const params: PageParams = {
        channel: query.channelCode,
        at: query.at.toISOString(),
        limit: query.limit,
      };
      if (query.afterSku !== null) params.afterSku = query.afterSku;
      if (search === 'index') params.match = ftsPhrase(query.search ?? '');
      if (search === 'scan') params.like = `%${escapeLike(query.search ?? '')}%`;
      return statement.all(params).map(toStockedProduct);
    },
    findProductBySku(sku) {
      const row = q.productBySku.get({ sku });
      return row ? toStockedProduct(row) : null;
    },
    listProductsByIds(ids) {
      if (ids.length === 0) return [];
      return productsByIds.all(JSON.stringify(ids)).map(toStockedProduct);
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
      return priceRowsOfChannel.all(channelCode, JSON.stringify(productIds));
    },
    listPricesOfProducts(productIds) {
      if (productIds.length === 0) return [];
      return q.pricesOfProducts.all({ ids: JSON.stringify(productIds) }).map(toPriceRow);
    },
  };
}
