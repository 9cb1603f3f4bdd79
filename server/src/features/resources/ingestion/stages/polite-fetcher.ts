import http from 'node:http';
import https from 'node:https';
import { setTimeout as sleep } from 'node:timers/promises';
import { currentTurn } from '../../../../jobs/job-yield.js';
import { safeFetch, type SafeFetchOptions, type SafeResponse } from '../../../../net/safe-fetch.js';
import { ALLOW_ALL, DISALLOW_ALL, parseRobotsTxt, type RobotsRules } from './robots-txt.js';

/** Time as the crawler sees it; tests give a virtual one and read the waits it was asked for. */
export interface CrawlClock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const SYSTEM_CLOCK: CrawlClock = {
  now: () => Date.now(),
  sleep: (ms, signal) => sleep(ms, undefined, { signal }),
};

/** A politeness wait in a job is slept in slices this long, each followed by a yield point. */
const WAIT_SLICE_MS = 1_000;

/** A robots.txt Crawl-delay above this is read as this (the bound of `delayBetweenExtractionMs`). */
export const MAX_CRAWL_DELAY_MS = 60_000;

export interface PoliteFetcherOptions {
  fetch: SafeFetchOptions;
  userAgent: string;
  /** `settings.delayBetweenExtractionMs`: the least time between two requests to one site. */
  delayMs: number;
  clock: CrawlClock;
  /** The clock time at which the crawl stops waiting (CRAWL_MAX_DURATION_MS). */
  deadline: number;
}

/**
 * Fetches for one crawl, politely: robots.txt read once per origin, and between two requests to
 * the same origin at least `delayBetweenExtractionMs` or the origin's Crawl-delay, whichever is
 * longer. Every request (robots.txt, sitemaps, pages, and each redirect inside `safeFetch`) goes
 * through the SSRF guard.
 */
export class PoliteFetcher {
  private readonly robotsByOrigin = new Map<string, Promise<RobotsRules>>();
  private readonly lastRequestAt = new Map<string, number>();
  /** One crawl's connections are reused (as a browser does), which also spares the site new handshakes. */
  private readonly agents = { http: new http.Agent({ keepAlive: true, maxSockets: 1 }), https: new https.Agent({ keepAlive: true, maxSockets: 1 }) };

  constructor(private readonly options: PoliteFetcherOptions) {}

  /** Closes the crawl's kept-alive connections. */
  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  /** Whether the crawl's time is up. */
  get timeUp(): boolean {
    return this.options.clock.now() >= this.options.deadline;
  }

  /** The robots.txt rules of an origin (fetched on first use; 5xx disallows all, RFC 9309 § 2.3.1.4). */
  robots(origin: string): Promise<RobotsRules> {
    let rules = this.robotsByOrigin.get(origin);
    if (!rules) {
      rules = this.readRobots(origin);
      this.robotsByOrigin.set(origin, rules);
    }
    return rules;
  }

  /** GETs `url` after the origin's politeness wait; `headers` add to the crawl's own (conditional fetches). */
  async fetch(url: string, headers: Record<string, string> = {}, maxBytes?: number): Promise<SafeResponse> {
    const origin = new URL(url).origin;
    const rules = await this.robots(origin);
    await this.waitFor(origin, Math.max(this.options.delayMs, Math.min(rules.crawlDelayMs ?? 0, MAX_CRAWL_DELAY_MS)));
    return this.request(origin, url, headers, maxBytes);
  }

  private async readRobots(origin: string): Promise<RobotsRules> {
    try {
      const response = await this.request(origin, `${origin}/robots.txt`, {}, 512 * 1024);
      if (response.status >= 200 && response.status < 300) return parseRobotsTxt(response.body.toString('utf8'), this.options.userAgent);
      return response.status >= 500 ? DISALLOW_ALL : ALLOW_ALL;
    } catch {
      // Unreachable robots.txt: the pages themselves will fail the same way and say why.
      return ALLOW_ALL;
    }
  }

  private async waitFor(origin: string, delayMs: number): Promise<void> {
    const last = this.lastRequestAt.get(origin);
    if (last === undefined || delayMs <= 0) return;
    const { clock, deadline } = this.options;
    // In a job, a long politeness wait is slept in slices with a yield point between them, so a
    // crawl asked to yield gives its slot away during the wait, not after it (job-yield.ts).
    const turn = currentTurn();
    for (;;) {
      const wait = Math.min(last + delayMs, deadline) - clock.now();
      if (wait <= 0) return;
      if (!turn) return clock.sleep(wait, this.options.fetch.signal);
      await clock.sleep(Math.min(wait, WAIT_SLICE_MS), this.options.fetch.signal);
      await turn.yieldPoint();
    }
  }

  private async request(origin: string, url: string, headers: Record<string, string>, maxBytes?: number): Promise<SafeResponse> {
    this.lastRequestAt.set(origin, this.options.clock.now());
    try {
      return await safeFetch(url, { ...this.options.fetch, agents: this.agents, headers: { ...this.options.fetch.headers, ...headers }, ...(maxBytes ? { maxBytes } : {}) });
    } finally {
      // The wait runs from the end of the previous request, as a site's Crawl-delay means it.
      this.lastRequestAt.set(origin, this.options.clock.now());
    }
  }
}
