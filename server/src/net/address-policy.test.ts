import { describe, expect, it } from 'vitest';
import { isPublicAddress } from './address-policy.js';

describe('isPublicAddress: IPv6 forms that carry an IPv4 address', () => {
  it('judges IPv4-mapped, IPv4-translated and NAT64 addresses by the IPv4 address inside', () => {
    for (const address of [
      '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:0:127.0.0.1', '::ffff:0:7f00:1', '::ffff:0:10.0.0.1', '::ffff:0:a9fe:a9fe',
      '64:ff9b::127.0.0.1', '64:ff9b::a9fe:a9fe', '64:ff9b::192.168.1.1', '0:0:0:0:ffff:0:c0a8:101',
    ]) expect(isPublicAddress(address), address).toBe(false);
    for (const address of ['::ffff:8.8.8.8', '::ffff:0:8.8.8.8', '64:ff9b::8.8.8.8', '64:ff9b::808:808']) {
      expect(isPublicAddress(address), address).toBe(true);
    }
  });

  it('refuses the whole local-use NAT64 prefix 64:ff9b:1::/48, whatever it embeds', () => {
    for (const address of ['64:ff9b:1::127.0.0.1', '64:ff9b:1::8.8.8.8', '64:ff9b:1:ffff::1', '64:ff9b:1::a00:1']) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });
});
