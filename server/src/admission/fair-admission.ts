import { serviceUnavailable } from '../errors/http-error.js';

export interface AdmissionOptions {
  /** Tasks run at once; the rest wait in the queue. */
  concurrency: number;
  /** Tasks that may wait at once; beyond, a newcomer is refused at once. */
  maxQueue: number;
  /** A newcomer whose estimated wait exceeds this is refused at once, and a waiter still waiting after it is refused then. */
  maxWaitMs: number;
}

/** Who a task is for: the queue takes turns between organisations, then between their chatbots. */
export interface AdmissionKey {
  organisationId: string;
  /** A chatbot id, or any other name of what is asked (a resource chat). */
  chatbotId: string;
}

interface Waiter {
  start(): void;
  refuse(): void;
  timer: NodeJS.Timeout;
}

/** An organisation's waiters, by chatbot, and the order its chatbots take turns in. */
interface OrganisationQueue {
  turns: string[];
  waiting: Map<string, Waiter[]>;
}

/** The first estimate of a task's duration, before any finished. */
const INITIAL_TASK_MS = 50;
/** Completions kept to measure how fast waiters start while some wait. */
const RATE_WINDOW = 32;

/**
 * Bounded concurrency with a fair queue: organisations take turns (round robin), and within one
 * organisation its chatbots do, so a burst at one chatbot delays the others by at most one task
 * each. A task that would wait longer than `maxWaitMs` is refused with an honest 503 and a
 * `Retry-After`, instead of everyone waiting for everyone.
 */
export class FairAdmission {
  private running = 0;
  private queued = 0;
  private readonly turns: string[] = [];
  private readonly organisations = new Map<string, OrganisationQueue>();
  /** Moving average of how long a task takes, for the wait estimate. */
  private taskMs = INITIAL_TASK_MS;
  /** When the last tasks finished while others waited (each such finish starts a waiter), oldest first. */
  private readonly finishedWhileWaiting: number[] = [];

  constructor(private readonly options: AdmissionOptions) {}

  /** Tasks running and waiting now. */
  get load(): { running: number; queued: number } {
    return { running: this.running, queued: this.queued };
  }

  /**
   * Runs `task` when its turn comes.
   * @throws 503 (with `Retry-After`) when the queue is full or the wait would exceed the bound.
   */
  async run<T>(key: AdmissionKey, task: () => Promise<T>): Promise<T> {
    if (this.running >= this.options.concurrency) await this.wait(key);
    else this.running++;
    const started = performance.now();
    try {
      return await task();
    } finally {
      const finished = performance.now();
      this.taskMs = 0.9 * this.taskMs + 0.1 * (finished - started);
      if (this.queued === 0) this.finishedWhileWaiting.length = 0;
      else if (this.finishedWhileWaiting.push(finished) > RATE_WINDOW) this.finishedWhileWaiting.shift();
      this.release();
    }
  }

  /**
   * The expected wait of a newcomer, in ms: from the average task's duration, or, while waiters
   * start, from how fast they have been starting, whichever is shorter. A few slow tasks at the
   * start of a burst (the first questions load the term index that the others then share) raise
   * the average duration for a while, not the rate: by the average alone, a burst that cleared its
   * queue within 13 s refused questions for an expected wait of over 30 s.
   */
  private estimatedWaitMs(): number {
    const byDuration = Math.ceil((this.queued + 1) / this.options.concurrency) * this.taskMs;
    const finished = this.finishedWhileWaiting;
    if (finished.length < 2) return byDuration;
    const perStart = (finished.at(-1)! - finished[0]!) / (finished.length - 1);
    return Math.min(byDuration, Math.ceil((this.queued + 1) * perStart));
  }

  private busy(): Error {
    const seconds = Math.max(1, Math.ceil(this.estimatedWaitMs() / 1000));
    return serviceUnavailable('the service is answering too many questions at once; try again shortly', seconds);
  }

  private wait(key: AdmissionKey): Promise<void> {
    if (this.queued >= this.options.maxQueue || this.estimatedWaitMs() > this.options.maxWaitMs) return Promise.reject(this.busy());
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        start: () => { clearTimeout(waiter.timer); resolve(); },
        refuse: () => reject(this.busy()),
        timer: setTimeout(() => {
          if (this.remove(key, waiter)) waiter.refuse();
        }, this.options.maxWaitMs),
      };
      this.enqueue(key, waiter);
    });
  }

  private enqueue(key: AdmissionKey, waiter: Waiter): void {
    let organisation = this.organisations.get(key.organisationId);
    if (!organisation) {
      organisation = { turns: [], waiting: new Map() };
      this.organisations.set(key.organisationId, organisation);
      this.turns.push(key.organisationId);
    }
    let waiting = organisation.waiting.get(key.chatbotId);
    if (!waiting) {
      waiting = [];
      organisation.waiting.set(key.chatbotId, waiting);
      organisation.turns.push(key.chatbotId);
    }
    waiting.push(waiter);
    this.queued++;
  }

  /** Takes a waiter out of the queue (its wait timed out); false if it already started. */
  private remove(key: AdmissionKey, waiter: Waiter): boolean {
    const organisation = this.organisations.get(key.organisationId);
    const waiting = organisation?.waiting.get(key.chatbotId);
    const index = waiting?.indexOf(waiter) ?? -1;
    if (!organisation || !waiting || index < 0) return false;
    waiting.splice(index, 1);
    this.queued--;
    if (waiting.length === 0) this.dropChatbot(key, organisation);
    return true;
  }

  private dropChatbot(key: AdmissionKey, organisation: OrganisationQueue): void {
    organisation.waiting.delete(key.chatbotId);
    organisation.turns.splice(organisation.turns.indexOf(key.chatbotId), 1);
    if (organisation.turns.length > 0) return;
    this.organisations.delete(key.organisationId);
    this.turns.splice(this.turns.indexOf(key.organisationId), 1);
  }

  /** A task finished: the next organisation in turn starts its next chatbot's oldest waiter. */
  private release(): void {
    const organisationId = this.turns.shift();
    if (organisationId === undefined) {
      this.running--;
      return;
    }
    const organisation = this.organisations.get(organisationId)!;
    const chatbotId = organisation.turns.shift()!;
    const waiting = organisation.waiting.get(chatbotId)!;
    const next = waiting.shift()!;
    this.queued--;
    if (waiting.length > 0) organisation.turns.push(chatbotId);
    else organisation.waiting.delete(chatbotId);
    if (organisation.turns.length > 0) this.turns.push(organisationId);
    else this.organisations.delete(organisationId);
    // The slot passes to the waiter: `running` stays the same. It starts after the I/O already
    // waiting: on PGlite a preparation's queries settle as microtasks, so starting the next one at
    // once could run the whole queue without a turn for the sockets, and answers already prepared
    // waited seconds for their first words to be read and sent.
    setImmediate(() => next.start());
  }
}
