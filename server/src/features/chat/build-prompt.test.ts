import { describe, expect, it } from 'vitest';
import { buildPrompt, retrievalQuery, toOwnerAnswerPassage, toSourceLabel, type AnswerSettings } from './build-prompt.js';

const DEFAULTS: AnswerSettings = {
  personalityType: 'ASSISTANT', toneType: 'FRIENDLY', customSystemPrompt: null, restrictAnswersToResourcesContentResponse: null,
};
const PASSAGES = [{ content: 'Parcels ship within 2 days.', source: 'faq.txt' }, { content: 'Returns are free.', source: 'returns.pdf, page 4' }];
const ASK = [{ text: 'How fast do parcels ship?', fromUser: true }];

describe('buildPrompt', () => {
  it.each([
    ['COACH', 'HUMOROUS', /supportive coach[\s\S]*humorous tone/],
    ['ADVISOR', 'FORMAL', /trusted advisor[\s\S]*formal, professional tone/],
    ['EXPERT', 'FRIENDLY', /subject-matter expert[\s\S]*warm, friendly tone/],
    ['ASSISTANT', 'FRIENDLY', /helpful assistant[\s\S]*warm, friendly tone/],
  ] as const)('puts personality %s and tone %s into the system prompt', (personalityType, toneType, expected) => {
    expect(buildPrompt({ ...DEFAULTS, personalityType, toneType }, ASK, PASSAGES).system).toMatch(expected);
  });

  it('uses the custom system prompt instead of the built-in personality and tone when both are CUSTOM', () => {
    const { system } = buildPrompt({ ...DEFAULTS, personalityType: 'CUSTOM', toneType: 'CUSTOM', customSystemPrompt: 'Answer like a pirate.' }, ASK, PASSAGES);
    expect(system.startsWith('Answer like a pirate.')).toBe(true);
    expect(system).not.toMatch(/helpful assistant|friendly tone/);
  });

  it('numbers the context passages with their sources', () => {
    const { system, passages } = buildPrompt(DEFAULTS, ASK, PASSAGES);
    expect(system).toContain('[1] (source: faq.txt)\nParcels ship within 2 days.');
    expect(system).toContain('[2] (source: returns.pdf, page 4)\nReturns are free.');
    expect(passages).toEqual(PASSAGES);
  });

  it('tells the model to answer only from the context, and the exact fallback text, when restricted', () => {
    const restricted = buildPrompt({ ...DEFAULTS, restrictAnswersToResourcesContentResponse: 'Ask me about shipping.' }, ASK, PASSAGES);
    expect(restricted.system).toContain('Answer questions only from the context below');
    expect(restricted.system).toContain('When the context does not contain the answer, reply exactly: "Ask me about shipping."');
    // Conversation is never refused, restricted or not.
    expect(restricted.system).toContain('Greetings, thanks, goodbyes');
    expect(restricted.restrictResponse).toBe('Ask me about shipping.');
    const open = buildPrompt(DEFAULTS, ASK, PASSAGES);
    expect(open.system).not.toContain('only from the context');
    expect(open.restrictResponse).toBeUndefined();
  });

  it('tells the model to answer in the visitor\'s language from the passages, restricted or not, whatever their language', () => {
    for (const restrict of [null, 'Ask me about shipping.']) {
      const { system } = buildPrompt({ ...DEFAULTS, restrictAnswersToResourcesContentResponse: restrict }, [{ text: 'Livrez-vous en Belgique ?', fromUser: true }], PASSAGES);
      expect(system).toContain('Reply in the language of the visitor\'s message, even when the context is written in another: answer from the passages, translating what they say.');
    }
  });

  it('passes the conversation as user and assistant messages, starting with the user', () => {
    const prompt = buildPrompt(DEFAULTS, [
      { text: 'Welcome!', fromUser: false },
      { text: 'Hi', fromUser: true },
      { text: 'Hello, how can I help?', fromUser: false },
      { text: 'Shipping time?', fromUser: true },
    ], []);
    expect(prompt.messages).toEqual([
      { role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Hello, how can I help?' }, { role: 'user', content: 'Shipping time?' },
    ]);
    expect(prompt.question).toBe('Shipping time?');
    expect(prompt.system).toContain('Context: none was found');
  });

  it('keeps only the most recent 20 messages of a long conversation', () => {
    const conversation = Array.from({ length: 41 }, (_, i) => ({ text: `message ${i}`, fromUser: i % 2 === 0 }));
    const { messages } = buildPrompt(DEFAULTS, conversation, []);
    expect(messages.length).toBeLessThanOrEqual(20);
    expect(messages.at(-1)).toEqual({ role: 'user', content: 'message 40' });
  });
});

describe('toSourceLabel', () => {
  it('names the resource with its page, URL or video time', () => {
    expect(toSourceLabel({ fileName: 'manual.pdf', provenance: { page: 3 } })).toBe('manual.pdf, page 3');
    expect(toSourceLabel({ fileName: 'https://x.test', provenance: { url: 'https://x.test/a', title: 'Pricing' } })).toBe('Pricing, https://x.test/a');
    expect(toSourceLabel({ fileName: 'talk.mp4', provenance: { startSeconds: 3725 } })).toBe('talk.mp4, at 1:02:05');
    expect(toSourceLabel({ fileName: 'notes.txt', provenance: {} })).toBe('notes.txt');
  });
});

describe('retrievalQuery', () => {
  it('adds the previous question to a follow-up only, not to a short question of its own', () => {
    expect(retrievalQuery([{ text: 'What does express delivery cost?', fromUser: true }, { text: '9 euros', fromUser: false }, { text: 'And standard?', fromUser: true }]))
      .toBe('What does express delivery cost? And standard?');
    expect(retrievalQuery([{ text: 'Old', fromUser: true }, { text: 'How long do returns stay free for customers?', fromUser: true }]))
      .toBe('How long do returns stay free for customers?');
    expect(retrievalQuery([{ text: 'Can I bring my dog?', fromUser: true }, { text: 'Dogs are welcome.', fromUser: false }, { text: 'What time is check-out?', fromUser: true }]))
      .toBe('What time is check-out?');
  });

  it('searches for the regions of the places a question names', () => {
    expect(retrievalQuery([{ text: 'Do you deliver mugs to Germany?', fromUser: true }])).toBe('Do you deliver mugs to Germany? eu europe european union');
  });
});

describe('toOwnerAnswerPassage', () => {
  const match = {
    pair: { id: 'c'.repeat(24), resourceId: 'd'.repeat(24), resourceName: 'Visitor questions', questions: ['Is there a lift?', 'Step-free access?'], answer: 'Yes, a lift by the side door.' },
    question: 'Step-free access?', score: 0.8,
  };

  it('makes the saved answer a passage citing its pair under its first question', () => {
    expect(toOwnerAnswerPassage(match)).toEqual({
      content: 'Yes, a lift by the side door.', ownerAnswer: true,
      source: 'Visitor questions › Is there a lift? (the owner\'s saved answer)',
      citation: { resourceId: 'd'.repeat(24), title: 'Visitor questions', section: 'Is there a lift?', pairId: 'c'.repeat(24) },
    });
  });

  it('tells a provider model to answer with it when it comes first, and only then', () => {
    const owner = toOwnerAnswerPassage(match);
    const { system } = buildPrompt({ ...DEFAULTS, restrictAnswersToResourcesContentResponse: 'Only about the shop.' }, ASK, [owner, ...PASSAGES]);
    expect(system).toContain('Passage [1] is the owner\'s own answer to this question: answer with it');
    expect(system).toContain('[1] (source: Visitor questions › Is there a lift? (the owner\'s saved answer))\nYes, a lift by the side door.');
    expect(buildPrompt(DEFAULTS, ASK, PASSAGES).system).not.toContain('owner\'s own answer');
  });
});
