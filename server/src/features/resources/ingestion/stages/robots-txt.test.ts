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
