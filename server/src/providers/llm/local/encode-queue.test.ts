import { describe, expect, it } from 'vitest';
import { EncodeQueue } from './encode-queue.js';

/** A worker whose calls end when the test says: it records the order calls reached it. */
function heldWorker() {
  const started: string[] = [];
  const finish: (() => void)[] = [];
  const run = (texts: string[]) => new Promise<string[]>((resolve) => {
    started.push(texts.join());
    finish.push(() => resolve(texts));
  });
  /** Ends the call in flight and lets the queue start the next. */
  const endCall = async () => {
    finish.shift()!();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { run, started, endCall };
}

describe('EncodeQueue', () => {
  it('runs one call at a time, a waiting question before every waiting background call', async () => {
    const worker = heldWorker();
    const queue = new EncodeQueue(worker.run);
    const done: string[] = [];
    const ask = (priority: 'question' | 'background', text: string) => queue.push(priority, [text]).then(() => done.push(text));
    const calls = [ask('background', 'b1'), ask('background', 'b2'), ask('background', 'b3')];
    await new Promise((resolve) => setImmediate(resolve));
    // The first background call is in flight; a question asked now overtakes b2 and b3.
    calls.push(ask('question', 'q1'), ask('question', 'q2'));
    expect(queue.queued).toEqual({ question: 2, background: 2 });
    expect(worker.started).toEqual(['b1']);
    for (let i = 0; i < 5; i++) await worker.endCall();
    await Promise.all(calls);
    expect(worker.started).toEqual(['b1', 'q1', 'q2', 'b2', 'b3']);
    expect(done).toEqual(['b1', 'q1', 'q2', 'b2', 'b3']);
  });

  it('goes on after a failed call, and the failure reaches only its caller', async () => {
    const queue = new EncodeQueue(async (texts: string[]) => {
      if (texts[0] === 'bad') throw new Error('the model failed');
      return texts;
    });
    const bad = queue.push('background', ['bad']);
    const good = queue.push('background', ['good']);
    await expect(bad).rejects.toThrow('the model failed');
    await expect(good).resolves.toEqual(['good']);
  });

  it('drops a waiting call whose caller gave up; the call in flight runs to its end', async () => {
    const worker = heldWorker();
    const queue = new EncodeQueue(worker.run);
    const first = new AbortController();
    const second = new AbortController();
    const inFlight = queue.push('question', ['q1'], first.signal);
    const waiting = queue.push('question', ['q2'], second.signal);
    const other = queue.push('question', ['q3']);
    await new Promise((resolve) => setImmediate(resolve));
    first.abort();
    second.abort(new Error('the answer no longer needs it'));
    await expect(waiting).rejects.toThrow('no longer needs it');
    expect(queue.queued).toEqual({ question: 1, background: 0 });
    await worker.endCall();
    await worker.endCall();
    await expect(inFlight).resolves.toEqual(['q1']);
    await expect(other).resolves.toEqual(['q3']);
    expect(worker.started).toEqual(['q1', 'q3']);
    await expect(queue.push('background', ['b1'], second.signal)).rejects.toThrow('no longer needs it');
  });
});
