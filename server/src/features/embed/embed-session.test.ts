import { describe, expect, it } from 'vitest';
import { EmbedSessionSigner } from './embed-session.js';

const CHATBOT = 'aaaaaaaaaaaaaaaaaaaaaaaa';
const signer = (secret = 'secret-one', ttlMs = 60_000) => new EmbedSessionSigner(async () => Buffer.from(secret), ttlMs);

describe('EmbedSessionSigner', () => {
  it('verifies the tokens it issued until they expire', async () => {
    const { token, expiresAt } = await signer().issue(CHATBOT, 'hash', 1_000);
    expect(expiresAt).toBe(61_000);
    expect(await signer().verify(token, CHATBOT, 'hash', 60_999)).toBe(true);
    expect(await signer().verify(token, CHATBOT, 'hash', 61_000)).toBe(false);
  });

  it('refuses a token of another chatbot, another secret, or a changed password', async () => {
    const { token } = await signer().issue(CHATBOT, 'hash', 0);
    expect(await signer().verify(token, 'bbbbbbbbbbbbbbbbbbbbbbbb', 'hash', 1)).toBe(false);
    expect(await signer('secret-two').verify(token, CHATBOT, 'hash', 1)).toBe(false);
    expect(await signer().verify(token, CHATBOT, 'new-hash', 1)).toBe(false);
  });

  it('refuses tampered and malformed tokens', async () => {
    const { token } = await signer().issue(CHATBOT, 'hash', 0);
    const parts = token.split('.');
    const longer = [parts[0], parts[1], '9999999999999', parts[3], parts[4]].join('.');
    expect(await signer().verify(longer, CHATBOT, 'hash', 1)).toBe(false);
    expect(await signer().verify(`${token}x`, CHATBOT, 'hash', 1)).toBe(false);
    expect(await signer().verify('garbage', CHATBOT, 'hash', 1)).toBe(false);
    expect(await signer().verify('', CHATBOT, 'hash', 1)).toBe(false);
  });
});
