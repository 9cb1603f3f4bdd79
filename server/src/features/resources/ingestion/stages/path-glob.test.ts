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
