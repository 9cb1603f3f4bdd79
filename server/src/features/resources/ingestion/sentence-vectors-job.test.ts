import { describe, expect, it } from 'vitest';
import { restAfterBatch } from './sentence-vectors-job.js';

describe('restAfterBatch', () => {
  it('rests as long as the batch took while the service is busy', () => {
    expect(restAfterBatch(4000, 0.5)).toBe(4000);
    expect(restAfterBatch(4000, 0.97)).toBe(4000);
  });

  it('rests in proportion below that, and not at all when the service is idle', () => {
    expect(restAfterBatch(4000, 0.25)).toBe(2000);
    expect(restAfterBatch(4000, 0.02)).toBeCloseTo(160);
    expect(restAfterBatch(4000, 0)).toBe(0);
  });

  it('never rests a negative time', () => {
    expect(restAfterBatch(4000, -0.1)).toBe(0);
  });
});
