import assert from 'node:assert/strict';
import { DeprecationSchema, unsupportedVersionOf } from '../../../src/routes/deprecation.ts';
import { compileRoutes } from '../../../src/routes/route-matcher.ts';
import { RouteTableSchema } from '../../../src/routes/route-table.ts';

const LINK = 'https://keygate.dev/deprecation-policy';

function tableWith(extra: { versions?: unknown; deprecation?: unknown }) {
  return {
    upstreams: { commerce: { audience: 'commerce', live: 'http://live:1' } },
    defaultUpstream: 'commerce',
    ...(extra.versions === undefined ? {} : { versions: extra.versions }),
    routes: [
      {
        method: 'GET',
        path: '/v2/channels',
        scope: 'article:r',
        ...(extra.deprecation === undefined ? {} : { deprecation: extra.deprecation }),
      },
    ],
  };
}

describe('DeprecationSchema', () => {
  it('accepts a sunset on or after the deprecation date', () => {
    for (const sunset of ['2027-01-01T00:00:00Z', '2027-07-01T00:00:00Z']) {
      assert.ok(DeprecationSchema.safeParse({ at: '2027-01-01T00:00:00Z', sunset, link: LINK }).success);
    }
  });

  it('refuses a sunset earlier than the deprecation date, also across time zones', () => {
    for (const [at, sunset] of [
      ['2027-07-01T00:00:00Z', '2027-01-01T00:00:00Z'],
      ['2027-01-01T00:30:00Z', '2027-01-01T01:00:00+01:00'],
    ]) {
      const parsed = DeprecationSchema.safeParse({ at, sunset, link: LINK });
      assert.equal(parsed.success, false, `${at} → ${sunset}`);
      assert.deepEqual(parsed.error?.issues[0]?.path, ['sunset']);
    }
  });

  it('refuses a non-https link, a date that is not ISO 8601 and unknown members', () => {
    const valid = { at: '2027-01-01T00:00:00Z', sunset: '2027-07-01T00:00:00Z', link: LINK };
    for (const bad of [
      { ...valid, link: 'http://keygate.dev/policy' },
      { ...valid, link: 'not a url' },
      { ...valid, at: '01/01/2027' },
      { ...valid, sunset: 'Thu, 01 Jul 2027 00:00:00 GMT' },
      { ...valid, reason: 'old' },
      { at: valid.at, link: LINK },
    ]) {
      assert.equal(DeprecationSchema.safeParse(bad).success, false, JSON.stringify(bad));
    }
  });
});

describe('route table deprecations', () => {
  it('refuses a route whose sunset precedes its deprecation', () => {
    const parsed = RouteTableSchema.safeParse(
      tableWith({ deprecation: { at: '2027-07-01T00:00:00Z', sunset: '2027-01-01T00:00:00Z', link: LINK } }),
    );
    assert.equal(parsed.success, false);
    assert.deepEqual(parsed.error?.issues[0]?.path, ['routes', 0, 'deprecation', 'sunset']);
  });

  it('refuses settings for a version the gateway does not serve, or a key that is no version', () => {
    for (const versions of [{ v3: {} }, { latest: {} }]) {
      assert.equal(
        RouteTableSchema.safeParse(tableWith({ versions })).success,
        false,
        JSON.stringify(versions),
      );
    }
  });

  it('computes the header values once, when the table is compiled', () => {
    const routes = compileRoutes(
      RouteTableSchema.parse(
        tableWith({
          deprecation: { at: '2027-01-01T00:00:00.750Z', sunset: '2027-07-01T00:00:00Z', link: LINK },
        }),
      ),
    );
    const first = routes.match('GET', '/v2/channels')?.deprecation;
    assert.deepEqual(first, {
      deprecation: '@1798761600',
      sunset: 'Thu, 01 Jul 2027 00:00:00 GMT',
      link: `<${LINK}>; rel="deprecation"`,
    });
    assert.equal(routes.match('HEAD', '/v2/channels')?.deprecation, first, 'the same precomputed object');
  });

  it('leaves management routes undeprecated unless their version is', () => {
    const plain = compileRoutes(RouteTableSchema.parse(tableWith({})));
    assert.equal(plain.match('GET', '/v2/auth/keys')?.deprecation, undefined);
    const deprecated = compileRoutes(
      RouteTableSchema.parse(
        tableWith({
          versions: {
            v2: { deprecation: { at: '2027-01-01T00:00:00Z', sunset: '2027-07-01T00:00:00Z', link: LINK } },
          },
        }),
      ),
    );
    assert.equal(deprecated.match('GET', '/v2/auth/keys/key_1')?.deprecation?.deprecation, '@1798761600');
  });
});

describe('unsupportedVersionOf', () => {
  it('names a version segment the gateway does not serve', () => {
    assert.equal(unsupportedVersionOf('/v1/catalog/products'), 'v1');
    assert.equal(unsupportedVersionOf('/v3'), 'v3');
    assert.equal(unsupportedVersionOf('/v10/x'), 'v10');
  });

  it('is null for the served version and for segments that are no version', () => {
    for (const path of ['/v2/catalog', '/v2', '/V1/x', '/version/x', '/v1x/y', '/docs', '/']) {
      assert.equal(unsupportedVersionOf(path), null, path);
    }
  });
});
