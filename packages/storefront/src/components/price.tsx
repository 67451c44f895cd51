import type { UnitPrice } from '../lib/catalog.ts';
import { formatMoney, shownAmount, vatNote } from '../lib/money.ts';

const SOURCE_LABEL: Record<string, string> = {
  agreement: 'Your agreement price',
  tier: 'Your tier price',
  base: 'List price',
};

/** A unit price as the channel shows it (gross or net), with its VAT stated. */
export function Price({
  price,
  pricesIncludeVat,
  showSource = false,
}: {
  price: UnitPrice;
  pricesIncludeVat: boolean;
  showSource?: boolean;
}) {
  return (
    <span className="price">
      <strong data-testid="price-amount">
        {formatMoney(shownAmount(price, pricesIncludeVat), price.currency)}
      </strong>{' '}
      <span className="muted">{vatNote(pricesIncludeVat, price.vatRateBp)}</span>
      {showSource && (
        <span className="badge" data-testid="price-source">
          {SOURCE_LABEL[price.source] ?? price.source}
        </span>
      )}
    </span>
  );
}
