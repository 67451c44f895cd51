import assert from 'node:assert/strict';
import { loadConfig } from '../../../src/config.ts';

describe('loadConfig: KEYGATE_POLICIES', () => {
  describe('with nothing set', () => {
    it('keeps policies on', () => {
      assert.equal(loadConfig({}).policies, 'on');
    });
  });

  describe('with KEYGATE_POLICIES=off alone', () => {
    it('throws one clear line naming the variable and KEYGATE_BENCH_MODE=1', () => {
      assert.throws(
        () => loadConfig({ KEYGATE_POLICIES: 'off' }),
        (error: unknown) =>
          error instanceof Error &&
          !error.message.includes('\n') &&
          /^KEYGATE_POLICIES: off turns off key checks/.test(error.message) &&
          error.message.includes('KEYGATE_BENCH_MODE=1'),
      );
    });

    it('throws the same with KEYGATE_BENCH_MODE=0 or empty', () => {
      for (const mode of ['0', '']) {
        assert.throws(
          () => loadConfig({ KEYGATE_POLICIES: 'off', KEYGATE_BENCH_MODE: mode }),
          /KEYGATE_POLICIES: off .*KEYGATE_BENCH_MODE=1/,
        );
      }
    });

    it('lists it together with the other problems', () => {
      assert.throws(
        () => loadConfig({ KEYGATE_POLICIES: 'off', GATEWAY_PORT: 'nope' }),
        (error: unknown) =>
          error instanceof Error &&
          error.message.includes('GATEWAY_PORT') &&
          error.message.includes('KEYGATE_BENCH_MODE=1'),
      );
    });
  });

  describe('with KEYGATE_POLICIES=off and KEYGATE_BENCH_MODE=1', () => {
    it('returns a frozen config with policies off', () => {
      const config = loadConfig({ KEYGATE_POLICIES: 'off', KEYGATE_BENCH_MODE: '1' });
      assert.equal(config.policies, 'off');
      assert.ok(Object.isFrozen(config));
    });
  });

  describe('with KEYGATE_BENCH_MODE=1 and policies on', () => {
    it('keeps policies on', () => {
      assert.equal(loadConfig({ KEYGATE_POLICIES: 'on', KEYGATE_BENCH_MODE: '1' }).policies, 'on');
    });
  });

  describe('with invalid values', () => {
    it('refuses anything but on/off and 0/1', () => {
      assert.throws(
        () => loadConfig({ KEYGATE_POLICIES: 'false' }),
        /KEYGATE_POLICIES: must be 'on' or 'off'/,
      );
      assert.throws(
        () => loadConfig({ KEYGATE_POLICIES: 'off', KEYGATE_BENCH_MODE: 'yes' }),
        /KEYGATE_BENCH_MODE: must be '0' or '1'/,
      );
    });
  });
});

describe('loadConfig: KEYGATE_API_LOG', () => {
  it('keeps the API log on by default, also in bench mode', () => {
    assert.equal(loadConfig({}).apiLog, 'on');
    assert.equal(loadConfig({ KEYGATE_BENCH_MODE: '1' }).apiLog, 'on');
  });

  it('refuses off without KEYGATE_BENCH_MODE=1, in one line naming both', () => {
    for (const mode of [undefined, '0']) {
      assert.throws(
        () => loadConfig({ KEYGATE_API_LOG: 'off', KEYGATE_BENCH_MODE: mode }),
        (error: unknown) =>
          error instanceof Error &&
          !error.message.includes('\n') &&
          /^KEYGATE_API_LOG: off keeps no API log lines/.test(error.message) &&
          error.message.includes('KEYGATE_BENCH_MODE=1'),
      );
    }
  });

  it('accepts off in bench mode, with policies on', () => {
    const config = loadConfig({ KEYGATE_API_LOG: 'off', KEYGATE_BENCH_MODE: '1' });
    assert.equal(config.apiLog, 'off');
    assert.equal(config.policies, 'on');
  });

  it('refuses anything but on/off', () => {
    assert.throws(
      () => loadConfig({ KEYGATE_API_LOG: 'no', KEYGATE_BENCH_MODE: '1' }),
      /KEYGATE_API_LOG: must be 'on' or 'off'/,
    );
  });
});
