import { describe, expect, it } from 'vitest';
import { questionTerms, stem } from './text-terms.js';

describe('questionTerms', () => {
  it('leaves out "us" the pronoun and keeps "US" the country', () => {
    expect([...questionTerms('Can you pack us a lunch for the beach?').keys()]).not.toContain('us');
    expect([...questionTerms('Do you ship to the US?').keys()]).toContain('us');
  });

  it('leaves out the closing "work" of "how does … work?", and keeps "work" anywhere else', () => {
    expect([...questionTerms('How does your referral scheme work?').keys()]).toEqual([stem('referral'), stem('scheme')]);
    expect([...questionTerms('How do seats work on the Growth plan?').keys()]).toContain('work');
    expect([...questionTerms('Can I work from the lounge?').keys()]).toContain('work');
  });

  it('reads an ordinal in figures as the word ("2nd" as "second")', () => {
    expect([...questionTerms('how much is the permit for a 2nd car').keys()]).toContain(stem('second'));
    expect(stem('3rd')).toBe(stem('third'));
    expect(stem('21st')).toBe('21st');
  });
});
