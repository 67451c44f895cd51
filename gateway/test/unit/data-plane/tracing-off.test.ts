import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const APP = fileURLToPath(new URL('../../../src/app.ts', import.meta.url));

/**
 * Loads the gateway's app module and starts tracing the way `openGateway` does, in a fresh process
 * that records every module it resolves; returns the resolved URLs.
 */
function modulesLoadedWith(env: Record<string, string>): string[] {
  const script = `
    import { registerHooks } from 'node:module';
    const seen = [];
    registerHooks({ resolve(specifier, context, next) { const r = next(specifier, context); seen.push(r.url); return r; } });
    const { loadConfig } = await import(${JSON.stringify(APP.replace(/app\.ts$/, 'config.ts'))});
    await import(${JSON.stringify(APP)});
    const { startTracing } = await import('@keygate/tracing');
    const tracer = await startTracing(loadConfig(process.env).tracing);
    await tracer?.shutdown();
    process.stdout.write(JSON.stringify(seen));
  `;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: fileURLToPath(new URL('../../..', import.meta.url)),
    env: { PATH: process.env.PATH, ...env },
    encoding: 'utf8',
  });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout) as string[];
}

const isSdk = (url: string) =>
  /@opentelemetry\/(sdk-trace|exporter-|context-async-hooks|resources)/.test(url);

describe('tracing off', () => {
  it('loads no part of the OpenTelemetry SDK without an OTLP endpoint, and loads it with one', function () {
    this.timeout(30_000);
    assert.deepEqual(modulesLoadedWith({}).filter(isSdk), []);
    assert.deepEqual(
      modulesLoadedWith({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318',
        OTEL_SDK_DISABLED: 'true',
      }).filter(isSdk),
      [],
    );
    assert.ok(modulesLoadedWith({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' }).some(isSdk));
  });
});
