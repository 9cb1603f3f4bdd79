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
