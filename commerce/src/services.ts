import type { Environment } from '@keygate/identity';
import { createCartService } from './carts/cart-service.ts';
import { createSqliteCartStore } from './carts/sqlite-cart-store.ts';
import { createCatalogService } from './catalog/catalog-service.ts';
import { createProductImageService } from './catalog/image-service.ts';
import { createSqliteCatalogStore } from './catalog/sqlite-catalog-store.ts';
import { createSqliteImageStore } from './catalog/sqlite-image-store.ts';
import { createCustomerService } from './customers/customer-service.ts';
import { createSqliteCustomerStore } from './customers/sqlite-customer-store.ts';
import { createAtomically } from './db/atomically.ts';
import type { CommerceDatabase } from './db/database.ts';
import { createRandomId } from './ids.ts';
import { createOrderService } from './orders/order-service.ts';
import { createSqliteOrderStore } from './orders/sqlite-order-store.ts';
import { createPriceService } from './prices/price-service.ts';
import { createSqlitePriceStore } from './prices/sqlite-price-store.ts';
import { createEventCapture } from './sandbox/event-capture.ts';
import { createEventTrigger } from './sandbox/trigger-event.ts';
import { createSqliteStockStore } from './stock/sqlite-stock-store.ts';
import { createStockService } from './stock/stock-service.ts';
import { createEndpointService } from './webhooks/endpoint-service.ts';
import type { EventOutbox } from './webhooks/outbox.ts';
import { createSqliteEndpointStore } from './webhooks/sqlite-endpoint-store.ts';
import { createSqliteOutbox } from './webhooks/sqlite-outbox.ts';
import { type LookupHost, lookupHostWithDns } from './webhooks/url-policy.ts';

/** How the app's webhook side is set up. */
export interface WebhookAppOptions {
  /** Let endpoint URLs resolve to loopback/private addresses (KEYGATE_WEBHOOKS_ALLOW_PRIVATE). */
  allowPrivateAddresses?: boolean;
  /** Resolves endpoint host names (default dns.lookup). */
  lookupHost?: LookupHost;
  /** Wakes the delivery worker; called inside transactions, so it may only schedule work. */
  notify?: () => void;
}

export interface ServiceDeps {
  db: CommerceDatabase;
  environment: Environment;
  clock: () => Date;
  webhooks?: WebhookAppOptions;
  /** The `traceparent` of the span active now (tracing on), kept with each event for its deliveries. */
  traceparentNow?: () => string | null;
  /** Wraps the outbox (tests inject failures with it). */
  wrapOutbox?: (outbox: EventOutbox) => EventOutbox;
}

/** Builds every domain service on one database: stores, the outbox and the transaction runner. */
export function createServices(deps: ServiceDeps) {
  const { db, clock } = deps;
  const notify = deps.webhooks?.notify ?? (() => {});
  const atomically = createAtomically(db);
  const baseOutbox = createSqliteOutbox(db, {
    environment: deps.environment,
    clock,
    onRecorded: notify,
    traceparentNow: deps.traceparentNow,
  });
  // The sandbox's event trigger learns the ids of the events its changes emit through the capture.
  const capture = createEventCapture(deps.wrapOutbox ? deps.wrapOutbox(baseOutbox) : baseOutbox);
  const { outbox } = capture;
  const catalogStore = createSqliteCatalogStore(db);
  const catalog = createCatalogService({ store: catalogStore, clock });
  const images = createProductImageService({
    catalog: catalogStore,
    store: createSqliteImageStore(db),
    outbox,
    atomically,
  });
  const cartStore = createSqliteCartStore(db);
  const carts = createCartService({
    carts: cartStore,
    catalogStore,
    catalog,
    clock,
    newCartId: () => createRandomId('crt'),
  });
  const stockStore = createSqliteStockStore(db);
  const stock = createStockService({ store: stockStore, outbox, atomically });
  const orders = createOrderService({
    orders: createSqliteOrderStore(db),
    carts,
    cartStore,
    stock: stockStore,
    outbox,
    atomically,
    clock,
    newOrderId: () => createRandomId('ord'),
  });
  const customers = createCustomerService({
    store: createSqliteCustomerStore(db),
    outbox,
    atomically,
    clock,
    newCustomerId: () => createRandomId('cus'),
  });
  const prices = createPriceService({
    store: createSqlitePriceStore(db),
    catalog: catalogStore,
    outbox,
    atomically,
    newPriceId: () => createRandomId('prc'),
  });
  return {
    catalogStore,
    catalog,
    images,
    carts,
    stock,
    orders,
    customers,
    prices,
    events: createEventTrigger({
      environment: deps.environment,
      capture,
      atomically,
      catalogStore,
      carts,
      orders,
      stock,
      customers,
      prices,
      images,
      clock,
    }),
    endpoints: createEndpointService({
      store: createSqliteEndpointStore(db),
      outbox,
      atomically,
      clock,
      newEndpointId: () => createRandomId('whe'),
      allowPrivateAddresses: deps.webhooks?.allowPrivateAddresses ?? false,
      lookupHost: deps.webhooks?.lookupHost ?? lookupHostWithDns,
      notify,
    }),
  };
}

export type Services = ReturnType<typeof createServices>;
