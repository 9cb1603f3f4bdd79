import { compileRobotsPattern } from './wildcard-match.js';

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

/**
 * Bounds on what a robots.txt (written by whoever owns the crawled site, so hostile input) can
 * make each URL check cost. Matching is linear (wildcard-match.ts): a rule without `*` costs at
 * most its length, one with `*` about the URL's length, so these keep a check to milliseconds.
 * Beyond them the file is read conservatively, never crawling more than its owner asked:
 * - a pattern longer than MAX_PATTERN_LENGTH or with more than MAX_PATTERN_WILDCARDS `*`: a
 *   Disallow is cut to that length and before that wildcard (a cut pattern is a prefix, so it
 *   disallows everything the whole one did, and more); an Allow is ignored (it would allow more);
 * - rules with `*` after the first MAX_WILDCARD_RULES: a Disallow is cut before its first `*`,
 *   an Allow is ignored, for the same reason (a robots.txt this large may so disallow much more);
 * - more than MAX_RULES rules for our user agent: the file disallows everything, since keeping
 *   only some rules could crawl pages the rest disallow;
 * - a URL whose path and query are longer than MAX_URL_PATH_LENGTH (sitemaps.org's URL bound) is
 *   disallowed when the file has rules.
 */
const MAX_PATTERN_LENGTH = 500;
const MAX_PATTERN_WILDCARDS = 10;
const MAX_WILDCARD_RULES = 500;
const MAX_RULES = 2000;
const MAX_URL_PATH_LENGTH = 2048;

/** The rule as matched, or undefined when it is ignored (see the bounds above). */
function boundRule(rule: Rule, wildcardsAllowed: number): Rule | undefined {
  const wildcards = rule.pattern.split('*').length - 1;
  const allowed = Math.min(wildcards, wildcardsAllowed);
  if (rule.pattern.length <= MAX_PATTERN_LENGTH && wildcards === allowed) return rule;
  if (rule.allow) return undefined;
  let cut = rule.pattern.slice(0, MAX_PATTERN_LENGTH);
  for (let i = 0, star = -1; i <= allowed; i++) {
    star = cut.indexOf('*', star + 1);
    if (star < 0) break;
    if (i === allowed) cut = cut.slice(0, star);
  }
  // A `$` the cut leaves at the end is a literal character of the path, not an anchor.
  while (cut.endsWith('$')) cut = cut.slice(0, -1);
  return { allow: false, pattern: cut };
}

interface CompiledRule { allow: boolean; matches: (path: string) => boolean; specificity: number }

/**
 * Bounds the rules kept for our user agent and compiles them (see the bounds above). A cut rule
 * keeps the length of the whole one as its precedence, so an Allow it used to outrank still loses.
 */
function compileRules(all: readonly Rule[]): CompiledRule[] {
  let wildcardRules = 0;
  return all.flatMap((rule) => {
    const bounded = boundRule(rule, wildcardRules < MAX_WILDCARD_RULES ? MAX_PATTERN_WILDCARDS : 0);
    if (!bounded) return [];
    if (bounded.pattern.includes('*')) wildcardRules++;
    return [{ allow: bounded.allow, matches: compileRobotsPattern(bounded.pattern), specificity: rule.pattern.length }];
  });
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
  const all = chosen.flatMap((group) => group.rules);
  const tooMany = all.length > MAX_RULES;
  const rules = tooMany ? [] : compileRules(all);
  const delays = chosen.flatMap((group) => (group.crawlDelayMs === undefined ? [] : [group.crawlDelayMs]));
  return {
    ...(delays.length > 0 ? { crawlDelayMs: Math.max(...delays) } : {}),
    sitemaps,
    isAllowed(url) {
      if (tooMany) return false;
      if (rules.length === 0) return true;
      const path = url.pathname + url.search;
      if (path.length > MAX_URL_PATH_LENGTH) return false;
      let best: CompiledRule | undefined;
      for (const rule of rules) {
        if (!rule.matches(path)) continue;
        // The longest (most specific) match wins; on a tie, allow wins.
        if (!best || rule.specificity > best.specificity || (rule.specificity === best.specificity && rule.allow)) best = rule;
      }
      return best ? best.allow : true;
    },
  };
}

/** Rules that allow everything (no robots.txt). */
export const ALLOW_ALL: RobotsRules = { isAllowed: () => true };
/** Rules that refuse everything (robots.txt unreachable because the server fails: RFC 9309 § 2.3.1.4). */
export const DISALLOW_ALL: RobotsRules = { isAllowed: () => false };
