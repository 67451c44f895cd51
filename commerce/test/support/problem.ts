import assert from 'node:assert/strict';
import type request from 'supertest';

/** Asserts a problem+json answer with this status and code; returns the body. */
export function assertProblem(res: request.Response, status: number, code: string): Record<string, unknown> {
  assert.equal(res.status, status, `expected ${status} ${code}, got ${res.status} ${res.text}`);
  assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
  assert.equal(res.body.code, code);
  assert.equal(res.body.status, status);
  assert.equal(typeof res.body.detail, 'string');
  assert.match(res.body.type, /^https:\/\/keygate\.dev\/problems\//);
  return res.body;
}
