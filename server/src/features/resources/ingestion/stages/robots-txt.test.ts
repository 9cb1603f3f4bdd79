import { describe, expect, it } from 'vitest';
import { parseRobotsTxt } from './robots-txt.js';

const ROBOTS = `# comment
User-agent: *
Disallow: /private
Allow: /private/open
Disallow: /*.pdf$

User-agent: TeaBot
User-agent: OtherBot
Disallow: /tea
`;

describe('parseRobotsTxt', () => {
  it('applies the * group with longest-match precedence and wildcards', () => {
    const rules = parseRobotsTxt(ROBOTS, 'ParleyBot/0.1');
    expect(rules.isAllowed(new URL('https://x/public'))).toBe(true);
    expect(rules.isAllowed(new URL('https://x/private/a'))).toBe(false);
    expect(rules.isAllowed(new URL('https://x/private/open/a'))).toBe(true);
    expect(rules.isAllowed(new URL('https://x/doc.pdf'))).toBe(false);
    expect(rules.isAllowed(new URL('https://x/doc.pdf?x=1'))).toBe(true);
  });

  it('uses the group naming the user agent instead of *', () => {
    const rules = parseRobotsTxt(ROBOTS, 'TeaBot/2.0 (+https://tea.example)');
    expect(rules.isAllowed(new URL('https://x/tea/green'))).toBe(false);
    expect(rules.isAllowed(new URL('https://x/private'))).toBe(true);
  });

  it('allows everything for an empty Disallow', () => {
    expect(parseRobotsTxt('User-agent: *\nDisallow:\n', 'Bot').isAllowed(new URL('https://x/anything'))).toBe(true);
  });
});

describe('parseRobotsTxt: Crawl-delay and sitemaps', () => {
  const source = 'Sitemap: https://x/sitemap-a.xml\nUser-agent: *\nCrawl-delay: 2.5\nDisallow: /tmp\n\nUser-agent: TeaBot\nCrawl-delay: 7\n\nSitemap: https://x/b.xml\n';

  it('reads the Crawl-delay of the chosen group in ms, and every Sitemap line', () => {
    const rules = parseRobotsTxt(source, 'ParleyBot/0.1');
    expect(rules.crawlDelayMs).toBe(2500);
    expect(rules.sitemaps).toEqual(['https://x/sitemap-a.xml', 'https://x/b.xml']);
    expect(rules.isAllowed(new URL('https://x/tmp/a'))).toBe(false);
  });

  it('keeps a group of only a Crawl-delay apart from the next one', () => {
    const rules = parseRobotsTxt(source, 'TeaBot/1.0');
    expect(rules.crawlDelayMs).toBe(7000);
    expect(rules.isAllowed(new URL('https://x/tmp/a'))).toBe(true);
  });

  it('has no Crawl-delay when the group names none, or an unreadable one', () => {
    expect(parseRobotsTxt('User-agent: *\nDisallow: /a\n', 'Bot').crawlDelayMs).toBeUndefined();
    expect(parseRobotsTxt('User-agent: *\nCrawl-delay: soon\n', 'Bot').crawlDelayMs).toBeUndefined();
  });
});

describe('parseRobotsTxt: a hostile file', () => {
  // The RegExp this replaced took combinatorial time on such a pattern (`.*a` ten times, then a
  // path of 2,000 a's that fails at the end): the event loop froze for every organisation.
  const wildcards = `/${'*a'.repeat(10)}`;
  const longPath = `https://x/${'a'.repeat(2000)}b`;

  it('checks a URL against the most wildcards it keeps at once', { timeout: 10_000 }, () => {
    const rules = parseRobotsTxt(`User-agent: *\nDisallow: ${wildcards}$\nDisallow: ${wildcards}c\n`, 'Bot');
    for (let i = 0; i < 100; i++) expect(rules.isAllowed(new URL(longPath))).toBe(true);
    expect(rules.isAllowed(new URL(`https://x/${'a'.repeat(2000)}`))).toBe(false);
  });

  it('cuts a Disallow with too many wildcards before the eleventh, and ignores such an Allow', () => {
    const pattern = `/${'*x'.repeat(12)}`;
    const disallowing = parseRobotsTxt(`User-agent: *\nDisallow: ${pattern}$\n`, 'Bot');
    // The cut pattern `/*x…*x` (ten) also disallows paths the whole one did not.
    expect(disallowing.isAllowed(new URL(`https://x/${'x'.repeat(10)}`))).toBe(false);
    expect(disallowing.isAllowed(new URL(`https://x/${'x'.repeat(9)}`))).toBe(true);
    const allowing = parseRobotsTxt(`User-agent: *\nDisallow: /\nAllow: ${pattern}\n`, 'Bot');
    expect(allowing.isAllowed(new URL(`https://x/${'x'.repeat(12)}`))).toBe(false);
  });

  it('cuts an over-long Disallow to 500 characters, dropping a $ the cut leaves last', () => {
    const rules = parseRobotsTxt(`User-agent: *\nDisallow: /${'d'.repeat(498)}$tail$\n`, 'Bot');
    expect(rules.isAllowed(new URL(`https://x/${'d'.repeat(498)}`))).toBe(false);
    expect(rules.isAllowed(new URL(`https://x/${'d'.repeat(498)}$other`))).toBe(false);
    expect(rules.isAllowed(new URL(`https://x/${'d'.repeat(497)}`))).toBe(true);
  });

  it('cuts a Disallow with wildcards after the first 500 such rules before its first *, and ignores such an Allow', () => {
    const wildcardRules = Array.from({ length: 500 }, (_, i) => `Disallow: /*.x${i}$\n`).join('');
    const rules = parseRobotsTxt(`User-agent: *\n${wildcardRules}Disallow: /shop/*?sort=\nAllow: /*.html$\n`, 'Bot');
    expect(rules.isAllowed(new URL('https://x/a.x499'))).toBe(false);
    expect(rules.isAllowed(new URL('https://x/a.x499z'))).toBe(true);
    // `/shop/*?sort=` is kept as `/shop/`: the whole shop is left alone.
    expect(rules.isAllowed(new URL('https://x/shop/tea'))).toBe(false);
    // A cut rule keeps its whole length as its precedence: a shorter Allow still loses to it.
    const precedence = parseRobotsTxt(`User-agent: *\n${wildcardRules}Allow: /shop/tea\nDisallow: /shop/*?sort=\n`, 'Bot');
    expect(precedence.isAllowed(new URL('https://x/shop/tea?sort=price'))).toBe(false);
    expect(rules.isAllowed(new URL('https://x/page.html'))).toBe(true);
    expect(parseRobotsTxt(`User-agent: *\n${wildcardRules}Disallow: /\nAllow: /*.html$\n`, 'Bot').isAllowed(new URL('https://x/page.html'))).toBe(false);
  });

  it('disallows everything when it has more than 2,000 rules for us, and over-long URLs', () => {
    const many = `User-agent: *\n${Array.from({ length: 2001 }, (_, i) => `Disallow: /p${i}\n`).join('')}`;
    expect(parseRobotsTxt(many, 'Bot').isAllowed(new URL('https://x/elsewhere'))).toBe(false);
    const few = parseRobotsTxt('User-agent: *\nDisallow: /private\n', 'Bot');
    expect(few.isAllowed(new URL(`https://x/${'a'.repeat(2047)}`))).toBe(true);
    expect(few.isAllowed(new URL(`https://x/${'a'.repeat(2000)}?${'q'.repeat(48)}`))).toBe(false);
    expect(parseRobotsTxt('User-agent: *\nDisallow:\n', 'Bot').isAllowed(new URL(`https://x/${'a'.repeat(3000)}`))).toBe(true);
  });
});
