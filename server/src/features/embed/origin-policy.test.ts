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
    expect(decideOrigin({ origin: 'https://anywhere.org' }, SERVICE, null)).toEqual({ allowed: true, sourceType: 'website' });
    expect(decideOrigin({}, SERVICE, integration([]))).toEqual({ allowed: true, sourceType: 'website' });
  });

  it('allows only matching origins when domains are listed, and refuses a missing Origin', () => {
    const listed = integration(['example.com', '*.shop.io']);
    expect(decideOrigin({ origin: 'https://example.com' }, SERVICE, listed)).toEqual({ allowed: true, sourceType: 'website' });
    expect(decideOrigin({ origin: 'http://a.shop.io:8080' }, SERVICE, listed)).toEqual({ allowed: true, sourceType: 'website' });
    expect(decideOrigin({ origin: 'https://shop.io' }, SERVICE, listed).allowed).toBe(false);
    expect(decideOrigin({ origin: 'null' }, SERVICE, listed).allowed).toBe(false);
    expect(decideOrigin({}, SERVICE, listed).allowed).toBe(false);
  });

  it('always allows the service\'s own chat page, as the link source', () => {
    const listed = integration(['example.com']);
    expect(decideOrigin({ origin: SERVICE }, SERVICE, listed)).toEqual({ allowed: true, sourceType: 'link' });
    expect(decideOrigin({ secFetchSite: 'same-origin' }, SERVICE, listed)).toEqual({ allowed: true, sourceType: 'link' });
    expect(decideOrigin({ origin: 'http://127.0.0.1:3000', secFetchSite: 'same-origin' }, SERVICE, listed))
      .toEqual({ allowed: true, sourceType: 'link' });
    expect(decideOrigin({ secFetchSite: 'cross-site' }, SERVICE, listed).allowed).toBe(false);
  });

  it('labels same-origin requests from other pages than /chat/ as website (a site proxied onto the service)', () => {
    const listed = integration(['example.com']);
    expect(decideOrigin({ origin: SERVICE, referer: `${SERVICE}/chat/abc` }, SERVICE, listed)).toEqual({ allowed: true, sourceType: 'link' });
    expect(decideOrigin({ origin: SERVICE, referer: `${SERVICE}/shop/` }, SERVICE, listed)).toEqual({ allowed: true, sourceType: 'website' });
  });
});
