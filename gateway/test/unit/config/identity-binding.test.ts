import assert from 'node:assert/strict';
import { loadConfig } from '../../../src/config.ts';

describe('loadConfig: KEYGATE_IDENTITY_BINDING and KEYGATE_IDENTITY_TTL_SECONDS', () => {
  describe('when unset', () => {
    it('binds assertions to the key, for 60 seconds', () => {
      const config = loadConfig({});
      assert.equal(config.identityBinding, 'key');
      assert.equal(config.identityTtlSeconds, 60);
    });
  });

  describe('when set', () => {
    it('takes request binding and any lifetime from 10 to 300 seconds', () => {
      assert.equal(loadConfig({ KEYGATE_IDENTITY_BINDING: 'request' }).identityBinding, 'request');
      assert.equal(loadConfig({ KEYGATE_IDENTITY_BINDING: 'key' }).identityBinding, 'key');
      for (const seconds of [10, 61, 300]) {
        assert.equal(
          loadConfig({ KEYGATE_IDENTITY_TTL_SECONDS: String(seconds) }).identityTtlSeconds,
          seconds,
        );
      }
    });
  });

  describe('with a bad value', () => {
    it('throws one line naming the variable and what it accepts', () => {
      assert.throws(
        () => loadConfig({ KEYGATE_IDENTITY_BINDING: 'jti' }),
        (error: Error) => error.message === "KEYGATE_IDENTITY_BINDING: must be 'key' or 'request'",
      );
      for (const [value, why] of [
        ['9', 'at least 10'],
        ['301', 'at most 300'],
        ['60.5', 'whole number'],
        ['a minute', 'whole number'],
      ]) {
        assert.throws(
          () => loadConfig({ KEYGATE_IDENTITY_TTL_SECONDS: value }),
          (error: Error) => new RegExp(`^KEYGATE_IDENTITY_TTL_SECONDS: must be .*${why}`).test(error.message),
          value,
        );
      }
    });

    it('lists both with the other problems', () => {
      assert.throws(
        () =>
          loadConfig({ KEYGATE_IDENTITY_BINDING: 'x', KEYGATE_IDENTITY_TTL_SECONDS: '0', GATEWAY_PORT: 'x' }),
        (error: Error) =>
          ['GATEWAY_PORT', 'KEYGATE_IDENTITY_BINDING', 'KEYGATE_IDENTITY_TTL_SECONDS'].every((name) =>
            error.message.includes(`${name}:`),
          ) && !error.message.includes('\n'),
      );
    });
  });
});
