import { describe, expect, it } from 'vitest';
import { formatIssues } from '../errors/format-issues.js';
import { countPathGlobWildcards, WebsiteSettingsSchema } from './website-settings.schema.js';

const messages = (settings: unknown) => {
  const parsed = WebsiteSettingsSchema.safeParse(settings);
  return parsed.success ? [] : formatIssues(parsed.error.issues);
};

describe('WebsiteSettingsSchema path patterns', () => {
  it('counts ** as one wildcard', () => {
    expect(countPathGlobWildcards('/a/**/b?/*.html')).toBe(3);
    expect(countPathGlobWildcards('/a/***')).toBe(2);
    expect(countPathGlobWildcards('/plain')).toBe(0);
  });

  it('accepts ten wildcards in a pattern and refuses eleven', () => {
    expect(messages({ discovery: 'LINKS', includePaths: [`/${'**a'.repeat(5)}${'*?'.repeat(2)}/**`] })).toEqual([]);
    expect(messages({ discovery: 'LINKS', excludePaths: ['/ok', `/${'*a'.repeat(11)}`] }))
      .toEqual(['excludePaths[1] must have at most 10 wildcards (*, ** or ?)']);
  });

  it('refuses more than 100 wildcards in one list', () => {
    const tens = Array.from({ length: 10 }, (_, i) => `/${i}${'/*'.repeat(10)}`);
    expect(messages({ discovery: 'LINKS', includePaths: tens, excludePaths: tens })).toEqual([]);
    expect(messages({ discovery: 'LINKS', includePaths: [...tens, '/one/*'] })).toEqual(['includePaths must have at most 100 wildcards in all']);
  });

  it('refuses a pattern over 300 characters and more than 100 patterns', () => {
    expect(messages({ discovery: 'LINKS', includePaths: [`/${'a'.repeat(300)}`] })).toEqual(['includePaths[0] must be at most 300 characters']);
    expect(messages({ discovery: 'LINKS', includePaths: Array.from({ length: 101 }, (_, i) => `/p${i}`) }))
      .toEqual(['includePaths must contain at most 100 patterns']);
  });
});
