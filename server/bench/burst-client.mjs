// A burst's clients in a process of their own, so their work is not counted as the service's:
// reads {url, apiKey, chatbotId, questions} as JSON on stdin, POSTs every question to
// /v1/chatbot/chat-stream at once, and writes one JSON array of {status, firstEventMs, ok} to
// stdout: the time to the first complete SSE event (a `data:` frame), and whether the stream ended
// with `streamEnd` on a 201. Plain Node.js, no packages.
import http from 'node:http';
import { performance } from 'node:perf_hooks';

const input = JSON.parse(await new Promise((resolve) => {
  let text = '';
  process.stdin.setEncoding('utf8').on('data', (chunk) => { text += chunk; }).on('end', () => resolve(text));
}));
const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });

function ask(question) {
  return new Promise((resolve) => {
    const started = performance.now();
    let firstEventMs = Number.NaN;
    let body = '';
    const req = http.request(`${input.url}/v1/chatbot/chat-stream`, {
      method: 'POST', agent, headers: { 'content-type': 'application/json', 'x-api-key': input.apiKey },
    }, (res) => {
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        body += chunk;
        if (Number.isNaN(firstEventMs) && /(^|\n)data:[^\n]*\n\n/.test(body)) firstEventMs = performance.now() - started;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, firstEventMs, ok: res.statusCode === 201 && body.includes('"streamEnd"') }));
      res.on('error', () => resolve({ status: 0, firstEventMs, ok: false }));
    });
    req.on('error', () => resolve({ status: 0, firstEventMs, ok: false }));
    req.end(JSON.stringify({ chatbotId: input.chatbotId, conversation: [{ text: question, fromUser: true }] }));
  });
}

process.stdout.write(JSON.stringify(await Promise.all(input.questions.map(ask))));
