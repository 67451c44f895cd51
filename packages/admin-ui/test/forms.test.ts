import assert from 'node:assert/strict';
import type { Problem } from '../src/api.ts';
import { dayRange } from '../src/date-range.ts';
import { groupFieldErrors } from '../src/field-errors.ts';
import { agencyPreset, checkAgency, initialValues, KEY_FIELDS, toCreateRequest } from '../src/key-form.ts';
import type { SessionSettings } from '../src/types.ts';

const SETTINGS: SessionSettings = {
  environments: ['live', 'test'],
  scopes: ['article:r', 'article:rw', 'auth:r', 'auth:rw', 'pricing:r', 'pricing:rw', 'stock:r', 'stock:rw'],
  maxOverlapDays: 7,
  defaultRateLimitPerMinute: 600,
  expiryReminderDays: [7, 1],
};

function validation(errors: Array<{ pointer: string; detail: string }>): Problem {
  return { type: 'x', title: 'Invalid request', status: 422, detail: '', errors };
}

describe('form helpers', () => {
  it('groups field errors by the input they belong to, naming list entries', () => {
    const grouped = groupFieldErrors(
      validation([
        { pointer: '/name', detail: 'name must not be empty' },
        { pointer: '/ipAllowlist/1', detail: 'not an address' },
        { pointer: '/rateLimit/perMinute', detail: 'too small' },
        { pointer: '/other', detail: 'unknown field' },
      ]),
      KEY_FIELDS,
    );
    assert.deepEqual(grouped, {
      '/name': ['name must not be empty'],
      '/ipAllowlist': ['entry 2: not an address'],
      '/rateLimit': ['too small'],
      '': ['unknown field'],
    });
  });

  it('sends only what was filled in', () => {
    const body = toCreateRequest({
      ...initialValues(),
      name: 'shop',
      scopes: ['article:r'],
      ipAllowlist: ' 10.0.0.1 \n\n2001:db8::/32\n',
    });
    assert.deepEqual(body, {
      name: 'shop',
      environment: 'live',
      scopes: ['article:r'],
      ipAllowlist: ['10.0.0.1', '2001:db8::/32'],
    });
    assert.deepEqual(toCreateRequest({ ...initialValues(), expiresAt: '2027-01-31', rateLimit: '60' }), {
      name: '',
      environment: 'live',
      scopes: [],
      expiresAt: '2027-01-31',
      rateLimit: { perMinute: 60 },
    });
  });

  it('presets an agency key and refuses one without IP allowlist or with key management', () => {
    const agency = agencyPreset({ ...initialValues(), name: 'acme' }, SETTINGS);
    assert.deepEqual(agency.scopes, ['article:r', 'pricing:r', 'stock:r']);
    assert.match(agency.expiresAt, /^\d{4}-\d{2}-\d{2}$/);
    assert.equal(agency.rateLimit, '120');
    const refused = checkAgency({ ...agency, scopes: [...agency.scopes, 'auth:rw'] });
    assert.deepEqual(
      refused?.errors?.map((e) => e.pointer),
      ['/ipAllowlist', '/scopes'],
    );
    assert.equal(checkAgency({ ...agency, ipAllowlist: '203.0.113.0/24' }), null);
    assert.equal(checkAgency(initialValues()), null, 'a standard key has no such rule');
  });

  it('turns a day range into instants covering the last day whole', () => {
    assert.deepEqual(dayRange('2026-11-01', '2026-11-21'), {
      from: '2026-11-01T00:00:00.000Z',
      to: '2026-11-22T00:00:00.000Z',
    });
    assert.deepEqual(dayRange('', ''), {});
  });
});
