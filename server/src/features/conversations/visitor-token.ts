import { createHash, randomBytes } from 'node:crypto';

/** A new secret a visitor needs to extend its own conversation (256 random bits, URL-safe). */
export function generateVisitorToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What is stored of a visitor token: its SHA-256, hex. The token itself is never stored. */
export function hashVisitorToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
