import { ChatResponseSchema, decodeEvents, type StreamingEvent } from '@parley/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/test-app.js';
import { makePdf } from '../resources/ingestion/fixtures/make-pdf.js';
import { createResource, waitForProcessing } from '../resources/resources.test-support.js';
import { joinDeltas, postEventStream, SHOP_FAQ, SHOP_RESTRICT, SHOP_SITE } from './chat-test-fixtures.js';

/**
 * Answers of the local engine (no provider is configured) through every chat entry point, on
 * resources ingested through the readers: conversational turns under the restrict rule, and
 * structured sources (a Markdown section, a PDF page) beside the text.
 */
let ctx: TestContext;
let faqId: string;
let guideId: string;
let restricted: string;
let open: string;

const RESTRICT = SHOP_RESTRICT;
const SITE = SHOP_SITE;
const FAQ = SHOP_FAQ;
const GUIDE = [
  'Candle care guide. Trim the wick to 5 mm before every burn, so the flame stays small and clean.',
  'Safety. Never leave a burning candle unattended, and keep candles away from curtains, draughts and pets.',
];
const ask = (text: string) => [{ text, fromUser: true }];

beforeAll(async () => {
  ctx = await createTestContext({ env: { RESOURCE_CREATION_RATE_LIMIT: '1000' } });
  ctx.startJobs();
  faqId = (await createResource(ctx.api, 'text', { name: 'Shop FAQ', content: FAQ })).id;
  const upload = await ctx.api.post('/v1/resource/file').attach('file', makePdf(GUIDE), 'care-guide.pdf');
  expect(upload.status, JSON.stringify(upload.body)).toBe(201);
  guideId = upload.body.id;
  for (const id of [faqId, guideId]) expect((await waitForProcessing(ctx.api, id)).aiProcessingStatus).toBe('DONE');
  const create = async (body: Record<string, unknown>) => {
    const res = await ctx.api.post('/v1/chatbot').send({ name: 'Willow & Wick', resourceIds: [faqId, guideId], ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.id as string;
  };
  restricted = await create({ restrictAnswersToResourcesContentResponse: RESTRICT });
  open = await create({});
});
afterAll(async () => { await ctx?.close(); });

const plain = async (chatbotId: string, question: string) => {
  const res = await ctx.api.post('/v1/chatbot/chat').send({ chatbotId, conversation: ask(question) });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return ChatResponseSchema.parse(res.body);
};
const streamed = async (chatbotId: string, question: string) => {
  const result = await postEventStream(`${ctx.url}/v1/chatbot/chat-stream`, ctx.org.apiKey, { chatbotId, conversation: ask(question) });
  expect(result.status).toBe(201);
  return result.events;
};
/** The public embed API's stream, as the widget on the owner's site calls it. */
const embedded = async (chatbotId: string, question: string) => {
  const res = await ctx.anonymous.post(`/v1/embed/${chatbotId}/chat-stream`).set('Origin', SITE).send({ conversation: ask(question) });
  expect(res.status, res.text).toBe(201);
  return decodeEvents(res.text);
};
const endData = (events: readonly StreamingEvent[]) => {
  const end = events.at(-1);
  expect(end?.type).toBe('streamEnd');
  return end?.type === 'streamEnd' ? end.data : undefined;
};

describe('conversational turns under the restrict rule', () => {
  it.each(['Hello', 'thank you', 'ok', 'connect me to a human please'])('answers "%s" as conversation, never with the restrict text', async (message) => {
    const res = await plain(restricted, message);
    expect(res.text.trim()).not.toBe('');
    expect(res.text).not.toContain(RESTRICT);
    expect(res.refused).toBeUndefined();
    // Conversation is not searched, so nothing is cited.
    expect(res.sources).toEqual([]);
    expect(res.handoff).toBe(message === 'connect me to a human please' ? true : undefined);
  });

  it('flags a request for a person in the stream\'s streamEnd, on the API and on the embed API', async () => {
    for (const events of [await streamed(restricted, 'connect me to a human please'), await embedded(restricted, 'connect me to a human please')]) {
      expect(joinDeltas(events)).not.toContain(RESTRICT);
      expect(endData(events)).toEqual({ sources: [], handoff: true });
    }
    expect(endData(await streamed(restricted, 'thank you'))).toEqual({ sources: [] });
  });

  it('still refuses a question the resources hold nothing about', async () => {
    const question = 'Which vaccines does a kitten need?';
    expect(await ctx.services.resources.retrieve(ctx.org.organisationId, [faqId, guideId], question, 5)).toEqual([]);
    expect(await plain(restricted, question)).toEqual({ text: RESTRICT, sources: [], refused: true });
    const events = await embedded(restricted, question);
    expect(events).toEqual([{ type: 'partialResponse', data: { text: RESTRICT } }, { type: 'streamEnd', data: { sources: [], refused: true } }]);
  });
});

describe('structured sources beside the text', () => {
  it('cites a Markdown text resource by its section, in plain, streamed and embed answers alike', async () => {
    const question = 'How long do refunds take to reach my card?';
    const answer = await plain(open, question);
    expect(answer.text).toContain('Refunds are paid to the original card within 5 days');
    // The text is the answer only: no "Source:" line, no heading markup.
    expect(answer.text).not.toMatch(/Source:|#/);
    // The whole FAQ is one chunk starting under "Delivery"; the source names the quoted sentence's own section.
    expect(answer.sources).toEqual([{ resourceId: faqId, title: 'Shop FAQ', section: 'FAQ › Returns', snippet: expect.stringContaining('Refunds are paid') }]);
    expect(answer.sources![0]!.snippet).not.toContain('#');
    expect(answer.refused).toBeUndefined();
    for (const events of [await streamed(open, question), await embedded(open, question)]) {
      expect(joinDeltas(events)).toBe(answer.text);
      expect(endData(events)).toEqual({ sources: answer.sources });
    }
  });

  it('cites a PDF by the page the answer came from', async () => {
    const question = 'Can I leave a burning candle unattended?';
    const answer = await plain(restricted, question);
    expect(answer.text).toContain('Never leave a burning candle unattended');
    expect(answer.text).not.toContain('Source:');
    expect(answer.sources).toEqual([{ resourceId: guideId, title: 'care-guide.pdf', page: 2, snippet: expect.stringContaining('Never leave a burning candle unattended') }]);
    const events = await embedded(restricted, question);
    expect(joinDeltas(events)).toBe(answer.text);
    expect(endData(events)).toEqual({ sources: answer.sources });
  });
});
