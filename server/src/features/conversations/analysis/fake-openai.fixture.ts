import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One chat.completions request the fake received. */
export interface FakeCompletionRequest {
  body: { model: string; messages: { role: string; content: string }[]; stream?: boolean; response_format?: unknown };
}

/** What the fake answers: the assistant's content, or an HTTP error status. */
export type FakeReply = { content: string } | { status: number };

/**
 * A loopback server speaking OpenAI's `POST /v1/chat/completions`, non-streaming and streaming
 * (`chat.completion.chunk` SSE events then `[DONE]`), for tests of the model path. `reply`
 * decides each answer and may wait, so a test can act while a request is in flight.
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
    if (!request.body.stream) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({
        ...base, object: 'chat.completion', usage,
        choices: [{ index: 0, message: { role: 'assistant', content: answer.content }, finish_reason: 'stop' }],
      }));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const send = (data: unknown) => res.write(`data: ${JSON.stringify(data)}\n\n`);
    for (const piece of answer.content.match(/.{1,16}/gs) ?? []) {
      send({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] });
    }
    send({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }], usage });
    res.end('data: [DONE]\n\n');
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
