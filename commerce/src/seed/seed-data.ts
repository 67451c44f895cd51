import type { Environment } from '@keygate/identity';
import type { CustomerTier } from '../pricing/types.ts';
import { divideRounded } from '../pricing/vat.ts';
import { createPrng, type Prng } from './prng.ts';
import {
  ADJECTIVES,
  CHANNELS,
  type ChannelRow,
  CUSTOMERS,
  type CustomerRow,
  MATERIALS,
  NOUNS,
  type PriceRowInsert,
  type ProductRow,
  SEED_PROMOTIONS,
  SEED_SKUS,
  SEED_TIMESTAMP,
  type StockRow,
  VAT_RATES,
  type VatRateRow,
} from './seed-fixtures.ts';

export { SEED_PROMOTIONS, SEED_SKUS, SEED_TIMESTAMP } from './seed-fixtures.ts';

/**
 * Deterministic seed data: the same options always give the same rows (a seeded PRNG, fixed
 * dates, ids derived from positions). Live and test differ only by one test-only product.
 *
 * Product i (1-based, SKU `KG-0000i`) gets its features from i, so they scale with --products:
 * - i % 7 = 5: not sold in WEB_CH (missing from one channel)
 * - i % 4 = 2: quantity breaks from 10 (−5 %) and 50 (−10 %) in WEB_DE and B2B_DE
 * - i % 3 = 0: tier prices silver (−3 %) and gold (−6 %) in every channel it is sold in, each
 *   with the same quantity breaks as the base price (tier beats base at every quantity, so a
 *   tier without breaks would cost a tier customer more than an anonymous buyer at volume)
 * - i % 5 = 0: reduced VAT class
 * - i % 6 = 0: out of stock (on hand 0); i % 10 = 7: all allocated (available 0);
 *   i % 9 = 8: low stock (available 3)
 * Fixed extras: KG-00001 has an expired and a current promotion in WEB_DE; customer cus_0003
 * (gold) has agreements on KG-00003 and KG-00004; cus_0005 (silver) has agreements with a
 * quantity break on KG-00002 in B2B_DE. Every tier or agreement price is at most the base price
 * at every quantity, so no seeded customer pays more than an anonymous buyer.
 */

export interface SeedRows {
  channels: ChannelRow[];
  vatRates: VatRateRow[];
  customers: CustomerRow[];
  products: ProductRow[];
  prices: PriceRowInsert[];
  stock: StockRow[];
}

export interface SeedOptions {
  environment: Environment;
  /** How many regular products (default 40). */
  products?: number;
}

export const DEFAULT_SEED_PRODUCTS = 40;
/** Generates every seed row for the options; pure and deterministic. */
export function generateSeedRows(options: SeedOptions): SeedRows {
  const count = options.products ?? DEFAULT_SEED_PRODUCTS;
  if (!Number.isInteger(count) || count < 1) throw new RangeError('products must be an integer ≥ 1');
  const prng = createPrng(0x6b657967);
  const rows: SeedRows = {
    channels: CHANNELS.map((c) => ({ ...c })),
    vatRates: VAT_RATES.map((v) => ({ ...v })),
    customers: CUSTOMERS.map((c) => ({ ...c, createdAt: SEED_TIMESTAMP, updatedAt: SEED_TIMESTAMP })),
    products: [],
    prices: [],
    stock: [],
  };
  const addPrice = createPriceAdder(rows.prices);
  for (let i = 1; i <= count; i++) addProduct(rows, addPrice, prng, i);
  if (options.environment === 'test') addTestOnlyProduct(rows, addPrice);
  return rows;
}

type AddPrice = (row: Omit<PriceRowInsert, 'id'>) => void;

function createPriceAdder(target: PriceRowInsert[]): AddPrice {
  return (row) => {
    target.push({
      tierCode: null,
      customerId: null,
      validFrom: null,
      validTo: null,
      ...row,
      id: priceId(target.length + 1),
    });
  };
}

function priceId(n: number): string {
  return `prc_${String(n).padStart(6, '0')}`;
}

/** The id of regular product i. */
export function productId(i: number): string {
  return `prd_${String(i).padStart(5, '0')}`;
}

/** The SKU of regular product i. */
export function productSku(i: number): string {
  return `KG-${String(i).padStart(5, '0')}`;
}

function percentOf(amount: number, percent: number): number {
  return divideRounded(amount * percent, 100);
}

/** Base quantity breaks: [min quantity, percent of the base price]. */
const QUANTITY_BREAKS: ReadonlyArray<[number, number]> = [
  [10, 95],
  [50, 90],
];
/** Tier prices: [tier, percent of the base price at the same quantity break]. */
const TIER_DISCOUNTS: ReadonlyArray<[CustomerTier, number]> = [
  ['silver', 97],
  ['gold', 94],
];

function addProduct(rows: SeedRows, addPrice: AddPrice, prng: Prng, i: number): void {
  const id = productId(i);
  const taxClass = i % 5 === 0 ? 'reduced' : 'standard';
  const name = `${prng.pick(ADJECTIVES)} ${prng.pick(MATERIALS)} ${prng.pick(NOUNS)}`;
  rows.products.push({ id, sku: productSku(i), name, taxClass });

  const grossDe = prng.int(5, 200) * 100 - 1;
  const rateDe = taxClass === 'reduced' ? 700 : 1900;
  const base: Record<string, number> = {
    WEB_DE: grossDe,
    B2B_DE: divideRounded(grossDe * 9000, 10_000 + rateDe),
    WEB_CH: percentOf(grossDe, 105),
  };
  if (i % 7 === 5) delete base.WEB_CH;
  for (const [channelCode, amount] of Object.entries(base)) {
    addChannelPrices(addPrice, i, channelCode, amount);
  }
  addSpecialPrices(addPrice, i, base);
  rows.stock.push({ productId: id, ...stockFor(prng, i) });
}

/** Product i's base price in one channel, its quantity breaks and its tier prices. */
function addChannelPrices(addPrice: AddPrice, i: number, channelCode: string, amount: number): void {
  const id = productId(i);
  // [min quantity, base amount]: the base price from 1 and its quantity breaks.
  const steps: Array<[number, number]> = [[1, amount]];
  if (i % 4 === 2 && channelCode !== 'WEB_CH') {
    for (const [minQuantity, percent] of QUANTITY_BREAKS) {
      steps.push([minQuantity, percentOf(amount, percent)]);
    }
  }
  for (const [minQuantity, stepAmount] of steps) {
    addPrice({ productId: id, channelCode, level: 'base', minQuantity, amount: stepAmount });
  }
  if (i % 3 !== 0) return;
  // Tiers outrank base, so a tier price gets the same breaks as base: never dearer at volume.
  for (const [tierCode, percent] of TIER_DISCOUNTS) {
    for (const [minQuantity, stepAmount] of steps) {
      const tierAmount = percentOf(stepAmount, percent);
      addPrice({ productId: id, channelCode, level: 'tier', tierCode, minQuantity, amount: tierAmount });
    }
  }
}

function stockFor(prng: Prng, i: number): { onHand: number; allocated: number } {
  const onHand = 20 + prng.int(0, 480);
  const allocated = prng.int(0, 10);
  if (i % 6 === 0) return { onHand: 0, allocated: 0 };
  if (i % 10 === 7) return { onHand: 20, allocated: 20 };
  if (i % 9 === 8) return { onHand: 5, allocated: 2 };
  return { onHand, allocated };
}

/** The fixed promotions and agreements of products 1–4 (see the header comment). */
function addSpecialPrices(addPrice: AddPrice, i: number, base: Record<string, number>): void {
  const id = productId(i);
  if (i === 1 && base.WEB_DE !== undefined) {
    const promo = { productId: id, channelCode: 'WEB_DE', level: 'base', minQuantity: 1 } as const;
    addPrice({ ...promo, ...SEED_PROMOTIONS.expired, amount: percentOf(base.WEB_DE, 70) });
    addPrice({ ...promo, ...SEED_PROMOTIONS.current, amount: percentOf(base.WEB_DE, 80) });
  }
  if (i === 3 || i === 4) {
    for (const channelCode of ['WEB_DE', 'B2B_DE']) {
      const amount = base[channelCode];
      if (amount === undefined) continue;
      addPrice({
        productId: id,
        channelCode,
        level: 'agreement',
        customerId: 'cus_0003',
        amount: percentOf(amount, 85),
      });
    }
  }
  if (i === 2 && base.B2B_DE !== undefined) {
    const agreement = { productId: id, channelCode: 'B2B_DE', level: 'agreement', customerId: 'cus_0005' };
    addPrice({ ...agreement, minQuantity: 1, amount: percentOf(base.B2B_DE, 88) });
    addPrice({ ...agreement, minQuantity: 20, amount: percentOf(base.B2B_DE, 80) });
  }
}

function addTestOnlyProduct(rows: SeedRows, addPrice: AddPrice): void {
  const id = 'prd_test_sandbox';
  rows.products.push({
    id,
    sku: SEED_SKUS.testOnly,
    name: 'Sandbox Widget (test environment only)',
    taxClass: 'standard',
  });
  addPrice({ productId: id, channelCode: 'WEB_DE', level: 'base', minQuantity: 1, amount: 100 });
  addPrice({ productId: id, channelCode: 'WEB_CH', level: 'base', minQuantity: 1, amount: 110 });
  addPrice({ productId: id, channelCode: 'B2B_DE', level: 'base', minQuantity: 1, amount: 84 });
  rows.stock.push({ productId: id, onHand: 1000, allocated: 0 });
}
