import { describe, expect, it } from 'vitest';
import { EventLoopSlices } from './event-loop-slices.js';

describe('EventLoopSlices', () => {
  it('lets a timer run during a long loop of synchronous work', async () => {
    const slices = new EventLoopSlices();
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    const until = performance.now() + 200;
    while (performance.now() < until) await slices.next();
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(3);
  });
});
