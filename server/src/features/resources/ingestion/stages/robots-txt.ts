/** The rules of robots.txt that apply to one user agent (RFC 9309), its Crawl-delay and the file's sitemaps. */
export interface RobotsRules {
  isAllowed(url: URL): boolean;
  /** The group's `Crawl-delay` in ms (a non-standard field most crawlers honour), when it has one. */
  crawlDelayMs?: number;
  /** The `Sitemap:` URLs (global, whatever the group). */
  sitemaps?: string[];
}

interface Rule { allow: boolean; pattern: string }
interface Group { agents: string[]; rules: Rule[]; crawlDelayMs?: number; members: number }

function toRegExp(pattern: string): RegExp {
  const anchored = pattern.endsWith('$');
  const body = (anchored ? pattern.slice(0, -1) : pattern).split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*');
  return new RegExp(`^${body}${anchored ? '$' : ''}`);
}

/** Reads the groups of a robots.txt and keeps the rules of the group that names `userAgent`, else `*`. */
export function parseRobotsTxt(source: string, userAgent: string): RobotsRules {
  const product = userAgent.split('/')[0]!.trim().toLowerCase();
  const groups: Group[] = [];
  const sitemaps: string[] = [];
  let current: Group | undefined;
  for (const rawLine of source.split(/\r?\n/)) {
    const line = rawLine.replace(/#.*/, '').trim();
    const separator = line.indexOf(':');
    if (separator < 0) continue;
    const field = line.slice(0, separator).trim().toLowerCase();
    const value = line.slice(separator + 1).trim();
    if (field === 'user-agent') {
      if (!current || current.members > 0) groups.push(current = { agents: [], rules: [], members: 0 });
      current.agents.push(value.toLowerCase());
    } else if ((field === 'allow' || field === 'disallow') && current) {
      current.members++;
      if (value) current.rules.push({ allow: field === 'allow', pattern: value });
    } else if (field === 'crawl-delay' && current) {
      current.members++;
      const seconds = Number(value);
      if (Number.isFinite(seconds) && seconds >= 0) current.crawlDelayMs = Math.round(seconds * 1000);
    } else if (field === 'sitemap' && value) {
      sitemaps.push(value);
    }
  }
  const named = groups.filter((group) => group.agents.some((agent) => agent !== '*' && product.includes(agent)));
  const chosen = named.length > 0 ? named : groups.filter((group) => group.agents.includes('*'));
  const rules = chosen.flatMap((group) => group.rules).map((rule) => ({ ...rule, regexp: toRegExp(rule.pattern) }));
  const delays = chosen.flatMap((group) => (group.crawlDelayMs === undefined ? [] : [group.crawlDelayMs]));
  return {
    ...(delays.length > 0 ? { crawlDelayMs: Math.max(...delays) } : {}),
    sitemaps,
    isAllowed(url) {
      const path = url.pathname + url.search;
      let best: (typeof rules)[number] | undefined;
      for (const rule of rules) {
        if (!rule.regexp.test(path)) continue;
        // The longest (most specific) match wins; on a tie, allow wins.
        if (!best || rule.pattern.length > best.pattern.length || (rule.pattern.length === best.pattern.length && rule.allow)) best = rule;
      }
      return best ? best.allow : true;
    },
  };
}

/** Rules that allow everything (no robots.txt). */
export const ALLOW_ALL: RobotsRules = { isAllowed: () => true };
/** Rules that refuse everything (robots.txt unreachable because the server fails: RFC 9309 § 2.3.1.4). */
export const DISALLOW_ALL: RobotsRules = { isAllowed: () => false };
