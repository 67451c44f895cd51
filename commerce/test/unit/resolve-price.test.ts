import assert from 'node:assert/strict';
import { type Buyer, type ResolvePriceInput, resolvePrice } from '../../src/pricing/resolve-price.ts';
import type { PriceCandidate } from '../../src/pricing/types.ts';

let nextId = 0;
function row(over: Partial<PriceCandidate>): PriceCandidate {
  nextId += 1;
  return {
    id: `prc_${String(nextId).padStart(3, '0')}`,
    level: 'base',
    tierCode: null,
    customerId: null,
    minQuantity: 1,
    validFrom: null,
    validTo: null,
    amount: 1000,
    ...over,
  };
}

const AT = new Date('2026-06-01T12:00:00.000Z');
const NOBODY: Buyer = { customerId: null, tier: null };
const GOLD_CLARA: Buyer = { customerId: 'cus_clara', tier: 'gold' };
const SILVER_BERT: Buyer = { customerId: 'cus_bert', tier: 'silver' };

const base = row({ amount: 1000 });
const break10 = row({ amount: 950, minQuantity: 10 });
const break50 = row({ amount: 900, minQuantity: 50 });
const gold = row({ level: 'tier', tierCode: 'gold', amount: 940 });
const silver = row({ level: 'tier', tierCode: 'silver', amount: 970 });
const claraAgreement = row({ level: 'agreement', customerId: 'cus_clara', amount: 990 });
const claraBulkAgreement = row({ level: 'agreement', customerId: 'cus_clara', amount: 800, minQuantity: 20 });
const expiredPromo = row({
  amount: 700,
  validFrom: '2024-01-01T00:00:00.000Z',
  validTo: '2024-07-01T00:00:00.000Z',
});
const currentPromo = row({
  amount: 800,
  validFrom: '2026-06-01T12:00:00.000Z',
  validTo: '2026-07-01T00:00:00.000Z',
});
const endsNow = row({
  amount: 600,
  validFrom: '2026-05-01T00:00:00.000Z',
  validTo: '2026-06-01T12:00:00.000Z',
});
const futurePromo = row({ amount: 500, validFrom: '2027-01-01T00:00:00.000Z' });
const olderOpenPromo = row({ amount: 850, validFrom: '2026-01-01T00:00:00.000Z' });
const datedGold = row({ level: 'tier', tierCode: 'gold', amount: 890, validTo: '2030-01-01T00:00:00.000Z' });

interface Case {
  name: string;
  candidates: PriceCandidate[];
  buyer?: Buyer;
  quantity?: number;
  expect: { amount: number; source: string; minQuantity?: number } | null;
}

const CASES: Case[] = [
  {
    name: 'a base price alone applies to anyone',
    candidates: [base],
    expect: { amount: 1000, source: 'base' },
  },
  { name: 'no rows: not sold', candidates: [], expect: null },
  {
    name: 'a tier price applies to a buyer of that tier',
    candidates: [base, gold, silver],
    buyer: GOLD_CLARA,
    expect: { amount: 940, source: 'tier' },
  },
  {
    name: 'another tier’s price is ignored',
    candidates: [base, gold],
    buyer: SILVER_BERT,
    expect: { amount: 1000, source: 'base' },
  },
  { name: 'tier prices need a tier', candidates: [base, gold], expect: { amount: 1000, source: 'base' } },
  {
    name: 'an agreement beats tier and base even when dearer',
    candidates: [base, gold, claraAgreement],
    buyer: GOLD_CLARA,
    expect: { amount: 990, source: 'agreement' },
  },
  {
    name: 'another customer’s agreement is ignored',
    candidates: [base, silver, claraAgreement],
    buyer: SILVER_BERT,
    expect: { amount: 970, source: 'tier' },
  },
  {
    name: 'an agreement below its min quantity falls back to the tier',
    candidates: [base, gold, claraBulkAgreement],
    buyer: GOLD_CLARA,
    quantity: 19,
    expect: { amount: 940, source: 'tier' },
  },
  {
    name: 'an agreement at its min quantity applies',
    candidates: [base, gold, claraBulkAgreement],
    buyer: GOLD_CLARA,
    quantity: 20,
    expect: { amount: 800, source: 'agreement', minQuantity: 20 },
  },
  {
    name: 'quantity 9 stays on the 1-unit price',
    candidates: [base, break10, break50],
    quantity: 9,
    expect: { amount: 1000, source: 'base', minQuantity: 1 },
  },
  {
    name: 'quantity 10 reaches the 10-unit break',
    candidates: [base, break10, break50],
    quantity: 10,
    expect: { amount: 950, source: 'base', minQuantity: 10 },
  },
  {
    name: 'quantity 500 takes the highest break',
    candidates: [break50, base, break10],
    quantity: 500,
    expect: { amount: 900, source: 'base', minQuantity: 50 },
  },
  {
    name: 'only breaks above the quantity: not sold',
    candidates: [break10, break50],
    quantity: 3,
    expect: null,
  },
  {
    name: 'an expired price is ignored',
    candidates: [base, expiredPromo],
    expect: { amount: 1000, source: 'base' },
  },
  {
    name: 'a current dated price beats an undated one at the same level (valid_from inclusive)',
    candidates: [base, currentPromo, expiredPromo],
    expect: { amount: 800, source: 'base' },
  },
  {
    name: 'valid_to is exclusive',
    candidates: [base, endsNow],
    expect: { amount: 1000, source: 'base' },
  },
  {
    name: 'a future price is ignored',
    candidates: [base, futurePromo],
    expect: { amount: 1000, source: 'base' },
  },
  {
    name: 'only expired rows: not sold',
    candidates: [expiredPromo],
    expect: null,
  },
  {
    name: 'a dated price beats undated quantity breaks at the same level',
    candidates: [base, break10, currentPromo],
    quantity: 10,
    expect: { amount: 800, source: 'base', minQuantity: 1 },
  },
  {
    name: 'of two dated prices the later valid_from wins',
    candidates: [olderOpenPromo, currentPromo, base],
    expect: { amount: 800, source: 'base' },
  },
  {
    name: 'a dated base price does not beat an undated tier price',
    candidates: [currentPromo, gold],
    buyer: GOLD_CLARA,
    expect: { amount: 940, source: 'tier' },
  },
  {
    name: 'a dated tier price beats an undated tier price',
    candidates: [base, gold, datedGold],
    buyer: GOLD_CLARA,
    expect: { amount: 890, source: 'tier' },
  },
  {
    name: 'an agreement alone (no base) still resolves for its customer',
    candidates: [claraAgreement],
    buyer: GOLD_CLARA,
    expect: { amount: 990, source: 'agreement' },
  },
];

function input(c: Case, over: Partial<ResolvePriceInput> = {}): ResolvePriceInput {
  return {
    candidates: c.candidates,
    buyer: c.buyer ?? NOBODY,
    quantity: c.quantity ?? 1,
    at: AT,
    channel: { currency: 'EUR', pricesIncludeVat: true },
    vatRateBp: 1900,
    ...over,
  };
}

describe('resolvePrice', () => {
  describe('choosing the price row', () => {
    for (const c of CASES) {
      it(c.name, () => {
        const result = resolvePrice(input(c));
        if (c.expect === null) return assert.equal(result, null);
        assert.ok(result, 'expected a price');
        assert.equal(result.amount, c.expect.amount);
        assert.equal(result.source, c.expect.source);
        if (c.expect.minQuantity !== undefined) assert.equal(result.minQuantity, c.expect.minQuantity);
      });
    }
    it('ignores the order of the candidates', () => {
      const rows = [base, break10, gold, claraAgreement, currentPromo, expiredPromo];
      const forward = resolvePrice(input({ name: '', candidates: rows, buyer: GOLD_CLARA, expect: null }));
      const backward = resolvePrice(
        input({ name: '', candidates: [...rows].reverse(), buyer: GOLD_CLARA, expect: null }),
      );
      assert.deepEqual(forward, backward);
    });
  });

  describe('with a gross-priced channel', () => {
    it('splits the stored gross amount into net and VAT', () => {
      const result = resolvePrice(input({ name: '', candidates: [row({ amount: 1999 })], expect: null }));
      assert.deepEqual(
        { net: result?.net, vat: result?.vat, gross: result?.gross, amount: result?.amount },
        { net: 1680, vat: 319, gross: 1999, amount: 1999 },
      );
      assert.equal(result?.vatRate, 0.19);
      assert.equal(result?.vatRateBp, 1900);
      assert.equal(result?.currency, 'EUR');
    });
  });

  describe('with a net-priced channel', () => {
    it('adds VAT to the stored net amount', () => {
      const result = resolvePrice(
        input(
          { name: '', candidates: [row({ amount: 1512 })], expect: null },
          { channel: { currency: 'EUR', pricesIncludeVat: false } },
        ),
      );
      assert.deepEqual(
        { net: result?.net, vat: result?.vat, gross: result?.gross, amount: result?.amount },
        { net: 1512, vat: 287, gross: 1799, amount: 1512 },
      );
    });
  });

  describe('with a bad quantity', () => {
    for (const quantity of [0, -1, 1.5, Number.NaN]) {
      it(`throws for ${quantity}`, () => {
        assert.throws(
          () => resolvePrice(input({ name: '', candidates: [base], expect: null }, { quantity })),
          RangeError,
        );
      });
    }
  });
});
