import { expect } from '@open-wc/testing';
import { EmbedClient } from './embed-client.js';
import type { EmbedError } from './embed-error.js';

const ID = 'aaaaaaaaaaaaaaaaaaaaaaaa';
const realFetch = window.fetch;
let requests: { url: string; init?: RequestInit }[] = [];

/** Answers every fetch with `respond()` (the network edge; the client code runs for real). */
function serve(respond: () => Response): void {
  requests = [];
  window.fetch = async (input, init) => {
    requests.push({ url: String(input), init });
    return respond();
  };
}

const sse = (frames: string[], status = 201) => new Response(frames.join(''), { status, headers: { 'content-type': 'text/event-stream' } });
const frame = (event: unknown) => `data: ${JSON.stringify(event)}\n\n`;

async function streamError(client: EmbedClient): Promise<EmbedError> {
  try {
    await client.streamChat([{ text: 'Hi', fromUser: true }], () => {}, new AbortController().signal);
  } catch (err) {
    return err as EmbedError;
  }
  throw new Error('the stream did not fail');
}

describe('EmbedClient', () => {
  afterEach(() => { window.fetch = realFetch; });

  it('streams deltas in order and sends the session token', async () => {
    serve(() => sse([frame({ type: 'partialResponse', data: { text: 'Hel' } }), frame({ type: 'partialResponse', data: { text: 'lo' } }),
      ': heartbeat\n\n', frame({ type: 'streamEnd', data: { sources: [{ resourceId: ID, title: 'Guide', page: 2, snippet: 'Hello' }], handoff: true } })]));
    const client = new EmbedClient('https://svc.example', ID);
    client.token = 'tok';
    const deltas: string[] = [];
    const meta = await client.streamChat([{ text: 'Hi', fromUser: true }], (d) => deltas.push(d), new AbortController().signal);
    expect(deltas).to.deep.equal(['Hel', 'lo']);
    expect(meta).to.deep.equal({ sources: [{ resourceId: ID, title: 'Guide', page: 2, snippet: 'Hello' }], handoff: true });
    expect(requests[0]!.url).to.equal(`https://svc.example/v1/embed/${ID}/chat-stream`);
    expect((requests[0]!.init!.headers as Record<string, string>).authorization).to.equal('Bearer tok');
    expect(JSON.parse(String(requests[0]!.init!.body))).to.deep.equal({ conversation: [{ text: 'Hi', fromUser: true }] });
  });

  it('sends the saved conversation\'s id and visitor token with a question when it has them', async () => {
    serve(() => sse([frame({ type: 'streamEnd', data: {} })]));
    const client = new EmbedClient('https://svc.example', ID);
    await client.streamChat([{ text: 'Hi', fromUser: true }], () => {}, new AbortController().signal, { conversationId: ID, visitorToken: 'vt' });
    expect(JSON.parse(String(requests[0]!.init!.body))).to.deep.equal({ conversation: [{ text: 'Hi', fromUser: true }], conversationId: ID, visitorToken: 'vt' });
  });

  it('turns an error event, a JSON error answer, a bad event and a cut-off stream into EmbedErrors', async () => {
    const client = new EmbedClient('https://svc.example', ID);
    serve(() => sse([frame({ type: 'partialResponse', data: { text: 'a' } }), frame({ type: 'error', statusCode: 500, message: 'boom', error: 'Internal Server Error' })]));
    expect((await streamError(client)).status).to.equal(500);
    serve(() => new Response(JSON.stringify({ statusCode: 402, message: ['monthly messages spent'], error: 'Payment Required' }),
      { status: 402, headers: { 'content-type': 'application/json' } }));
    const spent = await streamError(client);
    expect([spent.status, spent.messages]).to.deep.equal([402, ['monthly messages spent']]);
    serve(() => sse([frame({ type: 'partialResponse', data: { text: 42 } })]));
    expect((await streamError(client)).status).to.equal(-1);
    // Breaks StreamingEventSchema only where the shared schema says so: PDF pages count from 1.
    serve(() => sse([frame({ type: 'streamEnd', data: { sources: [{ resourceId: ID, title: 'Guide', page: 0, snippet: 'Hello' }] } })]));
    expect((await streamError(client)).status).to.equal(-1);
    serve(() => sse([frame({ type: 'partialResponse', data: { text: 'a' } })]));
    expect((await streamError(client)).status).to.equal(0);
    expect(requests).to.have.length(1);
  });

  it('loads the avatar from the origin it talks to, whatever host the server named', async () => {
    const config = {
      id: ID, name: 'Bot', welcomeMessage: 'Hi', accessLevel: 'PUBLIC', chatbotMessageColor: '#fff', userMessageColor: '#E0EEFA',
      conversationBackgroundColor: '#FFFFFF', secondaryBackgroundColor: '#F6F7F8', showBadge: false, enabledEmoji: false,
      bubbleAlignment: 'right', bubblePopupMessages: [], avatarUrl: `http://localhost:3000/v1/embed/${ID}/avatar?v=5`,
    };
    serve(() => new Response(JSON.stringify(config), { status: 200, headers: { 'content-type': 'application/json' } }));
    const loaded = await new EmbedClient('https://chat.example.net', ID).getConfig();
    expect(loaded.avatarUrl).to.equal(`https://chat.example.net/v1/embed/${ID}/avatar?v=5`);
  });

  it('rejects a config answer that does not have the config\'s shape', async () => {
    serve(() => new Response(JSON.stringify({ id: ID, name: 'x' }), { status: 200, headers: { 'content-type': 'application/json' } }));
    try {
      await new EmbedClient('https://svc.example', ID).getConfig();
      throw new Error('accepted');
    } catch (err) {
      expect((err as EmbedError).status).to.equal(-1);
    }
  });
});
