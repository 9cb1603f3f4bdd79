import { pino, type Logger } from 'pino';

/** The service's JSON logger; keys and visitor tokens never reach the logs. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    redact: { paths: ['req.headers["x-api-key"]', 'req.headers.authorization', 'req.headers.cookie'], censor: '[redacted]' },
  });
}
