import { compilePathGlob } from './wildcard-match.js';

/**
 * Compiles path patterns (`settings.includePaths`, `excludePaths`) into one test: `*` matches
 * within a path segment, `**` across segments, `?` one character other than `/`; a pattern
 * ending in `/**` also matches the folder itself, so `/blog/**` matches `/blog` and `/blog/a/b`.
 * Matching takes O(path × (wildcards + 1)) per pattern (wildcard-match.ts); the settings schema
 * bounds the patterns, and the crawl frontier the length of the paths it asks about.
 */
export function compilePathGlobs(patterns: readonly string[]): (path: string) => boolean {
  if (patterns.length === 0) return () => false;
  const tests = patterns.map(compilePathGlob);
  return (path) => tests.some((test) => test(path));
}
