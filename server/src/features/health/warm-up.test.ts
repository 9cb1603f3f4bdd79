import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { WarmUp } from './warm-up.js';

describe('WarmUp', () => {
  it('is done once every step has run, one after the other, and runs them once', async () => {
    const ran: string[] = [];
    let release!: () => void;
    const first = new Promise<void>((resolve) => { release = resolve; });
    const warmUp = new WarmUp([
      { name: 'first', run: async () => { ran.push('first'); await first; } },
      { name: 'second', run: async () => { ran.push('second'); } },
    ], pino({ level: 'silent' }));
    const started = warmUp.start();
    await new Promise((resolve) => setImmediate(resolve));
    expect(ran).toEqual(['first']);
    expect(warmUp.done).toBe(false);
    release();
    await started;
    await warmUp.start();
    expect(ran).toEqual(['first', 'second']);
    expect(warmUp.done).toBe(true);
  });

  it('logs a failed step and goes on: the instance is ready, only slower at first', async () => {
    const lines: { msg: string; step: string }[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => { lines.push(JSON.parse(line)); } });
    const warmUp = new WarmUp([
      { name: 'encoder', run: () => Promise.reject(new Error('no model')) },
      { name: 'indexes', run: async () => ({ resources: 3 }) },
    ], logger);
    await warmUp.start();
    expect(warmUp.done).toBe(true);
    expect(lines.map(({ msg, step }) => [step, msg])).toEqual([
      ['encoder', 'warm-up step failed; it happens on first use instead'], ['indexes', 'warmed up'],
    ]);
  });
});
