import { describe, expect, it } from 'vitest';
import { questionTerms } from './text-terms.js';

describe('questionTerms', () => {
  it('leaves out "us" the pronoun and keeps "US" the country', () => {
    expect([...questionTerms('Can you make us sandwiches to take on a walk?').keys()]).not.toContain('us');
    expect([...questionTerms('Do you ship to the US?').keys()]).toContain('us');
  });
});
