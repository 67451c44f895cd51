import type { channels, customers, prices, products, stock, vatRates } from '../db/schema.ts';

/** The fixed part of the seed: channels, VAT rates, customers, name parts and well-known SKUs. */

export type ChannelRow = typeof channels.$inferInsert;
export type ProductRow = typeof products.$inferInsert;
export type CustomerRow = typeof customers.$inferInsert;
export type PriceRowInsert = typeof prices.$inferInsert;
export type VatRateRow = typeof vatRates.$inferInsert;
export type StockRow = typeof stock.$inferInsert;

export const SEED_TIMESTAMP = '2025-01-01T00:00:00.000Z';
/** SKUs with a known role, for tests and demos. */
export const SEED_SKUS = {
  promotion: 'KG-00001',
  quantityBreaks: 'KG-00002',
  tierAndAgreement: 'KG-00003',
  agreement: 'KG-00004',
  notInWebCh: 'KG-00005',
  outOfStock: 'KG-00006',
  fullyAllocated: 'KG-00007',
  lowStock: 'KG-00008',
  /** Only in the test environment's database. */
  testOnly: 'TEST-SANDBOX-1',
} as const;
/** The promotion windows of KG-00001 in WEB_DE. */
export const SEED_PROMOTIONS = {
  expired: { validFrom: '2024-01-01T00:00:00.000Z', validTo: '2024-07-01T00:00:00.000Z' },
  current: { validFrom: '2025-01-01T00:00:00.000Z', validTo: '2100-01-01T00:00:00.000Z' },
} as const;

export const CHANNELS: ChannelRow[] = [
  {
    code: 'B2B_DE',
    name: 'B2B Germany (net prices)',
    currency: 'EUR',
    taxCountry: 'DE',
    pricesIncludeVat: false,
  },
  { code: 'WEB_CH', name: 'Web shop Switzerland', currency: 'CHF', taxCountry: 'CH', pricesIncludeVat: true },
  { code: 'WEB_DE', name: 'Web shop Germany', currency: 'EUR', taxCountry: 'DE', pricesIncludeVat: true },
];

export const VAT_RATES: VatRateRow[] = [
  { country: 'AT', taxClass: 'standard', rateBp: 2000 },
  { country: 'AT', taxClass: 'reduced', rateBp: 1000 },
  { country: 'AT', taxClass: 'zero', rateBp: 0 },
  { country: 'CH', taxClass: 'standard', rateBp: 810 },
  { country: 'CH', taxClass: 'reduced', rateBp: 260 },
  { country: 'CH', taxClass: 'zero', rateBp: 0 },
  { country: 'DE', taxClass: 'standard', rateBp: 1900 },
  { country: 'DE', taxClass: 'reduced', rateBp: 700 },
  { country: 'DE', taxClass: 'zero', rateBp: 0 },
];

export const CUSTOMERS: Array<Pick<CustomerRow, 'id' | 'name' | 'tier'>> = [
  { id: 'cus_0001', name: 'Anna Albers', tier: 'retail' },
  { id: 'cus_0002', name: 'Berg Handel GmbH', tier: 'silver' },
  { id: 'cus_0003', name: 'Clara Gold AG', tier: 'gold' },
  { id: 'cus_0004', name: 'Dorn & Söhne KG', tier: 'gold' },
  { id: 'cus_0005', name: 'Ernst Werkstatt GmbH', tier: 'silver' },
  { id: 'cus_0006', name: 'Fiona Fischer', tier: 'retail' },
];

export const ADJECTIVES = [
  'Compact',
  'Sturdy',
  'Classic',
  'Modern',
  'Rustic',
  'Slim',
  'Heavy-duty',
  'Portable',
];
export const MATERIALS = ['Oak', 'Steel', 'Walnut', 'Linen', 'Ceramic', 'Bamboo', 'Copper', 'Wool'];
export const NOUNS = [
  'Desk Lamp',
  'Shelf',
  'Mug',
  'Blanket',
  'Stool',
  'Cutting Board',
  'Planter',
  'Clock',
  'Tray',
];
