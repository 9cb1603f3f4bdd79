// The floor of the chat-stream burst: the least a Node service must do per question, with no
// framework, no auth, no admission and no AI SDK. It reads the JSON body, makes one indexed query
// for eight passages, POSTs the question to the OpenAI-compatible provider over node:http, and
// forwards each delta as the contract's `partialResponse` event, then `streamEnd`.
// With BARE_PROVIDER=ai-sdk the provider is read through the AI SDK's OpenAI chat model
// (`doStream`, on the global fetch) instead: the same floor plus the SDK's parse of the stream.
// Runs in its own process like the built server; prints "listening at <url>" once listening.
// Env: PORT (0), DATABASE_URL (PostgreSQL) or DATA_DIR (PGlite, as the service lays it out), OPENAI_BASE_URL.
import http from 'node:http';
import path from 'node:path';

const { DATABASE_URL, DATA_DIR, OPENAI_BASE_URL } = process.env;

async function openQuery() {
  if (DATABASE_URL) {
    const { default: pg } = await import('pg');
    const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 10 });
    return async (text, params) => (await pool.query(text, params)).rows;
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { vector } = await import('@electric-sql/pglite-pgvector');
  const db = new PGlite(path.join(DATA_DIR, 'pgdata'), { extensions: { vector } });
  return async (text, params) => (await db.query(text, params)).rows;
}

const query = await openQuery();
const [{ max }] = await query('SELECT max(id) AS max FROM resource_chunks');
const providerAgent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
const provider = new URL(`${OPENAI_BASE_URL}/chat/completions`);

const event = (value) => `data: ${JSON.stringify(value)}\n\n`;

const sdkModel = process.env.BARE_PROVIDER === 'ai-sdk'
  ? (await import('@ai-sdk/openai')).createOpenAI({ apiKey: 'sk-bench', baseURL: OPENAI_BASE_URL }).chat('gpt-4o-mini')
  : undefined;

/** Streams the provider's deltas to `res` through the AI SDK; resolves when the provider's stream ended. */
async function forwardThroughSdk(model, prompt, res) {
  const controller = new AbortController();
  res.on('close', () => controller.abort());
  try {
    const { stream } = await model.doStream({ prompt: [{ role: 'system', content: prompt }], abortSignal: controller.signal });
    const reader = stream.getReader();
    for (let part = await reader.read(); !part.done; part = await reader.read()) {
      if (part.value.type === 'text-delta' && part.value.delta) res.write(event({ type: 'partialResponse', data: { text: part.value.delta } }));
    }
  } catch {
    // The visitor left, or the provider failed: the response ends either way.
  }
}

/** Streams the provider's deltas to `res`; resolves when the provider's response ended. */
function forward(prompt, res) {
  return new Promise((resolve) => {
    const req = http.request(provider, { method: 'POST', agent: providerAgent, headers: { 'content-type': 'application/json' } }, (answer) => {
      let buffered = '';
      answer.setEncoding('utf8');
      answer.on('data', (chunk) => {
        buffered += chunk;
        let end;
        while ((end = buffered.indexOf('\n\n')) >= 0) {
          const frame = buffered.slice(0, end);
          buffered = buffered.slice(end + 2);
          if (!frame.startsWith('data: ') || frame === 'data: [DONE]') continue;
          const text = JSON.parse(frame.slice(6)).choices?.[0]?.delta?.content;
          if (text) res.write(event({ type: 'partialResponse', data: { text } }));
        }
      });
      answer.on('end', resolve);
      answer.on('error', resolve);
    });
    req.on('error', resolve);
    res.on('close', () => req.destroy());
    req.end(JSON.stringify({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'system', content: prompt }] }));
  });
}

const server = http.createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/health') {
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
    return;
  }
  const parts = [];
  req.on('data', (chunk) => parts.push(chunk));
  req.on('end', async () => {
    const question = JSON.parse(Buffer.concat(parts).toString('utf8')).conversation.at(-1).text;
    const from = 1 + Math.floor(Math.random() * Math.max(1, Number(max) - 8));
    const rows = await query('SELECT content FROM resource_chunks WHERE id >= $1 ORDER BY id LIMIT 8', [from]);
    res.writeHead(201, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
    res.socket?.setNoDelay(true);
    const prompt = `${rows.map((row) => row.content).join('\n\n')}\n\nQuestion: ${question}`;
    await (sdkModel ? forwardThroughSdk(sdkModel, prompt, res) : forward(prompt, res));
    res.end(event({ type: 'streamEnd', data: {} }));
  });
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', 4096, () => {
  process.stdout.write(`listening at http://127.0.0.1:${server.address().port}\n`);
});
process.on('SIGTERM', () => process.exit(0));
