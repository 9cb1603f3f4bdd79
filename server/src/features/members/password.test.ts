import { describe, expect, it } from 'vitest';
import { hashPassword, passwordProblem, verifyPassword } from './password.js';

describe('member passwords', () => {
  it('hashes with scrypt and a salt each time, and verifies only the same password', async () => {
    const first = await hashPassword('correct horse battery staple');
    const second = await hashPassword('correct horse battery staple');
    expect(first).toMatch(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(second).not.toBe(first);
    expect(await verifyPassword('correct horse battery staple', first)).toBe(true);
    expect(await verifyPassword('correct horse battery stapl', first)).toBe(false);
    expect(await verifyPassword('correct horse battery staple', 'bcrypt$whatever')).toBe(false);
    expect(await verifyPassword('correct horse battery staple', '')).toBe(false);
  });

  it('refuses short and common passwords, in any case', () => {
    expect(passwordProblem('short')).toBe('password must be at least 10 characters');
    expect(passwordProblem('password123')).toBe('password is a commonly used password; choose another');
    expect(passwordProblem('QWERTYUIOP')).toBe('password is a commonly used password; choose another');
    expect(passwordProblem('lanterns over the river')).toBeUndefined();
  });
});
