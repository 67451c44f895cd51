import type { CustomerTier, PriceCandidate, PriceLevel, PricingChannel } from './types.ts';
import { addVat, rateFromBasisPoints, splitGross } from './vat.ts';

/**
 * Price resolution: which stored price row applies, and what it costs net, VAT and gross.
 *
 * Rules, in order:
 * 1. Levels rank agreement (this customer's own price) > tier (the buyer's tier) > base.
 *    The highest level that has an applicable row wins, even when a lower level is cheaper.
 *    This is intentional: a tier or agreement price without quantity breaks beats a cheaper
 *    base quantity break at volume. A merchant who wants volume breaks for a tier (or an
 *    agreement) defines breaks at that level; the seed does so wherever base has breaks.
 * 2. A row is applicable when the instant lies in its window (valid_from ≤ t < valid_to; a
 *    missing bound is open) and its min_quantity ≤ the quantity. Bounds are canonical ISO 8601
 *    UTC with milliseconds (a CHECK constraint), so this agrees with the SQL text comparison.
 * 3. Within the winning level, a dated row (one with valid_from or valid_to) beats an
 *    undated one; then the highest min_quantity wins (quantity breaks); then the latest
 *    valid_from; then the lowest amount; then the lowest id, so the result is deterministic.
 * 4. The row's amount is gross in channels whose prices include VAT and net otherwise; the
 *    other parts follow `splitGross` / `addVat` (integer math, half away from zero).
 *
 * Returns null when no row applies: the product is not sold in that channel to that buyer.
 */

/** Who is buying: a customer (agreement prices) and/or a tier (tier prices); both optional. */
export interface Buyer {
  customerId: string | null;
  tier: CustomerTier | null;
}

export interface ResolvePriceInput {
  /** Every price row of one product in one channel (other rows are ignored). */
  candidates: readonly PriceCandidate[];
  buyer: Buyer;
  /** Units on the line; quantity breaks compare against it. Integer ≥ 1. */
  quantity: number;
  at: Date;
  channel: PricingChannel;
  /** VAT rate for the product's tax class in the channel's tax country, basis points. */
  vatRateBp: number;
}

/** A resolved unit price; money in integer minor units of `currency`. */
export interface ResolvedPrice {
  /** The stored amount: gross when the channel's prices include VAT, else net. */
  amount: number;
  net: number;
  vat: number;
  gross: number;
  /** e.g. 0.19, for display. */
  vatRate: number;
  /** e.g. 1900; exact. */
  vatRateBp: number;
  currency: string;
  source: PriceLevel;
  minQuantity: number;
  priceId: string;
}

const LEVEL_ORDER: readonly PriceLevel[] = ['agreement', 'tier', 'base'];

/** Resolves the unit price for one product, channel, buyer, quantity and instant. */
export function resolvePrice(input: ResolvePriceInput): ResolvedPrice | null {
  const { quantity, at, channel, vatRateBp } = input;
  if (!Number.isInteger(quantity) || quantity < 1) throw new RangeError('quantity must be an integer ≥ 1');
  const t = at.getTime();
  const applicable = input.candidates.filter(
    (c) => matchesBuyer(c, input.buyer) && isValidAt(c, t) && c.minQuantity <= quantity,
  );
  for (const level of LEVEL_ORDER) {
    const rows = applicable.filter((c) => c.level === level);
    if (rows.length === 0) continue;
    const best = rows.reduce((a, b) => (compareRows(a, b) <= 0 ? a : b));
    const split = channel.pricesIncludeVat
      ? splitGross(best.amount, vatRateBp)
      : addVat(best.amount, vatRateBp);
    return {
      amount: best.amount,
      ...split,
      vatRate: rateFromBasisPoints(vatRateBp),
      vatRateBp,
      currency: channel.currency,
      source: level,
      minQuantity: best.minQuantity,
      priceId: best.id,
    };
  }
  return null;
}

function matchesBuyer(c: PriceCandidate, buyer: Buyer): boolean {
  switch (c.level) {
    case 'base':
      return true;
    case 'tier':
      return buyer.tier !== null && c.tierCode === buyer.tier;
    case 'agreement':
      return buyer.customerId !== null && c.customerId === buyer.customerId;
  }
}

/** True when `t` (epoch ms) lies in [validFrom, validTo). */
export function isValidAt(c: Pick<PriceCandidate, 'validFrom' | 'validTo'>, t: number): boolean {
  if (c.validFrom !== null && Date.parse(c.validFrom) > t) return false;
  if (c.validTo !== null && Date.parse(c.validTo) <= t) return false;
  return true;
}

function isDated(c: PriceCandidate): boolean {
  return c.validFrom !== null || c.validTo !== null;
}

/** Negative when `a` should win over `b` within one level. */
function compareRows(a: PriceCandidate, b: PriceCandidate): number {
  if (isDated(a) !== isDated(b)) return isDated(a) ? -1 : 1;
  if (a.minQuantity !== b.minQuantity) return b.minQuantity - a.minQuantity;
  const fromA = a.validFrom === null ? Number.NEGATIVE_INFINITY : Date.parse(a.validFrom);
  const fromB = b.validFrom === null ? Number.NEGATIVE_INFINITY : Date.parse(b.validFrom);
  if (fromA !== fromB) return fromB > fromA ? 1 : -1;
  if (a.amount !== b.amount) return a.amount - b.amount;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
