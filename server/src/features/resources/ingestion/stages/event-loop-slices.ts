import { setImmediate as nextTurn } from 'node:timers/promises';

/** Synchronous work a crawl does at most before other requests get a turn (a `/health` poll, a chat). */
const SLICE_MS = 20;

/**
 * Cuts a long loop on the service's main thread (a sitemap's 50,000 URLs, a page's links, each
 * checked against robots.txt and the path filters) into slices: `await slices.next()` in the loop
 * returns at once until the slice has run SLICE_MS, then lets the event loop turn first.
 */
export class EventLoopSlices {
  private startedAt = performance.now();

  async next(): Promise<void> {
    if (performance.now() - this.startedAt < SLICE_MS) return;
    await nextTurn();
    this.startedAt = performance.now();
  }
}
