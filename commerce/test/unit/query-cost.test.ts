import assert from 'node:assert/strict';
import { parse } from 'graphql';
import type { CatalogService } from '../../src/catalog/catalog-service.ts';
import { calculateQueryCost } from '../../src/graphql/query-cost.ts';
import { buildGraphqlSchema } from '../../src/graphql/schema.ts';

// The schema as commerce serves it; pricing a query runs no resolver, so no catalogue is needed.
const schema = buildGraphqlSchema({} as CatalogService, [
  { code: 'WEB_DE', name: 'Web shop Germany', currency: 'EUR', taxCountry: 'DE', pricesIncludeVat: true },
]);

function costOf(source: string, request: Parameters<typeof calculateQueryCost>[2] = {}): number {
  return calculateQueryCost(schema, parse(source), request);
}

describe('calculateQueryCost', () => {
  describe('a connection', () => {
    it('costs 2 plus the page size asked with `first`', () => {
      assert.equal(costOf('{ products(channel: WEB_DE, first: 10) { sku } }'), 12);
      assert.equal(costOf('{ products(channel: WEB_DE, first: 1) { sku } }'), 3);
    });
    it('costs more for 250 products than for 10', () => {
      const ten = costOf('{ products(channel: WEB_DE, first: 10) { sku name } }');
      const many = costOf('{ products(channel: WEB_DE, first: 250) { sku name } }');
      assert.equal(many, 252);
      assert.ok(many > ten);
    });
    it('costs 2 plus the default page size (50) without `first`, or with `first: null`', () => {
      assert.equal(costOf('{ products(channel: WEB_DE) { sku } }'), 52);
      assert.equal(costOf('{ products(channel: WEB_DE, first: null) { sku } }'), 52);
    });
  });

  describe('fields', () => {
    it('charges 1 for each object field and 0 for scalars', () => {
      assert.equal(costOf('{ products(channel: WEB_DE, first: 10) { id sku name taxClass cursor } }'), 12);
      assert.equal(
        costOf('{ products(channel: WEB_DE, first: 10) { sku price { amount gross } stock { available } } }'),
        14,
      );
      assert.equal(
        costOf(
          '{ products(channel: WEB_DE, first: 10) { a: price { amount } b: price(tier: "gold") { amount } } }',
        ),
        14,
      );
    });
    it('sums every root field', () => {
      assert.equal(
        costOf(
          '{ a: products(channel: WEB_DE, first: 10) { sku } b: products(channel: WEB_DE, first: 20) { sku } }',
        ),
        34,
      );
    });
    it('costs at least 1, even when only scalars are asked', () => {
      assert.equal(costOf('{ __typename }'), 1);
    });
  });

  describe('variables', () => {
    const paged = 'query Page($n: Int) { products(channel: WEB_DE, first: $n) { sku } }';
    it('takes the page size from a variable', () => {
      assert.equal(costOf(paged, { variables: { n: 30 } }), 32);
    });
    it('falls back to the variable’s default, then to the argument’s', () => {
      assert.equal(costOf('query($n: Int = 20) { products(channel: WEB_DE, first: $n) { sku } }'), 22);
      assert.equal(costOf(paged), 52);
      assert.equal(costOf(paged, { variables: { n: null } }), 52);
    });
  });

  describe('fragments and repeated fields', () => {
    it('counts the fields of fragments and inline fragments where they are spread', () => {
      const source = `
        fragment Priced on Product { price { amount } }
        { products(channel: WEB_DE, first: 10) { sku ...Priced ... on Product { stock { available } } } }`;
      assert.equal(costOf(source), 14);
    });
    it('counts a field once however often it is written or spread, as execution merges it', () => {
      const source = `
        fragment Priced on Product { price { amount } }
        { products(channel: WEB_DE, first: 10) { ...Priced ...Priced price { gross } price { net } } }`;
      assert.equal(costOf(source), 13);
    });
    it('stays small and quick for fragments that spread each other many times over', () => {
      const levels = Array.from(
        { length: 30 },
        (_, i) =>
          `fragment F${i} on Product { ${'...F'.concat(String(i + 1), ' ').repeat(10)} stock { available } }`,
      );
      const source = `${levels.join('\n')}
        fragment F30 on Product { price { amount } }
        { products(channel: WEB_DE, first: 10) { ...F0 } }`;
      assert.equal(costOf(source), 14);
    });
    it('stops at a fragment cycle (a document validation refuses)', () => {
      const source = `
        fragment A on Product { price { amount } ...B }
        fragment B on Product { ...A }
        { products(channel: WEB_DE, first: 10) { ...A } }`;
      assert.equal(costOf(source), 13);
    });
    it('ignores a fragment on another object type, which never applies', () => {
      const source = `
        fragment P on Product { price { amount } }
        { products(channel: WEB_DE, first: 10) { stock { ...P } } }`;
      assert.equal(costOf(source), 13);
    });
  });

  describe('operations', () => {
    const two = `
      query Small { products(channel: WEB_DE, first: 5) { sku } }
      query Large { products(channel: WEB_DE, first: 100) { sku } }`;
    it('prices the operation named by `operationName`', () => {
      assert.equal(costOf(two, { operationName: 'Small' }), 7);
      assert.equal(costOf(two, { operationName: 'Large' }), 102);
    });
    it('costs the minimum when the operation cannot be chosen or the root type does not exist', () => {
      assert.equal(costOf(two), 1);
      assert.equal(costOf(two, { operationName: 'Missing' }), 1);
      assert.equal(costOf('mutation { products { sku } }'), 1);
    });
  });
});
