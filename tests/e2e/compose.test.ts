import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { generateIdentityKeyPair } from '@keygate/identity';
import { parse as parseYaml } from 'yaml';
import { COMMERCE_NODE_FLAGS } from '../../commerce/src/node-flags.ts';
import {
  GATEWAY_MALLOC_ENV,
  GATEWAY_MEMORY_LIMIT_MIB,
  GATEWAY_NODE_FLAGS,
} from '../../gateway/src/node-flags.ts';
import { ROOT, runNode, tempDir } from '../support/processes.ts';

type Yaml = string | number | boolean | null | Yaml[] | { [key: string]: Yaml };
type Service = { [key: string]: Yaml };
interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A secret tag key every gateway replica must share (base64 of 32 bytes). */
const SECRET_TAG_KEY = Buffer.alloc(32, 7).toString('base64');
const SERVICES = ['redis', 'gateway-1', 'gateway-2', 'lb', 'commerce-live', 'commerce-test'];
/** The optional `cluster` profile (docker-compose 1.x lists them always, 2.x only with the profile). */
const CLUSTER_SERVICES = ['redis-node-1', 'redis-node-2', 'redis-node-3', 'redis-cluster-init'];
/** The optional `tracing` profile. */
const TRACING_SERVICES = ['jaeger'];
const withoutProfiles = (names: string[]) =>
  names.filter((name) => !CLUSTER_SERVICES.includes(name) && !TRACING_SERVICES.includes(name));
/** The services that export traces when tracing is on. */
const TRACED_SERVICES = ['gateway-1', 'gateway-2', 'commerce-live', 'commerce-test'];
/** Variables the compose file reads; cleared so the operator's shell can't change what is tested. */
const COMPOSE_VARIABLES = [
  'KEYGATE_IDENTITY_PRIVATE_JWK',
  'KEYGATE_SECRET_TAG_KEY',
  'KEYGATE_PORT',
  'KEYGATE_LB_ADDRESS',
  'KEYGATE_SUBNET',
  'KEYGATE_IDENTITY_BINDING',
  'KEYGATE_IDENTITY_TTL_SECONDS',
  'KEYGATE_TRACE_INCOMING',
  'KEYGATE_JAEGER_UI_PORT',
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_EXPORTER_OTLP_PROTOCOL',
  'OTEL_TRACES_SAMPLER',
  'OTEL_TRACES_SAMPLER_ARG',
];

function runCommand(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolveRun({ code, stdout, stderr }));
  });
}

function asMap(value: Yaml | undefined, what: string): { [key: string]: Yaml } {
  assert.ok(value && typeof value === 'object' && !Array.isArray(value), `${what} is not a mapping`);
  return value;
}

function environmentOf(service: Service, name: string): { [key: string]: Yaml } {
  return asMap(service.environment, `${name}.environment`);
}

const gatewayNames = (services: Record<string, Service>) =>
  Object.keys(services).filter((name) => /^gateway-\d+$/.test(name));

/** Published ports as numbers (compose v1 prints numbers, v2 strings). */
const portsOf = (service: Service, name: string) =>
  ((service.ports as Yaml[] | undefined) ?? []).map((port) => {
    const { published, target } = asMap(port, `${name} port`);
    return { published: Number(published), target: Number(target) };
  });

/** A compose memory size in MiB: v1 prints it as written (`384m`), v2 in bytes. */
function mebibytesOf(value: Yaml | undefined, what: string): number {
  const match = /^(\d+)([kmg]?)b?$/i.exec(String(value ?? ''));
  assert.ok(match, `${what}: no memory size (${String(value)})`);
  const scale = { '': 1 / 2 ** 20, k: 1 / 1024, m: 1, g: 1024 }[
    match[2]!.toLowerCase() as '' | 'k' | 'm' | 'g'
  ];
  return Number(match[1]) * scale;
}

/** `source:target` of each mount (v1 prints `source:target:mode`, v2 a mapping). */
const mountsOf = (service: Service) =>
  ((service.volumes as Yaml[] | undefined) ?? []).map((volume) => {
    if (typeof volume === 'string') return volume.split(':').slice(0, 2).join(':');
    const { source, target } = asMap(volume, 'volume');
    return `${source}:${target}`;
  });

describe('docker-compose.yml', () => {
  let scratch: ReturnType<typeof tempDir>;
  let emptyEnvFile = '';
  let privateJwk = '';
  /** Compose v2 prints JSON on request; v1 (Debian's docker-compose 1.29) only YAML. */
  let printsJson = false;

  /** `docker-compose config` with the compose variables cleared, then `overrides` set. */
  async function composeConfig(overrides: Record<string, string>, ...flags: string[]): Promise<Run> {
    const env: NodeJS.ProcessEnv = { ...process.env, ...overrides };
    for (const name of COMPOSE_VARIABLES) if (!(name in overrides)) delete env[name];
    const args = ['--env-file', emptyEnvFile, '-f', 'docker-compose.yml', 'config', ...flags];
    return runCommand('docker-compose', args, env).catch((error: NodeJS.ErrnoException) => {
      const where = process.env.CI === 'true' ? 'CI must install it' : 'install it to run this test';
      assert.fail(
        error.code === 'ENOENT'
          ? `docker-compose is not on the PATH (Debian: apt-get install docker-compose); ${where}`
          : `docker-compose could not run: ${error.message}`,
      );
    });
  }

  async function loadServices(overrides: Record<string, string> = {}): Promise<Record<string, Service>> {
    const flags = printsJson ? ['--format', 'json'] : [];
    const run = await composeConfig(
      { KEYGATE_IDENTITY_PRIVATE_JWK: privateJwk, KEYGATE_SECRET_TAG_KEY: SECRET_TAG_KEY, ...overrides },
      ...flags,
    );
    assert.equal(run.code, 0, `docker-compose config failed:\n${run.stderr}`);
    const config = printsJson ? (JSON.parse(run.stdout) as Yaml) : (parseYaml(run.stdout) as Yaml);
    const services = asMap(asMap(config, 'config').services, 'services');
    return Object.fromEntries(
      Object.entries(services).map(([name, service]) => [name, asMap(service, name)]),
    );
  }

  before(async () => {
    scratch = tempDir('keygate-compose-');
    emptyEnvFile = join(scratch.path, 'empty.env');
    writeFileSync(emptyEnvFile, '');
    privateJwk = JSON.stringify((await generateIdentityKeyPair()).privateJwk);
    const version = await runCommand('docker-compose', ['version', '--short'], process.env).catch(() => null);
    printsJson = /^v?2\./.test(version?.stdout.trim() ?? '');
  });
  after(() => scratch.remove());

  describe('with a shared identity key in the environment', () => {
    let services: Record<string, Service> = {};
    before(async () => {
      services = await loadServices();
    });

    it('validates and defines redis, two gateways, the load balancer and both commerce services', async () => {
      assert.deepEqual(withoutProfiles(Object.keys(services)).sort(), [...SERVICES].sort());
      const listed = await composeConfig(
        { KEYGATE_IDENTITY_PRIVATE_JWK: privateJwk, KEYGATE_SECRET_TAG_KEY: SECRET_TAG_KEY },
        '--services',
      );
      assert.deepEqual(withoutProfiles(listed.stdout.trim().split('\n')).sort(), [...SERVICES].sort());
    });

    it('offers a three-node Redis Cluster under the optional cluster profile only', async () => {
      for (const name of CLUSTER_SERVICES) {
        const service = services[name];
        if (service) assert.deepEqual(service.profiles, ['cluster'], name);
      }
      for (const name of CLUSTER_SERVICES.slice(0, 3)) {
        const command = ((services[name]?.command as Yaml[] | undefined) ?? []).join(' ');
        if (services[name]) assert.match(command, /--cluster-enabled yes/, name);
      }
    });

    it('publishes exactly one port, 8080 on lb, and no gateway port', () => {
      const published = Object.entries(services)
        .filter(([name]) => !TRACING_SERVICES.includes(name))
        .flatMap(([name, service]) => portsOf(service, name).map((port) => ({ name, ...port })));
      assert.deepEqual(published, [{ name: 'lb', published: 8080, target: 8080 }]);
      for (const name of gatewayNames(services)) assert.equal(services[name]!.ports, undefined, name);
    });

    it('gives every gateway the same Redis, upstreams, identity and secret tag keys, trusting only lb', () => {
      const lbAddress = asMap(
        asMap(services.lb!.networks, 'lb.networks').keygate,
        'lb on keygate',
      ).ipv4_address;
      assert.equal(typeof lbAddress, 'string');
      for (const name of gatewayNames(services)) {
        const env = environmentOf(services[name]!, name);
        assert.equal(env.REDIS_URL, 'redis://redis:6379', name);
        assert.equal(env.KEYGATE_REDIS_CLUSTER_NODES ?? '', '', name);
        assert.equal(env.KEYGATE_IDENTITY_PRIVATE_JWK, privateJwk, name);
        assert.equal(env.KEYGATE_SECRET_TAG_KEY, SECRET_TAG_KEY, name);
        assert.equal(env.KEYGATE_UPSTREAM_LIVE, 'http://commerce-live:8081', name);
        assert.equal(env.KEYGATE_UPSTREAM_TEST, 'http://commerce-test:8082', name);
        assert.equal(env.KEYGATE_TRUSTED_PROXIES, lbAddress, name);
        assert.equal(env.GATEWAY_HOST, '0.0.0.0', name);
        const redis = asMap(
          asMap(services[name]!.depends_on, `${name}.depends_on`).redis,
          `${name} on redis`,
        );
        assert.equal(redis.condition, 'service_healthy', name);
      }
    });

    it('runs each commerce environment on its own port and data volume, verifying through lb', () => {
      const volumes = new Set<string>();
      for (const [environment, port] of [
        ['live', '8081'],
        ['test', '8082'],
      ] as const) {
        const service = services[`commerce-${environment}`]!;
        const env = environmentOf(service, `commerce-${environment}`);
        assert.equal(env.COMMERCE_ENV, environment);
        assert.equal(env.COMMERCE_PORT, port);
        assert.equal(env.COMMERCE_HOST, '0.0.0.0');
        assert.equal(env.KEYGATE_JWKS_URL, 'http://lb:8080/.well-known/jwks.json');
        for (const mount of mountsOf(service)) volumes.add(mount);
      }
      assert.deepEqual([...volumes].sort(), ['commerce-live-data:/data', 'commerce-test-data:/data']);
    });

    it('persists Redis with an append-only file fsynced on every write, on a volume', () => {
      const command = (services.redis!.command as Yaml[]).join(' ');
      assert.match(command, /(^| )--appendonly yes( |$)/);
      assert.match(command, /(^| )--appendfsync always( |$)/, 'a crash must not bring a revoked key back');
      assert.deepEqual(mountsOf(services.redis!), ['redis-data:/data']);
    });

    it('gives every long-running service a healthcheck whose script exists', () => {
      for (const [name, service] of Object.entries(services)) {
        if (service.restart === 'no') continue; // a one-shot job (redis-cluster-init)
        // A development trace viewer: nothing waits for it, and spans it misses are dropped and counted.
        if (TRACING_SERVICES.includes(name)) continue;
        const test = asMap(service.healthcheck, `${name}.healthcheck`).test as Yaml[];
        assert.ok(Array.isArray(test) && test[0] === 'CMD' && test.length > 1, `${name} healthcheck`);
        if (test[1] === 'node') assert.ok(existsSync(resolve(ROOT, String(test[2]))), `${name}: ${test[2]}`);
      }
    });

    it('limits each gateway container to the memory an instance was measured to need', () => {
      for (const name of gatewayNames(services)) {
        assert.equal(mebibytesOf(services[name]!.mem_limit, `${name}.mem_limit`), GATEWAY_MEMORY_LIMIT_MIB);
      }
      // The limit sits above V8's own heap limit, so a heap that outgrows it stops with V8's
      // out-of-memory error instead of a silent kill by the kernel.
      const oldSpace = GATEWAY_NODE_FLAGS.find((flag) => flag.startsWith('--max-old-space-size='));
      assert.ok(oldSpace, 'the gateway runs with a heap limit');
      assert.ok(Number(oldSpace.split('=')[1]) < GATEWAY_MEMORY_LIMIT_MIB);
    });

    it('has nginx balance over exactly the gateway services, forwarding the client address', () => {
      const nginx = readFileSync(resolve(ROOT, 'deploy/nginx.conf'), 'utf8');
      const servers = [...nginx.matchAll(/^\s*server\s+([\w.-]+):8080\b/gm)].map((match) => match[1]);
      assert.deepEqual(servers.sort(), gatewayNames(services).sort());
      assert.match(nginx, /^\s*keepalive\s+\d+;/m);
      assert.match(nginx, /proxy_set_header\s+X-Forwarded-For\s+\$proxy_add_x_forwarded_for;/);
      assert.match(nginx, /^\s*listen\s+8080;/m);
    });
  });

  describe('with KEYGATE_IDENTITY_BINDING and KEYGATE_IDENTITY_TTL_SECONDS', () => {
    it('binds assertions to the key for 60 s in every gateway unless told, and passes request binding on', async () => {
      const defaults = await loadServices({});
      const request = await loadServices({
        KEYGATE_IDENTITY_BINDING: 'request',
        KEYGATE_IDENTITY_TTL_SECONDS: '30',
      });
      for (const name of gatewayNames(defaults)) {
        const env = environmentOf(defaults[name]!, name);
        assert.deepEqual(
          [env.KEYGATE_IDENTITY_BINDING, String(env.KEYGATE_IDENTITY_TTL_SECONDS)],
          ['key', '60'],
          name,
        );
      }
      for (const name of gatewayNames(request)) {
        const env = environmentOf(request[name]!, name);
        assert.deepEqual(
          [env.KEYGATE_IDENTITY_BINDING, String(env.KEYGATE_IDENTITY_TTL_SECONDS)],
          ['request', '30'],
          name,
        );
      }
    });
  });

  describe('tracing', () => {
    it('is off by default: every gateway and commerce gets an empty OTLP endpoint and continues traces', async () => {
      const services = await loadServices();
      for (const name of TRACED_SERVICES) {
        const env = environmentOf(services[name]!, name);
        assert.equal(env.OTEL_EXPORTER_OTLP_ENDPOINT, '', name);
        assert.equal(env.OTEL_TRACES_SAMPLER, 'parentbased_always_on', name);
        if (name.startsWith('gateway')) assert.equal(env.KEYGATE_TRACE_INCOMING, 'continue', name);
      }
    });

    it('offers Jaeger under the tracing profile only, its UI on the loopback, and wires every service to it', async () => {
      const services = await loadServices({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://jaeger:4318',
        OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
        OTEL_TRACES_SAMPLER_ARG: '0.01',
        KEYGATE_TRACE_INCOMING: 'link',
      });
      const jaeger = services.jaeger;
      // docker-compose 1.x lists profile services always, 2.x only with their profile.
      assert.ok(jaeger !== undefined || printsJson, 'docker-compose 1.x lists the jaeger service');
      if (jaeger) {
        assert.deepEqual(jaeger.profiles, ['tracing']);
        // v1 prints the short syntax as written, v2 a mapping.
        const ports = (jaeger.ports as Yaml[]).map((entry) => {
          if (typeof entry === 'string') return entry.replace(/\/tcp$/, '');
          const { host_ip: host, published, target } = asMap(entry, 'jaeger port');
          return `${String(host)}:${String(published)}:${String(target)}`;
        });
        assert.deepEqual(ports, ['127.0.0.1:16686:16686'], 'the UI is published on the loopback only');
        assert.match(
          (jaeger.command as Yaml[]).join(' '),
          /receivers\.otlp\.protocols\.http\.endpoint=0\.0\.0\.0:4318/,
        );
      }
      for (const name of TRACED_SERVICES) {
        const env = environmentOf(services[name]!, name);
        assert.equal(env.OTEL_EXPORTER_OTLP_ENDPOINT, 'http://jaeger:4318', name);
        assert.equal(env.OTEL_EXPORTER_OTLP_PROTOCOL, 'http/protobuf', name);
        assert.equal(env.OTEL_TRACES_SAMPLER, 'parentbased_traceidratio', name);
        assert.equal(env.OTEL_TRACES_SAMPLER_ARG, '0.01', name);
        if (name.startsWith('gateway')) assert.equal(env.KEYGATE_TRACE_INCOMING, 'link', name);
      }
    });
  });

  describe('with KEYGATE_PORT set', () => {
    it('publishes lb on that port', async () => {
      const services = await loadServices({ KEYGATE_PORT: '9090' });
      assert.deepEqual(portsOf(services.lb!, 'lb'), [{ published: 9090, target: 8080 }]);
    });
  });

  describe('without an identity key', () => {
    it('refuses the configuration and says how to generate one', async () => {
      const run = await composeConfig({});
      assert.notEqual(run.code, 0);
      assert.match(run.stderr, /node deploy\/generate-identity-key\.ts/);
    });
  });

  describe('without a secret tag key', () => {
    it('refuses the configuration and says how to make one', async () => {
      const run = await composeConfig({ KEYGATE_IDENTITY_PRIVATE_JWK: privateJwk });
      assert.notEqual(run.code, 0);
      assert.match(run.stderr, /KEYGATE_SECRET_TAG_KEY/);
      assert.match(run.stderr, /openssl rand -base64 32/);
    });
  });
});

describe('the container images', () => {
  for (const service of ['gateway', 'commerce']) {
    describe(`${service}/Dockerfile`, () => {
      const dockerfile = () => readFileSync(resolve(ROOT, service, 'Dockerfile'), 'utf8');

      it('builds in two or more stages, installing production dependencies with the lockfile', () => {
        assert.ok((dockerfile().match(/^FROM\s/gm) ?? []).length >= 2, 'multi-stage build');
        assert.match(dockerfile(), /pnpm install [^\n]*--frozen-lockfile[^\n]*--prod/);
      });

      it('runs as a non-root user with a healthcheck and an exec-form node command', () => {
        const users = [...dockerfile().matchAll(/^USER\s+(\S+)/gm)].map((match) => match[1]);
        assert.ok(users.length > 0, 'has a USER');
        assert.ok(!['root', '0'].includes(users.at(-1)!), `runs as ${users.at(-1)}`);
        assert.match(dockerfile(), /^HEALTHCHECK\s/m);
        const command = /^CMD\s+(\[.*\])\s*$/m.exec(dockerfile());
        assert.ok(command, 'exec-form CMD');
        // Each service runs with the Node flags of its src/node-flags.ts, as `pnpm start` does.
        const flags = service === 'gateway' ? GATEWAY_NODE_FLAGS : COMMERCE_NODE_FLAGS;
        assert.deepEqual(JSON.parse(command[1]!), ['node', ...flags, `${service}/src/main.ts`]);
        assert.ok(existsSync(resolve(ROOT, service, 'src/main.ts')));
      });

      if (service === 'gateway') {
        it("sets glibc's allocator as the bench measured it (GATEWAY_MALLOC_ENV)", () => {
          const env = [...dockerfile().matchAll(/^ENV\s+((?:.*\\\n)*.*)$/gm)]
            .map((match) => match[1])
            .join(' ');
          for (const [name, value] of Object.entries(GATEWAY_MALLOC_ENV)) {
            assert.match(env, new RegExp(`(^|\\s)${name}=${value}(\\s|$)`), `ENV ${name}=${value}`);
          }
        });
      }
    });
  }

  it('keeps host node_modules and secrets out of the build context', () => {
    const ignored = readFileSync(resolve(ROOT, '.dockerignore'), 'utf8').split('\n');
    for (const pattern of ['**/node_modules', '.env', '.git']) assert.ok(ignored.includes(pattern), pattern);
  });
});

describe('deploy scripts', () => {
  describe('generate-identity-key.ts', () => {
    it('prints one private P-256 (ES256) JWK with a kid', async () => {
      const run = await runNode('deploy/generate-identity-key.ts', [], {});
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.stdout.trim().split('\n').length, 1);
      const jwk = JSON.parse(run.stdout) as Record<string, unknown>;
      assert.deepEqual([jwk.kty, jwk.crv, jwk.alg], ['EC', 'P-256', 'ES256']);
      for (const member of ['d', 'x', 'y', 'kid']) assert.equal(typeof jwk[member], 'string', member);
    });
  });

  describe('healthcheck.ts', () => {
    let server: Server;
    let base = '';
    before(async () => {
      server = createServer((req, res) => {
        res.statusCode = req.url === '/up' ? 200 : 503;
        res.end();
      });
      await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    after(() => server.close());

    it('exits 0 when the URL answers 2xx', async () => {
      assert.equal((await runNode('deploy/healthcheck.ts', [`${base}/up`], {})).code, 0);
    });

    it('exits 1 when the URL answers 503', async () => {
      assert.equal((await runNode('deploy/healthcheck.ts', [`${base}/down`], {})).code, 1);
    });

    it('exits 1 when nothing listens', async () => {
      const closed = createServer();
      await new Promise<void>((ready) => closed.listen(0, '127.0.0.1', ready));
      const { port } = closed.address() as AddressInfo;
      await new Promise((done) => closed.close(done));
      assert.equal((await runNode('deploy/healthcheck.ts', [`http://127.0.0.1:${port}/`], {})).code, 1);
    });
  });
});
