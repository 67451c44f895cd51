import type { Atomically } from '../atomically.ts';
import type { CatalogStore } from '../catalog/catalog-store.ts';
import { CommerceError } from '../errors.ts';
import type { EventOutbox } from '../webhooks/outbox.ts';
import type { PriceRowJson } from './price-json.ts';
import type { PriceStore, PriceTerms } from './price-store.ts';

/** A new price as the API takes it (SKU and channel code, canonical validity bounds). */
export interface NewPrice extends PriceTerms {
  sku: string;
  channel: string;
  level: PriceRowJson['level'];
  tier: string | null;
  customerId: string | null;
}

/** Price rows and VAT rates; every change with its `pricing.*` event in one transaction. */
export interface PriceService {
  /** The price row (PRICE_NOT_FOUND). */
  getPrice(id: string): PriceRowJson;
  /** Creates a price row (UNKNOWN_PRODUCT / UNKNOWN_CHANNEL / UNKNOWN_CUSTOMER); `pricing.price.created`. */
  createPrice(input: NewPrice): PriceRowJson;
  /** Replaces a row's terms; `pricing.price.updated` with old and new, unless nothing changed. */
  replacePrice(id: string, terms: PriceTerms): PriceRowJson;
  /** Deletes a row; `pricing.price.deleted` with the deleted row. */
  deletePrice(id: string): PriceRowJson;
  /** Sets a VAT rate; `pricing.vat_rate.updated` with old (null if new) and new, unless unchanged. */
  setVatRate(
    country: string,
    taxClass: string,
    rateBp: number,
  ): { country: string; taxClass: string; rateBp: number };
}

export function createPriceService(deps: {
  store: PriceStore;
  catalog: CatalogStore;
  outbox: EventOutbox;
  atomically: Atomically;
  newPriceId: () => string;
}): PriceService {
  const { store, catalog, outbox, atomically } = deps;

  function getPrice(id: string): PriceRowJson {
    const price = store.findPrice(id);
    if (!price) throw new CommerceError('PRICE_NOT_FOUND', `There is no price ${id}.`);
    return price;
  }

  function resolveReferences(input: NewPrice): { productId: string } {
    const product = catalog.findProductBySku(input.sku);
    if (!product) throw new CommerceError('UNKNOWN_PRODUCT', `There is no product ${input.sku}.`);
    if (!catalog.findChannel(input.channel)) {
      throw new CommerceError('UNKNOWN_CHANNEL', `There is no channel ${input.channel}.`);
    }
    if (input.customerId !== null && !catalog.findCustomer(input.customerId)) {
      throw new CommerceError('UNKNOWN_CUSTOMER', `There is no customer ${input.customerId}.`);
    }
    return { productId: product.id };
  }

  return {
    getPrice,
    createPrice(input) {
      return atomically(() => {
        const { productId } = resolveReferences(input);
        const id = deps.newPriceId();
        const { amount, minQuantity, validFrom, validTo, level, customerId } = input;
        store.insertPrice({
          id,
          productId,
          channelCode: input.channel,
          level,
          tierCode: input.tier,
          customerId,
          minQuantity,
          validFrom,
          validTo,
          amount,
        });
        const price = getPrice(id);
        outbox.record('pricing.price.created', { price });
        return price;
      });
    },
    replacePrice(id, terms) {
      return atomically(() => {
        const old = getPrice(id);
        const unchanged = (Object.keys(terms) as Array<keyof PriceTerms>).every((k) => terms[k] === old[k]);
        if (unchanged) return old;
        store.updatePrice(id, terms);
        const price = getPrice(id);
        outbox.record('pricing.price.updated', { priceId: id, old, new: price });
        return price;
      });
    },
    deletePrice(id) {
      return atomically(() => {
        const price = getPrice(id);
        store.deletePrice(id);
        outbox.record('pricing.price.deleted', { price });
        return price;
      });
    },
    setVatRate(country, taxClass, rateBp) {
      return atomically(() => {
        const old = store.findVatRate(country, taxClass);
        if (old !== rateBp) {
          store.saveVatRate(country, taxClass, rateBp);
          outbox.record('pricing.vat_rate.updated', {
            country,
            taxClass,
            old: old === null ? null : { rateBp: old },
            new: { rateBp },
          });
        }
        return { country, taxClass, rateBp };
      });
    },
  };
}
