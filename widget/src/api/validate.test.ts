import { expect } from '@open-wc/testing';
import {
  EmbedConfigSchema, EmbedConversationSchema, EmbedSessionSchema, ErrorBodySchema, FeedbackSchema, LeadSchema, StreamingEventSchema,
} from '@parley/shared';
import type { z } from 'zod';
import {
  parseEmbedConfig, parseEmbedConversation, parseEmbedSession, parseErrorBody, parseFeedback, parseLead, parseStreamingEvent,
} from './validate.js';

const ID = 'aaaaaaaaaaaaaaaaaaaaaaaa';
const config = {
  id: ID, name: 'Bot', welcomeMessage: 'Hi', accessLevel: 'PUBLIC', chatbotMessageColor: '#fff', userMessageColor: '#E0EEFA',
  conversationBackgroundColor: '#FFFFFF', secondaryBackgroundColor: '#F6F7F8', showBadge: false, enabledEmoji: true,
  bubbleAlignment: 'left', bubblePopupMessages: ['Hello'],
};
const source = { resourceId: ID, title: 'Guide', section: 'FAQ › Returns', page: 3, url: 'https://shop.example/guide.pdf', timestampSec: 134.5, snippet: 'We ship' };
const conversation = {
  id: ID, chatbot: ID, createdAt: 1, messages: [{ text: 'a', fromUser: true }], source: { type: 'website', pageInfo: { pageId: 'p' } }, visitorToken: 't',
};

/** Each check of the widget beside the shared zod schema it must agree with, and answers the server gives. */
const CONTRACTS: { name: string; schema: z.ZodType; parse: (value: unknown) => unknown; answers: unknown[] }[] = [
  {
    name: 'EmbedConfigSchema', schema: EmbedConfigSchema, parse: parseEmbedConfig,
    answers: [config, { ...config, gradientColors: ['#111', '#222', '#333', '#444'], avatarUrl: '/a.png', locale: 'he', suggestedQuestions: ['Hours?'], leadOfferAfterTurns: 3 }],
  },
  { name: 'EmbedSessionSchema', schema: EmbedSessionSchema, parse: parseEmbedSession, answers: [{ token: 'tok', expiresAt: 1_800_000_000_000 }] },
  { name: 'EmbedConversationSchema', schema: EmbedConversationSchema, parse: parseEmbedConversation, answers: [conversation] },
  { name: 'LeadSchema', schema: LeadSchema, parse: parseLead, answers: [{ createdAt: 1, email: 'a@b.example', conversationId: ID, pageUrl: 'https://shop.example/' }] },
  {
    name: 'FeedbackSchema', schema: FeedbackSchema, parse: parseFeedback,
    answers: [{ conversationId: ID, messageIndex: 1, rating: 'down', comment: 'Wrong', answer: 'No', createdAt: 1 }],
  },
  {
    name: 'StreamingEventSchema', schema: StreamingEventSchema, parse: parseStreamingEvent,
    answers: [{ type: 'partialResponse', data: { text: 'Hel' } }, { type: 'streamEnd' }, { type: 'streamEnd', data: { sources: [source], refused: false, handoff: true } },
      { type: 'error', statusCode: 502, message: 'The model provider failed', error: 'Bad Gateway' }],
  },
  { name: 'ErrorBodySchema', schema: ErrorBodySchema, parse: parseErrorBody, answers: [{ statusCode: 409, message: ['in use'], error: 'Conflict', chatbots: [ID] }] },
];

/** Values of every kind a broken or hostile server could put in a field. */
const ODD_VALUES: unknown[] = [
  null, true, 0, -1, 1.5, 2 ** 53, '', 'x', '#fff', '#ggg', ID, ID.toUpperCase(), 'PUBLIC', 'streamEnd', 'x'.repeat(32_001),
  [], ['#111', '#222', '#333', '#444'], [{ text: 'a', fromUser: true }], {}, { text: 'a', fromUser: true },
];

/** Every value one edit away from `value`, at any depth: a property or item removed, replaced by an odd value, or an unknown key added. */
function mutantsOf(value: unknown): unknown[] {
  if (Array.isArray(value)) {
    return value.flatMap((item, i) => [value.filter((_, j) => j !== i), ...[...ODD_VALUES, ...mutantsOf(item)]
      .map((other) => value.map((each, j) => (j === i ? other : each)))]);
  }
  if (typeof value !== 'object' || value === null) return [];
  const record = value as Record<string, unknown>;
  return [{ ...record, unknownKey: 1 }, ...Object.keys(record).flatMap((key) => {
    const { [key]: _dropped, ...rest } = record;
    return [rest, ...[...ODD_VALUES, ...mutantsOf(record[key])].map((other) => ({ ...record, [key]: other }))];
  })];
}

describe('the checks of server answers', () => {
  it('accept and refuse exactly what the shared zod schemas accept and refuse, one edit away from real answers', () => {
    for (const { name, schema, parse, answers } of CONTRACTS) {
      const verdicts = { accepted: 0, refused: 0 };
      for (const value of [...answers, ...answers.flatMap(mutantsOf), ...ODD_VALUES]) {
        const expected = schema.safeParse(value).success;
        expect(parse(value) !== undefined, `${name}: ${JSON.stringify(value).slice(0, 300)}`).to.equal(expected);
        verdicts[expected ? 'accepted' : 'refused']++;
      }
      // Both verdicts occur, so the comparison means something for every schema.
      expect(verdicts.accepted, name).to.be.greaterThan(answers.length - 1);
      expect(verdicts.refused, name).to.be.greaterThan(10);
    }
  });

  it('refuse what the hand-written copy of the schemas used to let through', () => {
    // Messages are strict objects, PDF pages count from 1, a 409's chatbots are ids.
    expect(parseEmbedConversation({ ...conversation, messages: [{ text: 'a', fromUser: true, html: '<b>' }] })).to.equal(undefined);
    expect(parseStreamingEvent({ type: 'streamEnd', data: { sources: [{ ...source, page: 0 }] } })).to.equal(undefined);
    expect(parseErrorBody({ statusCode: 409, message: ['in use'], error: 'Conflict', chatbots: ['x'] })).to.equal(undefined);
    expect(parseFeedback({ conversationId: ID, messageIndex: 1, rating: 'up', answer: 7, createdAt: 1 })).to.equal(undefined);
  });

  it('return the answer itself, unknown keys of open objects kept', () => {
    const answer = { ...config, future: true };
    expect(parseEmbedConfig(answer)).to.equal(answer);
  });
});
