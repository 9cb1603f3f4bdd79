import { describe, expect, it } from 'vitest';
import { regionsOf } from './places.js';

describe('regionsOf', () => {
  it('names the regions of the places a question mentions', () => {
    expect(regionsOf('Do you send parcels to Germany?')).toBe('eu europe european union');
    expect(regionsOf('Do you ship to Sydney?')).toBe('australia');
    expect(regionsOf('We are a Dutch shop')).toContain('eu');
  });

  it('adds nothing without a place, and matches whole words only', () => {
    expect(regionsOf('How often should I trim the wick?')).toBe('');
    expect(regionsOf('Is it germane to ask?')).toBe('');
  });
});
