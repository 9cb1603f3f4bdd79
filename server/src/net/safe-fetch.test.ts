import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeServer, type FakeServer } from '../features/resources/ingestion/fixtures/fake-servers.js';
import { isPublicAddress } from './address-policy.js';
import { BlockedAddressError, FetchFailedError, safeFetch } from './safe-fetch.js';

describe('isPublicAddress', () => {
  it.each([
    '127.0.0.1', '127.8.9.10', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1',
    '0.0.0.0', '224.0.0.1', '255.255.255.255', '::1', '::', 'fe80::1', 'fd00::1', 'fc00::5', '::ffff:127.0.0.1',
    '::ffff:a9fe:a9fe', '64:ff9b::a00:1', '2002:c0a8:0101::1', 'ff02::1', 'localhost', 'not-an-ip',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '93.184.216.34', '2606:4700:4700::1111', '::ffff:8.8.8.8', '2002:0808:0808::1'])('allows %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});

describe('safeFetch', () => {
  let server: FakeServer;
  beforeAll(async () => {
    server = await startFakeServer((req) => {
      if (req.url === '/hop') return { status: 302, headers: { location: `http://127.0.0.2:${new URL(server.url).port}/secret` } };
      if (req.url === '/hop-local') return { status: 301, headers: { location: `http://localhost:${new URL(server.url).port}/secret` } };
      if (req.url === '/loop') return { status: 302, headers: { location: '/loop' } };
      if (req.url === '/big') return { body: 'x'.repeat(5000) };
      if (req.url === '/slow') return new Promise(() => {});
      return { body: `hello from ${req.url}` };
    });
  });
  afterAll(async () => { await server?.close(); });

  const guarded = { allowPrivateNetworks: false };

  it('refuses loopback, private and metadata addresses given as literals, without connecting', async () => {
    const before = server.requests.length;
    for (const url of [`${server.url}/`, 'http://10.0.0.1/', 'http://169.254.169.254/latest/meta-data/', 'http://[::1]:1/', 'http://[::ffff:127.0.0.1]:1/']) {
      await expect(safeFetch(url, guarded)).rejects.toBeInstanceOf(BlockedAddressError);
    }
    expect(server.requests.length).toBe(before);
  });

  it('refuses a host name whose DNS answer is a loopback address', async () => {
    await expect(safeFetch(`http://localhost:${new URL(server.url).port}/`, guarded)).rejects.toThrow(/localhost resolves to .* not a public address/);
  });

  it('refuses other schemes', async () => {
    await expect(safeFetch('file:///etc/passwd', guarded)).rejects.toBeInstanceOf(BlockedAddressError);
  });

  it('re-checks every redirect target', async () => {
    // Only 127.0.0.1 is allowed here, so the redirect to 127.0.0.2 must be refused.
    const onlyFirst = { allowPrivateNetworks: false, isAllowedAddress: (address: string) => address === '127.0.0.1' };
    expect((await safeFetch(`${server.url}/page`, onlyFirst)).body.toString()).toBe('hello from /page');
    await expect(safeFetch(`${server.url}/hop`, onlyFirst)).rejects.toThrow('127.0.0.2 is not a public address');
  });

  it('reaches private addresses when the operator allows them, following redirects', async () => {
    const response = await safeFetch(`${server.url}/hop-local`, { allowPrivateNetworks: true });
    expect(response.status).toBe(200);
    expect(response.url).toBe(`http://localhost:${new URL(server.url).port}/secret`);
    expect(response.body.toString()).toBe('hello from /secret');
  });

  it('caps redirects, body size and time', async () => {
    const open = { allowPrivateNetworks: true };
    await expect(safeFetch(`${server.url}/loop`, open)).rejects.toThrow('redirects too many times');
    await expect(safeFetch(`${server.url}/big`, { ...open, maxBytes: 1000 })).rejects.toBeInstanceOf(FetchFailedError);
    await expect(safeFetch(`${server.url}/slow`, { ...open, timeoutMs: 200 })).rejects.toThrow('timed out');
  });
});
