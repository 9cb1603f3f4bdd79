import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from './logger.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-logger-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const linesOf = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as { msg: string; level: number }) : []);

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('createLogger', () => {
  it('writes an error line, and the lines buffered before it, without waiting for the buffer to fill', async () => {
    const file = path.join(dir, 'error.log');
    const logger = createLogger('info', file);
    logger.info('request completed');
    logger.error('request failed');
    await until(() => linesOf(file).length === 2);
    expect(linesOf(file).map((line) => line.msg)).toEqual(['request completed', 'request failed']);
  });

  it('writes an ordinary line within a second or so when nothing else is logged', async () => {
    const file = path.join(dir, 'quiet.log');
    const logger = createLogger('info', file);
    logger.info('ingestion done');
    // Far below the 4 kB the buffer would otherwise wait for: only the periodic flush writes it.
    await until(() => linesOf(file).length === 1);
    expect(linesOf(file)[0]!.msg).toBe('ingestion done');
  });

  it('writes every buffered line and the crash itself when the process dies of an uncaught exception', () => {
    const file = path.join(dir, 'crash.log');
    const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'logger-crash.fixture.ts'), file], { encoding: 'utf8' });
    expect(result.status).toBe(1);
    const lines = linesOf(file);
    expect(lines.map((line) => line.msg)).toEqual(['an ordinary line, still in the buffer', 'the service crashed']);
    expect(lines[1]).toMatchObject({ level: 60, origin: 'uncaughtException', err: { message: 'boom' } });
  });
});
