import assert from 'node:assert/strict';
import { normalizeOrigin } from '../../../src/admin/request-origin.ts';
import {
  formatClearedSessionCookie,
  formatSessionCookie,
  isSecureCookie,
  readSessionCookie,
} from '../../../src/admin/session-cookie.ts';

describe('readSessionCookie', () => {
  it('finds keygate_admin among other cookies', () => {
    assert.equal(readSessionCookie('a=1; keygate_admin=tok1; b=2'), 'tok1');
    assert.equal(readSessionCookie('keygate_admin="quoted"'), 'quoted');
  });

  it('answers null when keygate_admin is sent more than once (a planted second cookie)', () => {
    assert.equal(readSessionCookie('a=1; keygate_admin=tok1; keygate_admin=tok2'), null);
    assert.equal(readSessionCookie('keygate_admin=tok1; keygate_admin=tok1'), null);
  });

  it('answers null without the cookie, or for a cookie that only ends with the name', () => {
    assert.equal(readSessionCookie(undefined), null);
    assert.equal(readSessionCookie('x_keygate_admin=tok; other=1'), null);
  });
});

describe('formatSessionCookie', () => {
  it('is HttpOnly, SameSite=Strict, on /admin, and Secure only when asked', () => {
    assert.equal(
      formatSessionCookie('tok', false),
      'keygate_admin=tok; Path=/admin; HttpOnly; SameSite=Strict',
    );
    assert.equal(
      formatSessionCookie('tok', true),
      'keygate_admin=tok; Path=/admin; HttpOnly; SameSite=Strict; Secure',
    );
    assert.match(formatClearedSessionCookie(false), /^keygate_admin=; Path=\/admin; .*Max-Age=0/);
  });

  it('is Secure per setting: always, never, or over HTTPS only', () => {
    assert.equal(isSecureCookie('true', 'http'), true);
    assert.equal(isSecureCookie('false', 'https'), false);
    assert.equal(isSecureCookie('auto', 'https'), true);
    assert.equal(isSecureCookie('auto', 'http'), false);
  });
});

describe('normalizeOrigin', () => {
  it('drops default ports and lower-cases the host, as browsers send Origin', () => {
    assert.equal(normalizeOrigin('https://Admin.Example:443'), 'https://admin.example');
    assert.equal(normalizeOrigin('http://admin.example:8080'), 'http://admin.example:8080');
  });

  it('refuses what is not an http(s) origin', () => {
    for (const value of [
      'null',
      'file://',
      'javascript:alert(1)',
      'https://a.example/path',
      'https://u:p@a.example',
    ]) {
      assert.equal(normalizeOrigin(value), null, value);
    }
  });
});
