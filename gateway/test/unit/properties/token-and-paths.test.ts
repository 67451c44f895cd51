import assert from 'node:assert/strict';
import fc from 'fast-check';
import { checkRequestPath, parseBearer } from '../../../src/auth/steps.ts';
import { DEFAULT_ROUTES_FILE, loadConfig } from '../../../src/config.ts';
import { GatewayError } from '../../../src/errors.ts';
import { checksumOf, generateToken, parseToken, TOKEN_LENGTH } from '../../../src/keys/token.ts';
import { compileRoutes, isSafePath } from '../../../src/routes/route-matcher.ts';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const environment = fc.constantFrom('live' as const, 'test' as const);
/** Characters a URL path may hold (RFC 3986 pchar and `/`), plus some it may not. */
const pathChar = fc.constantFrom(...'abcXYZ019-._~!$&\'()*+,;=:@/%2e%2F%5c% #?"<>\\{}é'.split(''));
const rawPath = fc.array(pathChar, { maxLength: 40 }).map((chars) => `/v2/${chars.join('')}`);

describe('properties: the token parser', () => {
  it('parses every generated token back to its environment and lookup', () => {
    fc.assert(
      fc.property(environment, (env) => {
        const { token, lookup, prefix } = generateToken(env);
        assert.deepEqual(parseToken(token), { environment: env, lookup, prefix });
      }),
      { numRuns: 300 },
    );
  });

  it('refuses a token with any one character changed (the checksum catches it)', () => {
    fc.assert(
      fc.property(
        environment,
        fc.nat({ max: TOKEN_LENGTH - 1 }),
        fc.constantFrom(...`${BASE62}_-.`.split('')),
        (env, index, char) => {
          const { token } = generateToken(env);
          fc.pre(token[index] !== char);
          const changed = token.slice(0, index) + char + token.slice(index + 1);
          assert.equal(parseToken(changed), null, changed);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('never throws on arbitrary text, and accepts only text whose checksum it recomputes', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.stringMatching(/^kg_(live|test)_\w+$/)),
        (text) => {
          const parsed = parseToken(text);
          if (parsed) assert.equal(checksumOf(text.slice(0, -6)), text.slice(-6));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('answers any Authorization header with a token or a 401 MISSING_KEY / MALFORMED_KEY, never another error', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.constant(undefined),
          fc.string().map((s) => `Bearer ${s}`),
        ),
        (header) => {
          try {
            const { token, parsed } = parseBearer(header);
            assert.deepEqual(parseToken(token), parsed);
          } catch (error) {
            assert.ok(error instanceof GatewayError, String(error));
            assert.ok(['MISSING_KEY', 'MALFORMED_KEY'].includes(error.code), error.code);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('properties: the request path checks', () => {
  it('refuse with a 4xx GatewayError or accept, and what they accept an upstream sees unchanged', () => {
    fc.assert(
      fc.property(rawPath, (path) => {
        try {
          checkRequestPath(path, path);
        } catch (error) {
          assert.ok(error instanceof GatewayError, String(error));
          assert.ok(error.status === 400 || error.status === 404, `${error.status} for ${path}`);
          return;
        }
        // WHATWG URL parsing (what most upstream frameworks do) neither moves nor re-encodes it:
        // no dot segment, encoded separator or fragment can make the upstream route elsewhere.
        assert.equal(new URL(path, 'http://upstream').pathname, path);
        const decoded = decodeURIComponent(path);
        assert.ok(!decoded.split('/').some((segment) => segment === '.' || segment === '..'), path);
      }),
      { numRuns: 5000 },
    );
  });

  it('isSafePath refuses every path with a dot segment, however its dots are encoded', () => {
    const dots = fc.constantFrom('.', '..', '%2e', '%2E', '.%2e', '%2e%2E', '%2E.');
    fc.assert(
      fc.property(
        fc.array(fc.stringMatching(/^[a-z0-9]{0,5}$/), { maxLength: 4 }),
        dots,
        fc.nat(4),
        (segments, dot, at) => {
          const all = [...segments];
          all.splice(Math.min(at, all.length), 0, dot);
          assert.equal(isSafePath(`/${all.join('/')}`), false);
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe('properties: the route matcher (shipped route table)', () => {
  const table = loadConfig({ KEYGATE_ROUTES_FILE: DEFAULT_ROUTES_FILE }).routes;
  const matcher = compileRoutes(table);
  const segment = fc.stringMatching(/^[A-Za-z0-9_~-]{1,12}$/);

  it('matches every route with any safe parameter values to that route, and its scope', () => {
    const routes = table.routes;
    fc.assert(
      fc.property(
        fc.nat(routes.length - 1),
        fc.array(segment, { minLength: 4, maxLength: 4 }),
        (index, values) => {
          const route = routes[index]!;
          let n = 0;
          const path = route.path.replace(/\{[^}]+\}/g, () => values[n++]!);
          const match = matcher.match(route.method, path);
          assert.ok(match?.kind === 'proxy', `${route.method} ${path}`);
          assert.equal(match.rule, `${route.method} ${route.path}`);
          assert.equal(match.scope, route.scope);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('never throws, and never matches a parameter across a `/`', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'get', 'X'),
        rawPath,
        (method, path) => {
          const match = matcher.match(method, path);
          if (match?.kind !== 'proxy') return;
          const pattern = match.rule.slice(match.rule.indexOf(' ') + 1);
          assert.equal(path.split('/').length, pattern.split('/').length, `${path} ~ ${pattern}`);
        },
      ),
      { numRuns: 3000 },
    );
  });
});
