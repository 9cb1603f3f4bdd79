import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { dictionary } from '@zxcvbn-ts/language-common';
import { MIN_PASSWORD_LENGTH } from '@parley/shared';

/**
 * scrypt's cost: N = 2^15, r = 8 (32 MiB and some 50–100 ms a hash), OWASP's floor for scrypt.
 * Memory-hard, in Node itself, so no native module to build; parameters are stored with each hash
 * so that raising them later keeps old hashes verifiable.
 */
const COST = { N: 2 ** 15, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { ...options, maxmem: 256 * 1024 * 1024 }, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/** A password's stored form: `scrypt$N$r$p$salt$hash` (base64url). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, COST);
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Whether a password matches a stored hash (in constant time); false for a malformed hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await derive(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** A hash of no password, verified against when an e-mail address is unknown so both cost the same. */
let decoy: Promise<string> | undefined;
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword(randomBytes(16).toString('hex'));
  return decoy;
}

let common: Set<string> | undefined;

/**
 * Why a password may not be used, or undefined when it may: too short, or one of the ~49,000
 * commonly used passwords that zxcvbn-ts ships (compared in lower case).
 */
export function passwordProblem(password: string): string | undefined {
  if (password.length < MIN_PASSWORD_LENGTH) return `password must be at least ${MIN_PASSWORD_LENGTH} characters`;
  common ??= new Set(dictionary['passwords-common'].map((word) => word.toLowerCase()));
  if (common.has(password.toLowerCase())) return 'password is a commonly used password; choose another';
  return undefined;
}
