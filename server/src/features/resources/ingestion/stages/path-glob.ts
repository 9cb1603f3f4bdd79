/**
 * Compiles path patterns (`settings.includePaths`, `excludePaths`) into one test: `*` matches
 * within a path segment, `**` across segments, `?` one character other than `/`; a pattern
 * ending in `/**` also matches the folder itself, so `/blog/**` matches `/blog` and `/blog/a/b`.
 */
export function compilePathGlobs(patterns: readonly string[]): (path: string) => boolean {
  if (patterns.length === 0) return () => false;
  const regexps = patterns.map(toRegExp);
  return (path) => regexps.some((regexp) => regexp.test(path));
}

function toRegExp(pattern: string): RegExp {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i]!;
    if (char === '*' && pattern[i + 1] === '*') {
      // `/**` at the end: the folder itself or anything below it.
      if (pattern[i - 1] === '/' && i + 2 === pattern.length) {
        source = `${source.slice(0, -1)}(?:/.*)?`;
        i++;
        continue;
      }
      source += '.*';
      i++;
    } else if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}
