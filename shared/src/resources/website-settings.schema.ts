import { z } from 'zod';

const SelectorsSchema = z
  .array(z.string().trim().min(1, 'must not be empty').max(500, 'must be at most 500 characters'))
  .max(100, 'must contain at most 100 selectors');

/**
 * Extension: how a crawl finds pages. `NONE` fetches exactly `url` and `subLinks` (the contract);
 * `SITEMAP` adds the pages of the site's sitemaps (named by robots.txt, else `/sitemap.xml`);
 * `LINKS` follows same-origin links breadth-first from `url`; `SITEMAP_AND_LINKS` does both.
 */
export const WebsiteDiscoverySchema = z.enum(['NONE', 'SITEMAP', 'LINKS', 'SITEMAP_AND_LINKS']);
export type WebsiteDiscovery = z.infer<typeof WebsiteDiscoverySchema>;

/** Defaults of the discovery settings when a website resource does not set them. */
export const WEBSITE_DISCOVERY_DEFAULTS = { discovery: 'NONE', maxPages: 100, maxDepth: 3 } as const;

/**
 * Bounds on path patterns. The crawler checks every link it finds against every pattern on the
 * service's main thread, in time proportional to the path's length times the pattern's
 * wildcards: the wildcards of a whole list bound one link's check to milliseconds.
 */
export const PATH_GLOB_LIMITS = { maxLength: 300, maxWildcards: 10, maxPatterns: 100, maxListWildcards: 100 } as const;

/** The wildcards of a path pattern: each `*`, `**` (one wildcard) and `?`. */
export function countPathGlobWildcards(pattern: string): number {
  return pattern.match(/\*\*|\*|\?/g)?.length ?? 0;
}

/**
 * A URL path pattern: `*` matches within one path segment, `**` across segments, `?` one
 * character; a pattern ending in `/**` also matches the folder itself (`/blog/**` matches `/blog`).
 */
export const PathGlobSchema = z.string().trim()
  .max(PATH_GLOB_LIMITS.maxLength, `must be at most ${PATH_GLOB_LIMITS.maxLength} characters`)
  .regex(/^\/\S*$/, 'must be a path pattern starting with / (for example /blog/**)')
  .refine((pattern) => countPathGlobWildcards(pattern) <= PATH_GLOB_LIMITS.maxWildcards, `must have at most ${PATH_GLOB_LIMITS.maxWildcards} wildcards (*, ** or ?)`);

const PathGlobsSchema = z.array(PathGlobSchema).max(PATH_GLOB_LIMITS.maxPatterns, `must contain at most ${PATH_GLOB_LIMITS.maxPatterns} patterns`)
  .refine(
    (patterns) => patterns.reduce((sum, pattern) => sum + countPathGlobWildcards(pattern), 0) <= PATH_GLOB_LIMITS.maxListWildcards,
    `must have at most ${PATH_GLOB_LIMITS.maxListWildcards} wildcards in all`,
  );

const PATH_GLOB_BOUNDS = `At most ${PATH_GLOB_LIMITS.maxPatterns} patterns of at most ${PATH_GLOB_LIMITS.maxLength} characters and `
  + `${PATH_GLOB_LIMITS.maxWildcards} wildcards each, ${PATH_GLOB_LIMITS.maxListWildcards} wildcards in all (\`**\` counts as one); `
  + 'a discovered path longer than 2,048 characters is never fetched.';

/** The settings that only mean something when pages are discovered. */
const DISCOVERY_ONLY = ['maxPages', 'maxDepth', 'includePaths', 'excludePaths'] as const;

/** Crawl settings of a WEB resource (decisions.md § Resources and processing; discovery is an extension). */
export const WebsiteSettingsSchema = z.strictObject({
  delayBetweenExtractionMs: z.int('must be an integer').min(0, 'must be at least 0').max(60000, 'must be at most 60000').optional(),
  removeSelectors: SelectorsSchema.optional(),
  targetSelectors: SelectorsSchema.optional(),
  userAgent: z.string().trim().min(1, 'must not be empty').max(500, 'must be at most 500 characters').optional(),
  discovery: WebsiteDiscoverySchema.optional().meta({
    description: 'Extension: how pages are found. NONE (default): exactly `url` and `subLinks`. SITEMAP: also the pages of the '
      + 'sitemaps (and sitemap indexes) that robots.txt names, else /sitemap.xml. LINKS: same-origin links, breadth-first from '
      + '`url`. SITEMAP_AND_LINKS: both. robots.txt (and its Crawl-delay) is honoured; the resource\'s `website.subLinks` then '
      + 'lists the pages indexed.',
  }),
  maxPages: z.int('must be an integer').min(1, 'must be at least 1').max(1000, 'must be at most 1000').optional()
    .meta({ description: 'Extension (discovery only): pages fetched per crawl, 1–1000, default 100.' }),
  maxDepth: z.int('must be an integer').min(1, 'must be at least 1').max(10, 'must be at most 10').optional()
    .meta({ description: 'Extension (discovery only): links followed from `url`, 1–10, default 3; a sitemap\'s pages are at depth 1.' }),
  includePaths: PathGlobsSchema.optional().meta({
    description: 'Extension (discovery only): discovered pages are fetched only when their path matches one of these patterns '
      + `(\`*\` within a segment, \`**\` across segments, \`?\` one character). \`url\` and \`subLinks\` are always fetched. ${PATH_GLOB_BOUNDS}`,
  }),
  excludePaths: PathGlobsSchema.optional()
    .meta({ description: `Extension (discovery only): discovered pages whose path matches one of these patterns are never fetched. ${PATH_GLOB_BOUNDS}` }),
}).superRefine((settings, issues) => {
  if ((settings.discovery ?? 'NONE') !== 'NONE') return;
  for (const field of DISCOVERY_ONLY) {
    if (settings[field] !== undefined) {
      issues.addIssue({ code: 'custom', path: [field], message: 'must not be set when discovery is NONE (it applies to discovered pages only)' });
    }
  }
});
export type WebsiteSettings = z.infer<typeof WebsiteSettingsSchema>;
