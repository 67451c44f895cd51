import { z } from 'zod';
import { responseComponent } from '../registries.ts';

/** An instant as the services write it: ISO 8601 UTC with milliseconds. */
export function timestamp(description = 'ISO 8601 instant (UTC).') {
  return z.string().meta({ format: 'date-time', description });
}

/** An integer amount of money in minor units of the accompanying currency. */
export function money(
  description = 'Integer amount in minor units of `currency` (e.g. cents); never a float.',
) {
  return z.number().int().meta({ description });
}

/** A non-negative integer count or quantity. */
export function count(description: string) {
  return z.number().int().min(0).meta({ description });
}

/** An ISO 4217 currency code; money is in minor units of it. */
export const CurrencySchema = responseComponent(
  'Currency',
  z
    .string()
    .regex(/^[A-Z]{3}$/)
    .meta({ description: 'ISO 4217 currency code, e.g. EUR. Money amounts are in its minor units.' }),
);

/** A cursor to pass back as `cursor` for the next page; null on the last page. */
export const NextCursorSchema = z
  .string()
  .nullable()
  .meta({ description: 'Opaque cursor of the next page (pass it as `cursor`), or null on the last page.' });

/** Net, VAT and gross of an amount, each in integer minor units (gross = net + vat). */
export const VatSplitSchema = responseComponent(
  'VatSplit',
  z.object({
    net: money('Net amount in minor units.'),
    vat: money('VAT in minor units.'),
    gross: money('Gross amount (net + vat) in minor units.'),
  }),
);
