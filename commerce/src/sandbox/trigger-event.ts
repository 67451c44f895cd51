import type { Environment } from '@keygate/identity';
import type { Atomically } from '../atomically.ts';
import type { CartService } from '../carts/cart-service.ts';
import type { CatalogStore } from '../catalog/catalog-store.ts';
import type { ProductImageService } from '../catalog/image-service.ts';
import { generatedImageOf, imagesOf } from '../catalog/product-images.ts';
import type { StockedProduct } from '../catalog/types.ts';
import type { CustomerService } from '../customers/customer-service.ts';
import { CommerceError } from '../errors.ts';
import type { OrderService } from '../orders/order-service.ts';
import type { PriceService } from '../prices/price-service.ts';
import type { StockService } from '../stock/stock-service.ts';
import type { EventType } from '../webhooks/event-catalogue.ts';
import type { EventCapture } from './event-capture.ts';

/** The channel the sandbox's orders and prices are made in. */
const SANDBOX_CHANNEL = 'WEB_DE';
/** The VAT rate the trigger of `pricing.vat_rate.updated` moves: Austria's reduced rate, between 10 and 13 % (both real). */
const VAT_COUNTRY = 'AT';
const VAT_CLASS = 'reduced';
const VAT_RATES_BP = [1000, 1300] as const;

export interface TriggeredEvent {
  eventId: string;
  type: EventType;
}

export interface EventTrigger {
  /**
   * Makes a real change in the test environment that emits an event of `type` through the normal
   * outbox (an order placed, a stock level changed, a customer or price created or changed, a
   * product's images set) and returns that event's id. Refused with 403 SANDBOX_ONLY outside the
   * test environment.
   */
  trigger(type: EventType, keyId: string): TriggeredEvent;
}

export interface EventTriggerDeps {
  environment: Environment;
  capture: EventCapture;
  atomically: Atomically;
  catalogStore: CatalogStore;
  carts: CartService;
  orders: OrderService;
  stock: StockService;
  customers: CustomerService;
  prices: PriceService;
  images: ProductImageService;
  clock: () => Date;
}

/** The changes behind each event type; each one is what an integrator's own call would do. */
export function createEventTrigger(deps: EventTriggerDeps): EventTrigger {
  const { carts, orders, stock, customers, prices, images, catalogStore, clock } = deps;

  function productInStock(): StockedProduct {
    const [product] = catalogStore.listSellableProducts({
      channelCode: SANDBOX_CHANNEL,
      at: clock(),
      afterSku: null,
      inStock: true,
      search: null,
      limit: 1,
    });
    if (!product) {
      throw new CommerceError(
        'INSUFFICIENT_STOCK',
        `No product of ${SANDBOX_CHANNEL} is in stock; reset the sandbox (pnpm keygate sandbox reset).`,
      );
    }
    return product;
  }

  function placeOrder(keyId: string) {
    const product = productInStock();
    const cart = carts.createCart({ channelCode: SANDBOX_CHANNEL, customerId: null, keyId });
    carts.addItem(cart.cart.id, keyId, { sku: product.sku, qty: 1 });
    return orders.checkout(cart.cart.id, keyId);
  }

  const sandboxCustomer = () => customers.createCustomer({ name: 'Sandbox Customer', tier: 'retail' });

  function agreementPrice() {
    const customer = sandboxCustomer();
    return prices.createPrice({
      sku: productInStock().sku,
      channel: SANDBOX_CHANNEL,
      level: 'agreement',
      tier: null,
      customerId: customer.id,
      amount: 990,
      minQuantity: 1,
      validFrom: null,
      validTo: null,
    });
  }

  const changes: Record<EventType, (keyId: string) => void> = {
    'order.created': placeOrder,
    'order.status_changed': (keyId) => {
      orders.changeStatus(placeOrder(keyId).order.id, keyId, 'cancelled');
    },
    'stock.updated': () => stock.adjustStock(productInStock().sku, 1),
    'stock.out_of_stock': () => {
      const product = productInStock();
      stock.setStock(product.sku, product.stock.allocated);
    },
    // Out of stock and back to the level it had: the event sought is the second change's.
    'stock.back_in_stock': () => {
      const product = productInStock();
      stock.setStock(product.sku, product.stock.allocated);
      stock.setStock(product.sku, product.stock.onHand);
    },
    'customer.created': sandboxCustomer,
    'customer.updated': () => {
      customers.updateCustomer(sandboxCustomer().id, { name: 'Sandbox Customer (renamed)' });
    },
    'customer.tier_changed': () => {
      customers.updateCustomer(sandboxCustomer().id, { tier: 'silver' });
    },
    // The product's generated image, then a second view of it, or back to the one image.
    'product.updated': () => {
      const product = productInStock();
      const generated = generatedImageOf(product);
      const next =
        imagesOf(product).length === 1
          ? [generated, { ...generated, alt: `${product.name}, second view` }]
          : [generated];
      images.setImages(product.sku, next);
    },
    'pricing.price.created': agreementPrice,
    'pricing.price.updated': () => {
      const price = agreementPrice();
      prices.replacePrice(price.id, {
        amount: price.amount + 100,
        minQuantity: price.minQuantity,
        validFrom: price.validFrom,
        validTo: price.validTo,
      });
    },
    'pricing.price.deleted': () => prices.deletePrice(agreementPrice().id),
    'pricing.vat_rate.updated': () => {
      const current = catalogStore.listVatRates(VAT_COUNTRY).get(VAT_CLASS);
      const next = current === VAT_RATES_BP[0] ? VAT_RATES_BP[1] : VAT_RATES_BP[0];
      prices.setVatRate(VAT_COUNTRY, VAT_CLASS, next);
    },
  };

  return {
    trigger(type, keyId) {
      if (deps.environment !== 'test') {
        throw new CommerceError(
          'SANDBOX_ONLY',
          'Events can be triggered in the test environment only: use a test key (kg_test_…).',
        );
      }
      // One transaction: a change of several steps (an order, then its cancellation) lands whole or not at all.
      const { events } = deps.capture.during(() => deps.atomically(() => changes[type](keyId)));
      const event = events.findLast((recorded) => recorded.type === type);
      if (!event) throw new Error(`the change behind ${type} emitted no such event`);
      return { eventId: event.eventId, type };
    },
  };
}
