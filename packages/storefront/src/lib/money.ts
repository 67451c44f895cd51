/** Money in integer minor units of an ISO 4217 currency, formatted for people. */
export function formatMoney(minor: number, currency: string, locale = 'en'): string {
  const format = new Intl.NumberFormat(locale, { style: 'currency', currency });
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(minor / 10 ** digits);
}

/** A VAT rate in basis points as a percentage, e.g. 1900 → "19%", 810 → "8.1%". */
export function formatVatRate(basisPoints: number): string {
  return `${(basisPoints / 100).toLocaleString('en', { maximumFractionDigits: 2 })}%`;
}

/** The amount a channel shows: gross where prices include VAT, else net. */
export function shownAmount(split: { net: number; gross: number }, pricesIncludeVat: boolean): number {
  return pricesIncludeVat ? split.gross : split.net;
}

/** How a channel's prices are meant, e.g. "incl. 19% VAT". */
export function vatNote(pricesIncludeVat: boolean, vatRateBp: number): string {
  return `${pricesIncludeVat ? 'incl.' : 'excl.'} ${formatVatRate(vatRateBp)} VAT`;
}

/** Minor units as a decimal string with the currency's digits, e.g. 1999 EUR → "19.99" (schema.org). */
export function decimalAmount(minor: number, currency: string): string {
  const digits =
    new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  return (minor / 10 ** digits).toFixed(digits);
}
