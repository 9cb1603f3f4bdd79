import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One chat.completions request the fake received. */
export interface FakeCompletionRequest {
  body: { model: string; messages: { role: string; content: string }[]; response_format?: unknown };
}

/** What the fake answers: the assistant's content, or an HTTP error status. */
export type FakeReply = { content: string } | { status: number };

/**
 * A loopback server speaking OpenAI's non-streaming `POST /v1/chat/completions` (what the
 * analysis calls), for tests of the model path. `reply` decides each answer and may wait, so a
 * test can act while a request is in flight.
 */
export async function startFakeOpenAi(reply: (request: FakeCompletionRequest) => Promise<FakeReply> | FakeReply) {
  const requests: FakeCompletionRequest[] = [];
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `no route ${req.url}` } }));
      return;
    }
    const request: FakeCompletionRequest = { body: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
    requests.push(request);
    const answer = await reply(request);
    if ('status' in answer) {
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'fake failure', type: 'server_error' } }));
      return;
    }
    const base = { id: 'chatcmpl-fake', created: Math.floor(Date.now() / 1000), model: request.body.model };
    const usage = { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({
      ...base, object: 'chat.completion', usage,
      choices: [{ index: 0, message: { role: 'assistant', content: answer.content }, finish_reason: 'stop' }],
    }));
  });
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
