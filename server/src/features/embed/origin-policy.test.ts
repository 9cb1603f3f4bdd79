import { describe, expect, it } from 'vitest';
import { decideOrigin, hostMatches } from './origin-policy.js';

const SERVICE = 'https://chat.example.net';
const integration = (allowedDomains: string[]) => ({ allowedDomains, bubbleAlignment: 'right' as const, bubblePopupMessages: [] });

describe('hostMatches', () => {
  it('matches a host exactly, ignoring case and a trailing dot', () => {
    expect(hostMatches('example.com', 'example.com')).toBe(true);
    expect(hostMatches('EXAMPLE.com.', 'example.com')).toBe(true);
    expect(hostMatches('www.example.com', 'example.com')).toBe(false);
    expect(hostMatches('badexample.com', 'example.com')).toBe(false);
  });

  it('matches subdomains of a wildcard, but not the domain itself or look-alikes', () => {
    expect(hostMatches('shop.example.com', '*.example.com')).toBe(true);
    expect(hostMatches('a.b.example.com', '*.example.com')).toBe(true);
    expect(hostMatches('example.com', '*.example.com')).toBe(false);
    expect(hostMatches('evilexample.com', '*.example.com')).toBe(false);
    expect(hostMatches('example.com.evil.org', '*.example.com')).toBe(false);
  });
});

describe('decideOrigin', () => {
  it('allows every origin when no domains are listed, as the website source', () => {
    expect(decideOrigin({ origin: 'https://anywhere.org' }, SERVICE, null)).toMatchObject({ allowed: true, sourceType: 'website' });
    expect(decideOrigin({}, SERVICE, integration([]))).toMatchObject({ allowed: true, sourceType: 'website' });
  });

  it('allows only matching origins when domains are listed, and refuses a missing Origin', () => {
    const listed = integration(['example.com', '*.shop.io']);
    expect(decideOrigin({ origin: 'https://example.com' }, SERVICE, listed)).toMatchObject({ allowed: true, sourceType: 'website' });
    expect(decideOrigin({ origin: 'http://a.shop.io:8080' }, SERVICE, listed)).toMatchObject({ allowed: true, sourceType: 'website' });
    expect(decideOrigin({ origin: 'https://shop.io' }, SERVICE, listed).allowed).toBe(false);
    expect(decideOrigin({ origin: 'null' }, SERVICE, listed).allowed).toBe(false);
    expect(decideOrigin({}, SERVICE, listed).allowed).toBe(false);
  });

  it('always allows the service\'s own chat page, as the link source', () => {
    const listed = integration(['example.com']);
    expect(decideOrigin({ origin: SERVICE }, SERVICE, listed)).toMatchObject({ allowed: true, sourceType: 'link' });
    expect(decideOrigin({ secFetchSite: 'same-origin' }, SERVICE, listed)).toMatchObject({ allowed: true, sourceType: 'link' });
    expect(decideOrigin({ origin: 'http://127.0.0.1:3000', secFetchSite: 'same-origin' }, SERVICE, listed))
      .toMatchObject({ allowed: true, sourceType: 'link' });
    expect(decideOrigin({ secFetchSite: 'cross-site' }, SERVICE, listed).allowed).toBe(false);
  });

  it('labels same-origin requests from other pages than /chat/ as website (a site proxied onto the service)', () => {
    const listed = integration(['example.com']);
    expect(decideOrigin({ origin: SERVICE, referer: `${SERVICE}/chat/abc` }, SERVICE, listed)).toMatchObject({ allowed: true, sourceType: 'link' });
    expect(decideOrigin({ origin: SERVICE, referer: `${SERVICE}/shop/` }, SERVICE, listed)).toMatchObject({ allowed: true, sourceType: 'website' });
  });
});

describe('decideOrigin: strict Origin parsing', () => {
  it('refuses an Origin that is not exactly a serialised origin, and never echoes it', () => {
    for (const origin of ['http://example.com\\@evil.com', 'http://example.com/', 'http://example.com/path', 'HTTP://EXAMPLE.COM', 'null', 'ftp://example.com', 'http://user@example.com']) {
      const decision = decideOrigin({ origin }, SERVICE, integration(['example.com', 'evil.com']));
      expect(decision.allowed, origin).toBe(false);
    }
    const open = decideOrigin({ origin: 'http://example.com\\@evil.com' }, SERVICE, null);
    expect(open).toEqual({ allowed: true, sourceType: 'website' });
  });

  it('echoes the parsed origin of an accepted request', () => {
    expect(decideOrigin({ origin: 'https://shop.example.com:8443' }, SERVICE, integration(['*.example.com'])))
      .toEqual({ allowed: true, sourceType: 'website', origin: 'https://shop.example.com:8443' });
  });
});
