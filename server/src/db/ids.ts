import { randomBytes } from 'node:crypto';

/**
 * A new 24-character hex id: 4 bytes of seconds since the epoch then 8 random bytes, so ids sort
 * roughly by creation time (like MongoDB's ObjectId) and never collide in practice.
 */
export function newId(now = Date.now()): string {
  const seconds = Math.floor(now / 1000).toString(16).padStart(8, '0').slice(-8);
  return seconds + randomBytes(8).toString('hex');
}
