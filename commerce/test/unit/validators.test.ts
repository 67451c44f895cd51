import assert from 'node:assert/strict';
import { AddItemSchema, CreateCartSchema } from '../../src/carts/cart-routes.ts';
import { ChannelHeaderSchema, ListProductsQuerySchema } from '../../src/catalog/catalog-routes.ts';
import { decodeCursor, encodeCursor } from '../../src/catalog/cursor.ts';
import { CommerceError } from '../../src/errors.ts';
import { parseInput } from '../../src/http/validate.ts';

function validationErrors(run: () => unknown): Array<{ pointer: string; detail: string }> {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof CommerceError);
    assert.equal(error.code, 'VALIDATION_FAILED');
    return error.extensions.errors as Array<{ pointer: string; detail: string }>;
  }
  assert.fail('expected a validation error');
}

describe('validators', () => {
  describe('AddItemSchema', () => {
    for (const qty of [0, 1000, 1.5, 'x', -1, null, '3']) {
      it(`rejects qty ${JSON.stringify(qty)} at /qty`, () => {
        const errors = validationErrors(() => parseInput(AddItemSchema, { sku: 'KG-00001', qty }, 'body'));
        assert.deepEqual(
          errors.map((e) => e.pointer),
          ['/qty'],
        );
        assert.match(errors[0]!.detail, /1\.\.999/);
      });
    }
    for (const qty of [1, 999]) {
      it(`accepts qty ${qty}`, () => {
        assert.deepEqual(parseInput(AddItemSchema, { sku: 'KG-00001', qty }, 'body'), {
          sku: 'KG-00001',
          qty,
        });
      });
    }
    it('reports every missing field together', () => {
      const errors = validationErrors(() => parseInput(AddItemSchema, {}, 'body'));
      assert.deepEqual(errors.map((e) => e.pointer).sort(), ['/qty', '/sku']);
    });
    it('rejects a body that is not an object', () => {
      for (const body of [undefined, [], 'x', 3]) {
        const errors = validationErrors(() => parseInput(AddItemSchema, body, 'body'));
        assert.equal(errors[0]?.pointer, '');
      }
    });
  });

  describe('CreateCartSchema', () => {
    it('needs a channel', () => {
      const errors = validationErrors(() => parseInput(CreateCartSchema, { customerId: 'cus_1' }, 'body'));
      assert.deepEqual(
        errors.map((e) => e.pointer),
        ['/channel'],
      );
    });
    it('accepts a null or missing customer', () => {
      assert.deepEqual(parseInput(CreateCartSchema, { channel: 'WEB_DE', customerId: null }, 'body'), {
        channel: 'WEB_DE',
        customerId: null,
      });
      assert.deepEqual(parseInput(CreateCartSchema, { channel: 'WEB_DE' }, 'body'), { channel: 'WEB_DE' });
    });
    it('rejects a non-string customer id', () => {
      const errors = validationErrors(() =>
        parseInput(CreateCartSchema, { channel: 'WEB_DE', customerId: 7 }, 'body'),
      );
      assert.equal(errors[0]?.pointer, '/customerId');
    });
  });

  describe('ListProductsQuerySchema', () => {
    it('defaults limit to 50 and leaves filters unset', () => {
      assert.deepEqual(parseInput(ListProductsQuerySchema, {}, 'query'), { limit: 50 });
    });
    it('parses limit, inStock, customer and cursor', () => {
      assert.deepEqual(
        parseInput(
          ListProductsQuerySchema,
          { limit: '5', inStock: 'false', customer: 'cus_1', cursor: 'abc' },
          'query',
        ),
        { limit: 5, inStock: false, customer: 'cus_1', cursor: 'abc' },
      );
    });
    for (const limit of ['0', '101', 'abc', '1.5', '', ['5', '6']]) {
      it(`rejects limit ${JSON.stringify(limit)} at /query/limit`, () => {
        const errors = validationErrors(() => parseInput(ListProductsQuerySchema, { limit }, 'query'));
        assert.equal(errors[0]?.pointer, '/query/limit');
      });
    }
    it('rejects inStock other than true/false', () => {
      const errors = validationErrors(() => parseInput(ListProductsQuerySchema, { inStock: 'yes' }, 'query'));
      assert.equal(errors[0]?.pointer, '/query/inStock');
    });
  });

  describe('ChannelHeaderSchema', () => {
    it('requires X-Channel', () => {
      const errors = validationErrors(() => parseInput(ChannelHeaderSchema, { accept: '*/*' }, 'headers'));
      assert.equal(errors[0]?.pointer, '/headers/x-channel');
      assert.match(errors[0]!.detail, /X-Channel/);
    });
  });

  describe('cursors', () => {
    it('round-trips a SKU', () => {
      assert.equal(decodeCursor(encodeCursor('KG-00042')), 'KG-00042');
    });
    for (const cursor of ['not-base64!', Buffer.from('{"x":1}').toString('base64url'), 'e30']) {
      it(`rejects ${cursor} with INVALID_CURSOR`, () => {
        assert.throws(
          () => decodeCursor(cursor),
          (error: unknown) => error instanceof CommerceError && error.code === 'INVALID_CURSOR',
        );
      });
    }
  });
});
