import { describe, expect, it } from 'vitest';
import { compilePathGlobs } from './path-glob.js';

describe('compilePathGlobs', () => {
  it('matches * within a segment, ** across segments and ? as one character', () => {
    const matches = compilePathGlobs(['/docs/*.html', '/blog/**', '/p?']);
    expect(matches('/docs/intro.html')).toBe(true);
    expect(matches('/docs/a/intro.html')).toBe(false);
    expect(matches('/blog')).toBe(true);
    expect(matches('/blog/2024/05/post')).toBe(true);
    expect(matches('/blogger')).toBe(false);
    expect(matches('/p1')).toBe(true);
    expect(matches('/p12')).toBe(false);
  });

  it('treats regular-expression characters literally and matches nothing without patterns', () => {
    expect(compilePathGlobs(['/a+b(1).html'])('/a+b(1).html')).toBe(true);
    expect(compilePathGlobs(['/a+b(1).html'])('/aab1.html')).toBe(false);
    expect(compilePathGlobs([])('/anything')).toBe(false);
  });

  it('matches ** in the middle of a pattern', () => {
    const matches = compilePathGlobs(['/**/print']);
    expect(matches('/a/b/print')).toBe(true);
    expect(matches('/print')).toBe(false);
  });
});

describe('compilePathGlobs: the worst patterns the settings allow', () => {
  // The RegExps this replaced took combinatorial time on these (ten wildcards, a path of 2,000
  // a's that fails at the end); matching is now linear in the path per wildcard.
  const path = `/${'a'.repeat(2000)}b`;

  it('answers at once for ten ** or * wildcards against a long path of one letter', { timeout: 10_000 }, () => {
    const matches = compilePathGlobs([`/${'**a'.repeat(10)}`, `/${'*a'.repeat(10)}`, `/${'?*'.repeat(5)}a/**`]);
    for (let i = 0; i < 100; i++) expect(matches(path)).toBe(false);
    expect(matches(`/${'a'.repeat(2000)}`)).toBe(true);
  });
});
