import { describe, expect, it } from 'vitest';
import { compilePathGlob, compileRobotsPattern } from './wildcard-match.js';

// The RegExps these matchers replaced: they define the semantics to keep, and are safe on the
// short inputs below (they backtrack only on long ones).
function robotsRegExp(pattern: string): RegExp {
  const anchored = pattern.endsWith('$');
  const body = (anchored ? pattern.slice(0, -1) : pattern).split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*');
  return new RegExp(`^${body}${anchored ? '$' : ''}`);
}

function globRegExp(pattern: string): RegExp {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i]!;
    if (char === '*' && pattern[i + 1] === '*') {
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

/** A small deterministic generator, so a failure names its seed. */
function random(seed: number): (n: number) => number {
  let state = seed;
  return (n) => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state % n;
  };
}

const pick = (next: (n: number) => number, alphabet: string[], length: number) => Array.from({ length }, () => alphabet[next(alphabet.length)]).join('');

describe('compileRobotsPattern', () => {
  it('matches exactly as the RegExp it replaced, on random patterns and paths', () => {
    const next = random(7);
    for (let i = 0; i < 20_000; i++) {
      const pattern = `/${pick(next, ['a', 'b', '/', '*', '*', '.', '$'], next(7))}${next(3) === 0 ? '$' : ''}`;
      const path = `/${pick(next, ['a', 'b', '/', '.', '$'], next(9))}`;
      expect(compileRobotsPattern(pattern)(path), `${pattern} on ${path}`).toBe(robotsRegExp(pattern).test(path));
    }
  });
});

describe('compilePathGlob', () => {
  it('matches exactly as the RegExp it replaced, on random patterns and paths', () => {
    const next = random(11);
    for (let i = 0; i < 20_000; i++) {
      const pattern = `/${pick(next, ['a', 'b', '/', '*', '*', '?', '.'], next(8))}${next(4) === 0 ? '/**' : ''}`;
      const path = `/${pick(next, ['a', 'b', '/', '.'], next(9))}`;
      expect(compilePathGlob(pattern)(path), `${pattern} on ${path}`).toBe(globRegExp(pattern).test(path));
    }
  });

});
