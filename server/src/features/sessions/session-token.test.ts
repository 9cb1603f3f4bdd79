import { describe, expect, it } from 'vitest';
import { csrfTokenOf, isCsrfTokenOf, readCookie, signSessionId, verifySessionCookie } from './session-token.js';

const secret = Buffer.alloc(32, 7);
const other = Buffer.alloc(32, 8);
const id = '0123456789abcdef01234567';

describe('session tokens', () => {
  it('verifies a signed session id and refuses tampering, other secrets and malformed values', () => {
    const cookie = signSessionId(secret, id);
    expect(verifySessionCookie(secret, cookie)).toBe(id);
    expect(verifySessionCookie(other, cookie)).toBeUndefined();
    expect(verifySessionCookie(secret, cookie.replace(id, 'ffffffffffffffffffffffff'))).toBeUndefined();
    for (const value of ['', id, `${id}.`, `${id}.short`, `../${id}.${'a'.repeat(43)}`]) expect(verifySessionCookie(secret, value)).toBeUndefined();
  });

  it('derives a CSRF token per session that is not the cookie\'s signature', () => {
    const token = csrfTokenOf(secret, id);
    expect(isCsrfTokenOf(secret, id, token)).toBe(true);
    expect(isCsrfTokenOf(secret, 'ffffffffffffffffffffffff', token)).toBe(false);
    expect(isCsrfTokenOf(secret, id, '')).toBe(false);
    expect(signSessionId(secret, id)).not.toContain(token);
  });

  it('reads one cookie out of a Cookie header', () => {
    expect(readCookie('a=1; parley_session=x.y; b=2', 'parley_session')).toBe('x.y');
    expect(readCookie('parley_session_old=1', 'parley_session')).toBeUndefined();
    expect(readCookie(undefined, 'parley_session')).toBeUndefined();
  });

  it('reads a cookie that is not valid percent-encoding as its raw value instead of throwing', () => {
    for (const value of ['%', '%E0%A4%A', 'a%zz']) {
      expect(readCookie(`parley_session=${value}`, 'parley_session')).toBe(value);
      expect(verifySessionCookie(secret, readCookie(`parley_session=${value}`, 'parley_session')!)).toBeUndefined();
    }
    expect(readCookie('parley_session=a%2Eb', 'parley_session')).toBe('a.b');
  });
});
