import http from 'node:http';

/** What a {@link HealthWatch} saw: every poll's time to answer, and polls that got no answer. */
export interface HealthReport {
  polls: number;
  /** The slowest answer, in ms (a poll still waiting when the watch stopped counts from its start). */
  slowestMs: number;
  /** Polls that failed or answered other than 200. */
  failures: string[];
}

export interface HealthWatch {
  /** Stops polling and reports, after the poll in flight (if any) settles or times out. */
  stop(): Promise<HealthReport>;
}

/**
 * Polls `GET {url}/health` every `everyMs` from this process while another part of a test loads
 * a service running in its own process: a service whose event loop stalls answers late, and the
 * report says by how much. The poll is one at a time: a stalled service is not sent a queue of them.
 */
export function watchHealth(url: string, everyMs = 100): HealthWatch {
  const report: HealthReport = { polls: 0, slowestMs: 0, failures: [] };
  let stopped = false;
  let inFlight: Promise<void> = Promise.resolve();
  let startedAt = 0;
  let timer: NodeJS.Timeout | undefined;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

  const pollOnce = () => new Promise<void>((resolve) => {
    startedAt = performance.now();
    const request = http.get(`${url}/health`, { agent }, (response) => {
      response.resume();
      response.on('end', () => {
        const took = performance.now() - startedAt;
        report.polls++;
        report.slowestMs = Math.max(report.slowestMs, took);
        if (response.statusCode !== 200) report.failures.push(`status ${response.statusCode}`);
        startedAt = 0;
        resolve();
      });
    });
    request.setTimeout(30_000, () => request.destroy(new Error('no answer in 30 s')));
    request.on('error', (err) => {
      report.failures.push(err.message);
      report.slowestMs = Math.max(report.slowestMs, performance.now() - startedAt);
      startedAt = 0;
      resolve();
    });
  });

  const loop = () => {
    if (stopped) return;
    const began = performance.now();
    inFlight = pollOnce().then(() => {
      if (!stopped) timer = setTimeout(loop, Math.max(0, everyMs - (performance.now() - began)));
    });
  };
  loop();

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      // A poll the service has not answered yet counts for as long as it has waited so far.
      const waiting = startedAt > 0 ? performance.now() - startedAt : 0;
      await Promise.race([inFlight, new Promise((resolve) => setTimeout(resolve, 1_000))]);
      agent.destroy();
      return { ...report, slowestMs: Math.max(report.slowestMs, waiting) };
    },
  };
}
