import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpError } from '../../errors/http-error.js';
import type { AnswerPrompt } from './answer-model.js';
import { OpenAiChatAnswerModel } from './openai-chat-answer-model.js';

const PROMPT: AnswerPrompt = {
  system: 'Answer from the context.',
  messages: [{ role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Hello!' }, { role: 'user', content: 'Do you ship abroad?' }],
  question: 'Do you ship abroad?',
  passages: [],
};

interface Seen { url: string; headers: http.IncomingHttpHeaders; body: Record<string, unknown>; remotePort: number }

let server: http.Server | undefined;
const seen: Seen[] = [];

/** A loopback Chat Completions server whose handler writes the response; resolves its base URL. */
async function serve(handler: (res: http.ServerResponse) => void | Promise<void>): Promise<string> {
  server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (chunk: Buffer) => parts.push(chunk));
    req.on('end', () => {
      seen.push({ url: req.url ?? '', headers: req.headers, body: JSON.parse(Buffer.concat(parts).toString('utf8')) as Record<string, unknown>, remotePort: req.socket.remotePort ?? 0 });
      void handler(res);
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/`;
}

afterEach(async () => {
  seen.length = 0;
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

const chunk = (delta: Record<string, unknown>) => `data: ${JSON.stringify({ object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: null }] })}\n\n`;

/** The model's answer as deltas, or the error it threw with the deltas before it. */
async function run(baseUrl: string, signal = new AbortController().signal, logger?: pino.Logger) {
  const deltas: string[] = [];
  try {
    for await (const delta of new OpenAiChatAnswerModel({ apiKey: 'sk-test', baseUrl, model: 'gpt-test' }, logger).stream(PROMPT, signal)) deltas.push(delta);
    return { deltas };
  } catch (error) {
    return { deltas, error };
  }
}

describe('OpenAiChatAnswerModel', () => {
  it('posts the conversation with the key and yields each delta, across any split of the bytes', async () => {
    const wire = `${chunk({ role: 'assistant', content: '' })}: keep-alive\n\n${chunk({ content: 'Oui, ' })}${chunk({ content: 'nous livrons à l’étranger 🚚.' })}${chunk({})}data: [DONE]\n\n`.replace(/\n/g, '\r\n');
    const bytes = Buffer.from(wire, 'utf8');
    const url = await serve(async (res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      // Three bytes at a time: frames, CRLFs and multi-byte characters all split.
      for (let i = 0; i < bytes.length; i += 3) {
        res.write(bytes.subarray(i, i + 3));
        if (i % 60 === 0) await new Promise((resolve) => setImmediate(resolve));
      }
      res.end();
    });
    const { deltas, error } = await run(url);
    expect(error).toBeUndefined();
    expect(deltas).toEqual(['Oui, ', 'nous livrons à l’étranger 🚚.']);
    expect(seen[0]!.url).toBe('/v1/chat/completions');
    expect(seen[0]!.headers.authorization).toBe('Bearer sk-test');
    expect(seen[0]!.body).toEqual({
      model: 'gpt-test', stream: true,
      messages: [{ role: 'system', content: 'Answer from the context.' }, { role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Hello!' }, { role: 'user', content: 'Do you ship abroad?' }],
    });
  });

  it('reuses the connection for the next answer once a stream finished', async () => {
    const url = await serve((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`${chunk({ content: 'Yes.' })}data: [DONE]\n\n`);
    });
    expect((await run(url)).deltas).toEqual(['Yes.']);
    expect((await run(url)).deltas).toEqual(['Yes.']);
    expect(seen).toHaveLength(2);
    expect(seen[1]!.remotePort).toBe(seen[0]!.remotePort);
  });

  it('turns a refused request into a logged 502 that carries the provider\'s message', async () => {
    const url = await serve((res) => {
      res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } }));
    });
    const lines: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => { lines.push(line); } });
    const { deltas, error } = await run(url, undefined, logger);
    expect(deltas).toEqual([]);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).statusCode).toBe(502);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('the provider answered 401');
    expect(lines[0]).toContain('Incorrect API key provided');
  });

  it('fails with a 502 after the deltas it had when the connection drops, the provider reports an error or sends garbage', async () => {
    for (const tail of ['drop', `data: ${JSON.stringify({ error: { message: 'overloaded' } })}\n\n`, 'data: {"choices": [\n\n']) {
      const url = await serve((res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        if (tail === 'drop') res.write(chunk({ content: 'Partial' }), () => setTimeout(() => res.socket?.destroy(), 20));
        else res.end(`${chunk({ content: 'Partial' })}${tail}`);
      });
      const { deltas, error } = await run(url);
      expect(deltas).toEqual(['Partial']);
      expect((error as HttpError).statusCode).toBe(502);
      await new Promise<void>((resolve) => { server!.closeAllConnections(); server!.close(() => resolve()); });
      server = undefined;
    }
  });

  it('takes a response that ends whole without [DONE] as the answer, as some compatible servers send it', async () => {
    const url = await serve((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`${chunk({ content: 'All' })}${chunk({ content: ' of it.' })}`);
    });
    expect(await run(url)).toEqual({ deltas: ['All', ' of it.'] });
  });

  it('answers from a whole chat.completion when the server does not stream', async () => {
    const url = await serve((res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: 'Yes, worldwide.' }, finish_reason: 'stop' }] }));
    });
    expect(await run(url)).toEqual({ deltas: ['Yes, worldwide.'] });
  });

  it('closes the connection and throws the reason when aborted mid-stream', async () => {
    let closed: Promise<void> | undefined;
    const url = await serve((res) => {
      closed = new Promise((resolve) => res.once('close', () => resolve()));
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(chunk({ content: 'One' }));
    });
    const controller = new AbortController();
    const model = new OpenAiChatAnswerModel({ apiKey: 'sk-test', baseUrl: url, model: 'gpt-test' });
    const reason = new Error('visitor left');
    await expect((async () => {
      for await (const delta of model.stream(PROMPT, controller.signal)) {
        expect(delta).toBe('One');
        controller.abort(reason);
      }
    })()).rejects.toBe(reason);
    await closed;
  });
});
