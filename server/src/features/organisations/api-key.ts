import { hash, randomBytes } from 'node:crypto';

const KEY_PREFIX = 'pk_';

/** A new API key: 256 random bits, URL-safe. Shown once; only its hash is stored. */
export function generateApiKey(): string {
  return KEY_PREFIX + randomBytes(32).toString('base64url');
}

/**
 * SHA-256 of a key. Keys carry 256 bits of entropy, so a fast hash cannot be brute-forced, and
 * authentication stays one indexed lookup (a slow KDF would cost every request).
 */
export function hashApiKey(key: string): string {
  return hash('sha256', key, 'hex');
}

/** The part of a key that is safe to display when listing keys. */
export function displayPrefix(key: string): string {
  return key.slice(0, KEY_PREFIX.length + 6);
}
