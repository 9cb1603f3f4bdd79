import { createHmac, timingSafeEqual } from 'node:crypto';

/** HMACs with one purpose each, so a value made for one use never verifies as another. */
function mac(secret: Buffer, purpose: string, value: string): string {
  return createHmac('sha256', secret).update(`console-${purpose}:${value}`).digest('base64url');
}

function equal(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** The cookie value of a session: its id and signature (`<id>.<hmac>`). */
export function signSessionId(secret: Buffer, id: string): string {
  return `${id}.${mac(secret, 'session', id)}`;
}

/** The session id of a cookie value whose signature holds, or undefined (forged or malformed). */
export function verifySessionCookie(secret: Buffer, value: string): string | undefined {
  const match = /^([0-9a-f]{24})\.([\w-]{43})$/.exec(value);
  if (!match) return undefined;
  return equal(match[2]!, mac(secret, 'session', match[1]!)) ? match[1] : undefined;
}

/** The CSRF token of a session: derived from its id, so nothing more is stored. */
export function csrfTokenOf(secret: Buffer, sessionId: string): string {
  return mac(secret, 'csrf', sessionId);
}

export function isCsrfTokenOf(secret: Buffer, sessionId: string, token: string): boolean {
  return equal(token, csrfTokenOf(secret, sessionId));
}

/**
 * One cookie's value out of a `Cookie` header, percent-decoded. A value that is not valid
 * percent-encoding comes back as sent: it is the client's, and it then verifies as no session
 * (a 401) rather than throwing a URIError (a 500).
 */
export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const index = part.indexOf('=');
    if (index > 0 && part.slice(0, index).trim() === name) return decodeCookieValue(part.slice(index + 1).trim());
  }
  return undefined;
}

function decodeCookieValue(value: string): string {
  if (!value.includes('%')) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
