import { afterEach, describe, expect, it, vi } from 'vitest';
import { HttpError } from '../errors/http-error.js';
import { FairAdmission, type AdmissionKey } from './fair-admission.js';

/** A task that runs until released, recording when it started. */
function gate(log: string[], name: string) {
  let release!: () => void;
  const done = new Promise<void>((resolve) => { release = resolve; });
  return { task: async () => { log.push(name); await done; return name; }, release };
}

const key = (organisationId: string, chatbotId = 'c1'): AdmissionKey => ({ organisationId, chatbotId });
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('FairAdmission', () => {
  it('runs at most `concurrency` tasks at once and starts a waiter when one finishes', async () => {
    const admission = new FairAdmission({ concurrency: 2, maxQueue: 10, maxWaitMs: 60_000 });
    const log: string[] = [];
    const gates = ['a', 'b', 'c'].map((name) => gate(log, name));
    const runs = gates.map((g) => admission.run(key('o1'), g.task));
    await tick();
    expect(log).toEqual(['a', 'b']);
    expect(admission.load).toEqual({ running: 2, queued: 1 });
    gates[0]!.release();
    await tick();
    await tick();
    expect(log).toEqual(['a', 'b', 'c']);
    gates[1]!.release();
    gates[2]!.release();
    expect(await Promise.all(runs)).toEqual(['a', 'b', 'c']);
    expect(admission.load).toEqual({ running: 0, queued: 0 });
  });

  it('starts the next waiter only after the I/O already waiting has had its turn', async () => {
    const admission = new FairAdmission({ concurrency: 1, maxQueue: 10, maxWaitMs: 60_000 });
    const log: string[] = [];
    // Tasks whose work settles as microtasks only, as a preparation on PGlite does.
    const first = admission.run(key('o1'), async () => { log.push('first'); });
    const second = admission.run(key('o1'), async () => { log.push('second'); });
    setImmediate(() => log.push('socket I/O'));
    await Promise.all([first, second]);
    expect(log).toEqual(['first', 'socket I/O', 'second']);
  });

  it('lets organisations take turns, then the chatbots within an organisation', async () => {
    const admission = new FairAdmission({ concurrency: 1, maxQueue: 100, maxWaitMs: 60_000 });
    const log: string[] = [];
    const first = gate(log, 'first');
    const all = [admission.run(key('busy'), first.task)];
    // A burst at one organisation's chatbot, then one question each from others.
    for (const name of ['busy-1', 'busy-2', 'busy-3']) all.push(admission.run(key('busy', 'c1'), async () => { log.push(name); return name; }));
    all.push(admission.run(key('busy', 'c2'), async () => { log.push('busy-other-chatbot'); return ''; }));
    all.push(admission.run(key('quiet'), async () => { log.push('quiet'); return ''; }));
    all.push(admission.run(key('another'), async () => { log.push('another'); return ''; }));
    first.release();
    await Promise.all(all);
    expect(log).toEqual(['first', 'busy-1', 'quiet', 'another', 'busy-other-chatbot', 'busy-2', 'busy-3']);
  });

  it('refuses a newcomer with 503 and Retry-After when the queue is full', async () => {
    const admission = new FairAdmission({ concurrency: 1, maxQueue: 1, maxWaitMs: 60_000 });
    const log: string[] = [];
    const blocker = gate(log, 'blocker');
    const running = admission.run(key('o1'), blocker.task);
    const waiting = admission.run(key('o1'), async () => 'waited');
    const refused = await admission.run(key('o2'), async () => 'never').catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(HttpError);
    expect((refused as HttpError).statusCode).toBe(503);
    expect(Number((refused as HttpError).headers['Retry-After'])).toBeGreaterThanOrEqual(1);
    blocker.release();
    expect(await Promise.all([running, waiting])).toEqual(['blocker', 'waited']);
  });

  it('refuses a waiter whose turn has not come within the bound, and the queue goes on', async () => {
    const admission = new FairAdmission({ concurrency: 1, maxQueue: 10, maxWaitMs: 30 });
    const log: string[] = [];
    const blocker = gate(log, 'blocker');
    const running = admission.run(key('o1'), blocker.task);
    const waiter = admission.run(key('o2'), async () => 'late').catch((err: unknown) => err);
    expect(((await waiter) as HttpError).statusCode).toBe(503);
    expect(admission.load).toEqual({ running: 1, queued: 0 });
    blocker.release();
    await running;
    expect(await admission.run(key('o2'), async () => 'now')).toBe('now');
  });

  it('frees the slot of a task that fails', async () => {
    const admission = new FairAdmission({ concurrency: 1, maxQueue: 10, maxWaitMs: 60_000 });
    await expect(admission.run(key('o1'), async () => { throw new Error('retrieval failed'); })).rejects.toThrow('retrieval failed');
    expect(await admission.run(key('o1'), async () => 'next')).toBe('next');
    expect(admission.load).toEqual({ running: 0, queued: 0 });
  });

  describe('the expected wait', () => {
    afterEach(() => { vi.useRealTimers(); });

    /** Two slow tasks (a cold cache), twenty waiting behind them; the clock moves only when the test says. */
    async function afterSlowStart() {
      vi.useFakeTimers({ toFake: ['performance'] });
      const admission = new FairAdmission({ concurrency: 2, maxQueue: 100, maxWaitMs: 10_000 });
      const log: string[] = [];
      const gates = Array.from({ length: 22 }, (_, i) => gate(log, `q${i}`));
      const runs = gates.map((g) => admission.run(key('o1'), g.task));
      await tick();
      vi.advanceTimersByTime(8_000);
      gates[0]!.release();
      gates[1]!.release();
      await tick();
      await tick();
      return { admission, log, gates, runs };
    }

    it('follows how fast waiters start, not a few slow first tasks', async () => {
      const { admission, log, gates, runs } = await afterSlowStart();
      expect(log.slice(-2)).toEqual(['q2', 'q3']);
      vi.advanceTimersByTime(20);
      gates[2]!.release();
      gates[3]!.release();
      await tick();
      await tick();
      // By the average duration alone (about 1.3 s a task, 2 at a time): 19 waiters ahead, over 10 s.
      const newcomer = admission.run(key('o2'), async () => 'admitted');
      for (const g of gates) g.release();
      expect(await newcomer).toBe('admitted');
      await Promise.all(runs);
    });

    it('still refuses a newcomer when the measured rate says the wait is too long', async () => {
      const { admission, gates, runs } = await afterSlowStart();
      vi.advanceTimersByTime(4_000);
      gates[2]!.release();
      await tick();
      await tick();
      const refused = await admission.run(key('o2'), async () => 'never').catch((err: unknown) => err);
      expect((refused as HttpError).statusCode).toBe(503);
      for (const g of gates) g.release();
      await Promise.all(runs);
    });
  });
});
