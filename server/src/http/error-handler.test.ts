import express from 'express';
import { pino } from 'pino';
import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { HttpError, serviceUnavailable } from '../errors/http-error.js';
import { errorHandler } from './error-handler.js';
import { requestLogging } from './request-logging.js';

/** A logger that keeps its lines in memory. */
function memoryLogger() {
  const lines: { level: number; msg: string; reqId?: string; err?: { message: string } }[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => { lines.push(JSON.parse(line) as typeof lines[number]); } });
  return { logger, lines };
}

function app() {
  const { logger, lines } = memoryLogger();
  const server = express();
  server.use(requestLogging(logger));
  server.get('/broken', () => { throw new Error('the disk is full'); });
  server.get('/busy', () => { throw serviceUnavailable('busy', 1); });
  server.get('/missing', () => { throw new HttpError(404, ['no such thing']); });
  server.use(errorHandler(logger));
  return { request: supertest(server), lines };
}

describe('errorHandler', () => {
  it('logs a server error with its request id and answers in the error shape without the cause', async () => {
    const { request, lines } = app();
    const res = await request.get('/broken').set('x-request-id', 'req-500');
    expect(res.status).toBe(500);
    expect(JSON.stringify(res.body)).not.toContain('the disk is full');
    const failed = lines.find((line) => line.msg === 'request failed');
    expect(failed).toMatchObject({ level: 50, reqId: 'req-500', err: { message: 'the disk is full' } });
  });

  it('does not log a client error or a 503 as a failure', async () => {
    const { request, lines } = app();
    expect((await request.get('/missing')).status).toBe(404);
    const busy = await request.get('/busy');
    expect(busy.status).toBe(503);
    expect(busy.headers['retry-after']).toBe('1');
    expect(lines.filter((line) => line.msg === 'request failed')).toEqual([]);
  });
});
