import assert from 'node:assert/strict';
import * as apiSchemas from '@keygate/gateway/api-schemas';
import * as tooling from '@keygate/gateway/tooling';

describe('what the gateway exports to this package', () => {
  it('keeps ./api-schemas to schemas, tables and constants: no function or router', () => {
    const functions = Object.entries(apiSchemas)
      .filter(([, value]) => typeof value === 'function')
      .map(([name]) => name);
    assert.deepEqual(functions, []);
  });

  it('offers the functions the build and its tests use from ./tooling', () => {
    assert.equal(typeof tooling.markDeprecations, 'function');
    assert.equal(typeof tooling.createKeysRouter, 'function');
  });
});
