/**
 * VAT arithmetic on integer minor units. ONE rounding rule everywhere: half away from zero,
 * at the minor unit, per unit price (line totals are unit × quantity, never re-rounded).
 * Rates are basis points: 1900 = 19.00 %.
 */

/** A unit amount split into its net, VAT and gross parts (minor units, gross = net + vat). */
export interface VatSplit {
  net: number;
  vat: number;
  gross: number;
}

const BP_PER_UNIT = 10_000;

/** numerator / denominator rounded half away from zero, computed exactly with BigInt. */
export function divideRounded(numerator: number, denominator: number): number {
  if (!Number.isSafeInteger(numerator) || !Number.isSafeInteger(denominator) || denominator === 0) {
    throw new RangeError('divideRounded needs safe integers and a non-zero denominator');
  }
  const n = BigInt(numerator);
  const d = BigInt(denominator);
  const negative = n < 0n !== d < 0n;
  const absN = n < 0n ? -n : n;
  const absD = d < 0n ? -d : d;
  const quotient = (2n * absN + absD) / (2n * absD);
  return Number(negative ? -quotient : quotient);
}

function assertRate(rateBp: number): void {
  if (!Number.isInteger(rateBp) || rateBp < 0 || rateBp > BP_PER_UNIT) {
    throw new RangeError(`VAT rate must be 0..10000 basis points, got ${rateBp}`);
  }
}

/** Gross-priced channels: net = round(gross · 10000 / (10000 + bp)), vat = gross − net. */
export function splitGross(gross: number, rateBp: number): VatSplit {
  assertRate(rateBp);
  const net = divideRounded(gross * BP_PER_UNIT, BP_PER_UNIT + rateBp);
  return { net, vat: gross - net, gross };
}

/** Net-priced channels: vat = round(net · bp / 10000), gross = net + vat. */
export function addVat(net: number, rateBp: number): VatSplit {
  assertRate(rateBp);
  const vat = divideRounded(net * rateBp, BP_PER_UNIT);
  return { net, vat, gross: net + vat };
}

/** A rate in basis points as a plain fraction (1900 → 0.19), for display only. */
export function rateFromBasisPoints(rateBp: number): number {
  return rateBp / BP_PER_UNIT;
}

/** Multiplies a unit split by a quantity (line totals; no further rounding). */
export function multiplySplit(unit: VatSplit, quantity: number): VatSplit {
  return { net: unit.net * quantity, vat: unit.vat * quantity, gross: unit.gross * quantity };
}

/** Sums splits (cart totals). */
export function sumSplits(splits: readonly VatSplit[]): VatSplit {
  return splits.reduce(
    (acc, s) => ({ net: acc.net + s.net, vat: acc.vat + s.vat, gross: acc.gross + s.gross }),
    {
      net: 0,
      vat: 0,
      gross: 0,
    },
  );
}
