import { describe, expect, it } from 'vitest';
import { askOf } from './question-focus.js';

describe('askOf', () => {
  it('finds the asking sentence among sentences telling the visitor’s situation', () => {
    expect(askOf('We drive an electric van. Do you have chargers in the car park?')).toBe('Do you have chargers in the car park?');
    expect(askOf('Do you repair road bikes? Mine has a buckled wheel')).toBe('Do you repair road bikes?');
  });

  it('drops the clauses before the first asking one in a single sentence', () => {
    expect(askOf('we are driving down with two toddlers, is there somewhere to warm a bottle?')).toBe('is there somewhere to warm a bottle?');
    expect(askOf('off to the coast for a fortnight, can i freeze my gym pass')).toBe('can i freeze my gym pass');
  });

  it('keeps a condition as part of what is asked', () => {
    expect(askOf('If the lift breaks down, how do guests reach the top floor?')).toBeUndefined();
  });

  it('gives nothing when the whole message asks', () => {
    expect(askOf('How much is a season ticket?')).toBeUndefined();
    expect(askOf('and what does the hire of skates cost, roughly?')).toBeUndefined();
  });

  it('gives nothing when the asking part leans on the situation told before it', () => {
    expect(askOf('I am bringing three nephews on a Sunday morning, is that ok?')).toBeUndefined();
    expect(askOf('The parcel came open. What now?')).toBeUndefined();
  });
});
