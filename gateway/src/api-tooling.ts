/**
 * Gateway functions for tools outside the service (packages/openapi): marking the operations a
 * route table deprecates, and the key-management router, whose real routes the document's tests
 * compare with the documented ones. Kept apart from `./api-schemas`, which holds data only.
 */
export { markDeprecations } from './docs/deprecations.ts';
export { createKeysRouter } from './keys-api/router.ts';
