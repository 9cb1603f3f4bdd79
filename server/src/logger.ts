import { destination, pino, type Logger } from 'pino';

/**
 * The service's JSON logger; keys and visitor tokens never reach the logs. Lines are written in
 * batches of 4 kB rather than one write per line (a syscall per request was a measurable share of
 * a cached GET's cost); `flushLogger` runs at shutdown so nothing is lost on a clean stop.
 */
export function createLogger(level: string, dest: number | string = 1): Logger {
  return pino({
    level,
    redact: { paths: ['req.headers["x-api-key"]', 'req.headers.authorization', 'req.headers.cookie'], censor: '[redacted]' },
  }, destination({ dest, sync: false, minLength: 4096 }));
}

/** Writes out buffered log lines. */
export function flushLogger(logger: Logger): Promise<void> {
  return new Promise((resolve) => logger.flush(() => resolve()));
}
