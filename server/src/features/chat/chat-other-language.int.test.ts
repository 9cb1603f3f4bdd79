import { ChatResponseSchema, decodeEvents } from '@parley/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/test-app.js';
import { createResource, waitForProcessing } from '../resources/resources.test-support.js';

/**
 * Visitors writing in another language than the knowledge (issue 33, item 6): the local engine
 * tells them in their language what it answers in, with the contact offer, instead of the English
 * restrict text, and the answer still counts as refused. A visitor in the knowledge's language
 * keeps the owner's restrict text, word for word.
 */
let ctx: TestContext;
let restricted: string;
let open: string;
let french: string;
let empty: string;

const RESTRICT = 'I can only help with questions about the island ferry.';
const FERRY = [
  'Island ferry timetable. The ferry leaves the harbour every hour from 7am to 7pm, all year round.',
  'Bicycles travel free on the lower deck; tell the crew when you board. Dogs on a lead are welcome on the open deck.',
  'Tickets cost £6 for adults and £3 for children, bought on board or at the kiosk by the pier.',
].join('\n\n');
const BAC = 'Le bac de l\'île part du port toutes les heures de 7 h à 19 h. Les vélos voyagent gratuitement sur le pont inférieur.';

beforeAll(async () => {
  ctx = await createTestContext({ env: { RESOURCE_CREATION_RATE_LIMIT: '1000' } });
  ctx.startJobs();
  const ferry = (await createResource(ctx.api, 'text', { name: 'Ferry guide', content: FERRY })).id;
  const bac = (await createResource(ctx.api, 'text', { name: 'Guide du bac', content: BAC })).id;
  for (const id of [ferry, bac]) expect((await waitForProcessing(ctx.api, id)).aiProcessingStatus).toBe('DONE');
  const create = async (body: Record<string, unknown>) => {
    const res = await ctx.api.post('/v1/chatbot').send({ name: 'Island ferry', ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.id as string;
  };
  restricted = await create({ resourceIds: [ferry], restrictAnswersToResourcesContentResponse: RESTRICT });
  open = await create({ resourceIds: [ferry] });
  french = await create({ resourceIds: [ferry, bac], restrictAnswersToResourcesContentResponse: RESTRICT });
  empty = await create({ resourceIds: [], restrictAnswersToResourcesContentResponse: RESTRICT });
});
afterAll(async () => { await ctx?.close(); });

const chat = async (chatbotId: string, text: string) => {
  const res = await ctx.api.post('/v1/chatbot/chat').send({ chatbotId, conversation: [{ text, fromUser: true }] });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return ChatResponseSchema.parse(res.body);
};

describe('a visitor writing in another language than the knowledge', () => {
  it.each([
    ['fr', 'Quel temps fera-t-il demain à Marseille ?', /^Je ne peux répondre qu'à partir d'informations en anglais\./],
    ['de', 'Wer hat die Fußballweltmeisterschaft 2014 gewonnen?', /^Ich kann nur anhand von Informationen auf Englisch antworten\./],
    ['es', '¿Cuál es la capital de Australia?', /^Solo puedo responder con información en inglés\./],
    ['it', 'Qual è la ricetta della pizza napoletana?', /^Posso rispondere solo in base a informazioni in inglese\./],
  ])('is told in %s what a restricted chatbot answers in, and the answer is refused', async (_language, question, notice) => {
    const answer = await chat(restricted, question);
    expect(answer.text).toMatch(notice);
    expect(answer).toMatchObject({ sources: [], refused: true });
  });

  it('gets the same notice in the stream of the public embed API', async () => {
    const res = await ctx.anonymous.post(`/v1/embed/${restricted}/chat-stream`).set('Origin', 'https://ferry.example')
      .send({ conversation: [{ text: 'Quel temps fera-t-il demain à Marseille ?', fromUser: true }] });
    expect(res.status, res.text).toBe(201);
    const events = decodeEvents(res.text);
    const text = events.flatMap((event) => (event.type === 'partialResponse' ? [event.data.text] : [])).join('');
    expect(text).toMatch(/^Je ne peux répondre/);
    expect(events.at(-1)).toEqual({ type: 'streamEnd', data: { sources: [], refused: true } });
  });

  it('is told so by an unrestricted chatbot that finds nothing, without a refusal', async () => {
    // "ferry" finds the English passages, which hold nothing about scooters.
    const answer = await chat(open, 'Le ferry accepte-t-il les trottinettes électriques ?');
    expect(answer.text).toMatch(/^Je ne peux répondre qu'à partir d'informations en anglais\./);
    expect(answer.refused).toBeUndefined();
  });

  it('keeps the owner\'s restrict text, word for word, for a visitor writing in the knowledge\'s language', async () => {
    expect(await chat(restricted, 'What will the weather be like in Marseille tomorrow?')).toEqual({ text: RESTRICT, sources: [], refused: true });
  });

  it('reads the knowledge\'s language from the restrict text when nothing was retrieved', async () => {
    const answer = await chat(empty, 'Avete un parcheggio per le biciclette?');
    expect(answer.text).toMatch(/^Posso rispondere solo in base a informazioni in inglese\./);
    expect(answer).toMatchObject({ sources: [], refused: true });
    expect(await chat(empty, 'Is there somewhere to leave my bike?')).toEqual({ text: RESTRICT, sources: [], refused: true });
  });

  it('keeps the restrict text when the knowledge has a section in the visitor\'s language', async () => {
    const answer = await chat(french, 'Quel temps fera-t-il demain à Marseille ?');
    expect(answer).toEqual({ text: RESTRICT, sources: [], refused: true });
  });
});
