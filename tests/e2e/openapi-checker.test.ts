import assert from 'node:assert/strict';
import { createConformanceChecker } from '../support/openapi-conformance.ts';

const RATE_LIMITED = {
  'RateLimit-Policy': '"per-key";q=600;w=60',
  RateLimit: '"per-key";r=599;t=60',
  'X-Request-Id': 'req_1',
};

/** A problem+json answer of `status` with `code` (and a `type` made from it unless given). */
function problemAnswer(status: number, code: string, type?: string) {
  const headers = new Headers({ ...RATE_LIMITED, 'Content-Type': 'application/problem+json' });
  if (status === 401) headers.set('WWW-Authenticate', 'Bearer realm="keygate"');
  const body = {
    type: type ?? `https://keygate.dev/problems/${code.toLowerCase().replaceAll('_', '-')}`,
    title: 'x',
    status,
    detail: 'x',
    code,
  };
  return { status, headers, text: JSON.stringify(body) };
}

describe('the conformance checker', () => {
  const checker = createConformanceChecker();
  const headers = new Headers({ 'Content-Type': 'application/json', ...RATE_LIMITED });
  const channels = JSON.stringify({ data: [] });

  it('accepts an answer the document describes', () => {
    assert.deepEqual(checker.check('listChannels', { status: 200, headers, text: channels }), []);
  });

  it('refuses undocumented members, missing headers, statuses and content types', () => {
    const extra = JSON.stringify({ data: [], total: 0 });
    assert.match(checker.check('listChannels', { status: 200, headers, text: extra }).join(), /additional/);
    const bare = new Headers({ 'Content-Type': 'application/json' });
    assert.match(
      checker.check('listChannels', { status: 200, headers: bare, text: channels }).join(),
      /RateLimit/,
    );
    assert.match(
      checker.check('listChannels', { status: 418, headers, text: channels }).join(),
      /not documented/,
    );
    const html = new Headers(headers);
    html.set('Content-Type', 'text/html');
    assert.match(
      checker.check('listChannels', { status: 200, headers: html, text: channels }).join(),
      /content type/,
    );
  });

  it('accepts a problem the operation documents', () => {
    const valid = problemAnswer(409, 'ROTATION_IN_PROGRESS');
    assert.deepEqual(checker.check('rotateKey', valid), []);
    assert.deepEqual(checker.check('listChannels', problemAnswer(401, 'MISSING_KEY')), []);
  });

  it('refuses a problem code the operation does not document, even of a documented status', () => {
    // CART_CHECKED_OUT is a 409 of the API, but not of key rotation; CONFLICT is no 422 at all.
    assert.match(
      checker.check('rotateKey', problemAnswer(409, 'CART_CHECKED_OUT')).join(),
      /CART_CHECKED_OUT \(409\) is not documented/,
    );
    assert.match(
      checker.check('createKey', problemAnswer(422, 'CONFLICT')).join(),
      /CONFLICT \(422\) is not documented/,
    );
    assert.match(
      checker.check('listChannels', problemAnswer(401, 'ADMIN_SESSION_REQUIRED')).join(),
      /not documented/,
    );
  });

  it('refuses a problem whose type is not made from its code, or whose status differs', () => {
    const wrongType = problemAnswer(401, 'MISSING_KEY', 'https://keygate.dev/problems/unknown-key');
    assert.match(
      checker.check('listChannels', wrongType).join(),
      /type .* is not https:\/\/keygate\.dev\/problems\/missing-key/,
    );
    const answer = problemAnswer(401, 'MISSING_KEY');
    const text = answer.text.replace('"status":401', '"status":403');
    assert.match(checker.check('listChannels', { ...answer, text }).join(), /status 403 in a 401 answer/);
  });
});
