/**
 * Wildcard matching without regular expressions, for patterns written by others (a crawled
 * site's robots.txt, an organisation's `includePaths`). A RegExp built from such a pattern
 * backtracks: a dozen wildcards against a long path froze the event loop for every
 * organisation (red-team finding "ReDoS from robots.txt and includePaths"). Here each wildcard
 * costs at most one pass over the path, whatever the pattern.
 */

/** A literal part of a path glob, as UTF-16 codes, with its KMP failure table. */
interface Literal { codes: Uint16Array; failure: Int32Array }

function toLiteral(text: string): Literal {
  const codes = Uint16Array.from(text, (char) => char.charCodeAt(0));
  const failure = new Int32Array(codes.length);
  for (let i = 1, k = 0; i < codes.length; i++) {
    while (k > 0 && codes[i] !== codes[k]) k = failure[k - 1]!;
    if (codes[i] === codes[k]) k++;
    failure[i] = k;
  }
  return { codes, failure };
}

/**
 * Compiles a robots.txt path pattern (RFC 9309 § 2.2.3): `*` is any sequence, a trailing `$`
 * anchors the end, anything else matches as a prefix. Its literal parts are placed leftmost,
 * one after another (a later `*` can absorb whatever an earlier placement left), each found
 * with `indexOf` from where the last one ended, so a match reads the path about once:
 * O(path + pattern) (V8 finds a first occurrence with Boyer–Moore–Horspool or Boyer–Moore).
 */
export function compileRobotsPattern(pattern: string): (path: string) => boolean {
  const anchored = pattern.endsWith('$');
  const body = anchored ? pattern.slice(0, -1) : pattern;
  const parts = body.split('*');
  if (parts.length === 1) return anchored ? (path) => path === body : (path) => path.startsWith(body);
  const first = parts[0]!;
  const last = parts.at(-1)!;
  const middle = parts.slice(1, -1);
  return (path) => {
    if (!path.startsWith(first)) return false;
    let position = first.length;
    for (const literal of middle) {
      const index = path.indexOf(literal, position);
      if (index < 0) return false;
      position = index + literal.length;
    }
    if (anchored) return path.length - last.length >= position && path.endsWith(last);
    return path.indexOf(last, position) >= 0;
  };
}

/** What a path glob's wildcard spans: `*` (within a segment), `**` (anything) or `?` (one character but `/`). */
type Gap = 'segment' | 'any' | 'one';

/**
 * Compiles a path glob (`settings.includePaths`, `excludePaths`; see path-glob.ts) into a whole-path
 * test. The pattern is literals split by wildcards; the set of positions each prefix of the
 * pattern can end at is carried through the path once per wildcard, and every occurrence of the
 * next literal found with Knuth–Morris–Pratt: O(path × (wildcards + 1) + pattern).
 */
export function compilePathGlob(pattern: string): (path: string) => boolean {
  const literals: string[] = [''];
  const gaps: Gap[] = [];
  // A trailing `/**` also matches the folder itself: `/blog/**` matches `/blog` and `/blog/a`.
  let folder = false;
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i]!;
    if (char === '*' && pattern[i + 1] === '*') {
      i++;
      if (pattern[i - 2] === '/' && i + 1 === pattern.length) {
        literals[literals.length - 1] = literals.at(-1)!.slice(0, -1);
        folder = true;
      } else {
        gaps.push('any');
        literals.push('');
      }
    } else if (char === '*' || char === '?') {
      gaps.push(char === '*' ? 'segment' : 'one');
      literals.push('');
    } else {
      literals[literals.length - 1] += char;
    }
  }
  const head = literals[0]!;
  if (gaps.length === 0 && !folder) return (path) => path === head;
  const rest = literals.slice(1).map(toLiteral);
  return (path) => path.startsWith(head) && matchGaps(path, head.length, gaps, rest, folder);
}

const SLASH = 0x2f;
/** Scratch position sets, reused: matching is synchronous, so one pair serves every call. */
let scratch = { ends: new Uint8Array(256), next: new Uint8Array(256) };

function matchGaps(path: string, start: number, gaps: readonly Gap[], literals: readonly Literal[], folder: boolean): boolean {
  const n = path.length;
  if (scratch.ends.length <= n) scratch = { ends: new Uint8Array(2 * n + 2), next: new Uint8Array(2 * n + 2) };
  // ends[p]: the pattern read so far can end at path position p.
  let { ends, next } = scratch;
  ends.fill(0, 0, n + 1);
  ends[start] = 1;
  for (let j = 0; j < gaps.length; j++) {
    const gap = gaps[j]!;
    // After `**` every position from the first one reached on is reached: no need to mark them.
    const first = ends.indexOf(1);
    if (first < 0 || first > n) return false;
    if (gap !== 'any') spanGap(path, ends, gap, first);
    const { codes, failure } = literals[j]!;
    const m = codes.length;
    if (m === 0) {
      if (gap === 'any') ends.fill(1, first, n + 1);
      continue;
    }
    next.fill(0, 0, n + 1);
    // Every place the literal occurs (KMP) that the gap reached moves the pattern on past it.
    for (let i = first, k = 0; i < n; i++) {
      const char = path.charCodeAt(i);
      while (k > 0 && char !== codes[k]) k = failure[k - 1]!;
      if (char === codes[k]) k++;
      if (k === m) {
        if (gap === 'any' || ends[i - m + 1]) next[i + 1] = 1;
        k = failure[k - 1]!;
      }
    }
    [ends, next] = [next, ends];
  }
  if (ends[n]) return true;
  // `(?:/.*)?` at the end: the folder itself (above) or a `/` and anything after it.
  if (folder) for (let p = 0; p < n; p++) if (ends[p] && path.charCodeAt(p) === SLASH) return true;
  return false;
}

/** Turns the positions in `ends` (none before `first`) into those the gap can reach from them, in place. */
function spanGap(path: string, ends: Uint8Array, gap: Gap, first: number): void {
  const n = path.length;
  if (gap === 'one') {
    for (let p = n; p > first; p--) ends[p] = ends[p - 1] && path.charCodeAt(p - 1) !== SLASH ? 1 : 0;
    ends[first] = 0;
    return;
  }
  let reached = false;
  for (let p = first; p <= n; p++) {
    if (ends[p]) reached = true;
    else if (reached) ends[p] = 1;
    if (gap === 'segment' && path.charCodeAt(p) === SLASH) reached = false;
  }
}
