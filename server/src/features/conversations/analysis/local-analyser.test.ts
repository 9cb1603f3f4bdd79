import { describe, expect, it } from 'vitest';
import { classifyIntent } from './intent.js';
import { analyseLocally } from './local-analyser.js';
import { classifySentiment } from './sentiment.js';
import { clip, isQuestion, isQuestionOrRequest, splitSentences } from './text-features.js';
import { findUnansweredQuestions, isNonAnswer } from './unanswered-questions.js';

describe('text features', () => {
  it('splits sentences at punctuation and line breaks, keeping e-mail addresses whole', () => {
    expect(splitSentences('Hi there! Where is it?\nThanks... ok\nmy email is jo@shop.test. Bye')).toEqual(['Hi there!', 'Where is it?', 'Thanks... ok', 'my email is jo@shop.test.', 'Bye']);
  });

  it('tells questions from requests and statements', () => {
    expect(isQuestion('How much does it cost')).toBe(true);
    expect(isQuestion('It is red?')).toBe(true);
    expect(isQuestion('I want a refund.')).toBe(false);
    expect(isQuestionOrRequest('I want a refund.')).toBe(true);
    expect(isQuestionOrRequest('The weather is nice.')).toBe(false);
  });

  it('clips at a word boundary', () => {
    expect(clip('one two three four', 10)).toBe('one two…');
    expect(clip('  short  text ', 20)).toBe('short text');
  });
});

describe('classifySentiment', () => {
  it.each([
    [['This is great, thanks a lot!'], 'positive'],
    [['The app is broken and I am frustrated.'], 'negative'],
    [['It is not good at all.'], 'negative'],
    [['I am not disappointed.'], 'positive'],
    [['Where is the shop?'], 'neutral'],
    [['Great product, love it.', 'But delivery was terrible and slow.'], 'mixed'],
  ] as const)('labels %j as %s', (texts, label) => {
    expect(classifySentiment(texts)).toBe(label);
  });
});

describe('classifyIntent', () => {
  it.each([
    [['How much does the pro plan cost?'], 'pricing'],
    [['I want to buy two and place an order.'], 'purchase'],
    [['The export fails with an error.'], 'support'],
    [['This is unacceptable, I want a refund.'], 'complaint'],
    [['Please let me chat with someone from the team'], 'handoff'],
    [['Do you ship to Germany? How long does delivery take?'], 'shipping'],
    [['Can we become a stockist? Do you do wholesale?'], 'wholesale'],
    [['Please call me back on 01632 960 123'], 'contact_request'],
    [['I forgot my password.'], 'account'],
    [['Where is your office?'], 'information'],
    [['Thanks, very helpful.'], 'feedback'],
    [['Hello there'], 'greeting'],
    [[], 'other'],
  ] as const)('labels %j as %s', (texts, label) => {
    expect(classifyIntent(texts, texts.flatMap(splitSentences).filter(isQuestionOrRequest))).toBe(label);
  });
});

describe('isNonAnswer and findUnansweredQuestions', () => {
  it('recognises the restrict text (whitespace and case aside) and refusals', () => {
    expect(isNonAnswer('  sorry,   ONLY shop questions. ', 'Sorry, only shop questions.')).toBe(true);
    expect(isNonAnswer('I don\'t have any information about that.', null)).toBe(true);
    expect(isNonAnswer('I could not find that in the documents.', null)).toBe(true);
    expect(isNonAnswer('We open at 9am.', 'Sorry, only shop questions.')).toBe(false);
  });

  it('checks retrieval only for questions, and reports each question once', async () => {
    const asked: string[] = [];
    const unanswered = await findUnansweredQuestions([
      { text: 'Nice to meet you.', fromUser: true },
      { text: 'What is the warranty?', fromUser: true },
      { text: 'Two years.', fromUser: false },
      { text: 'Do you ship to Mars?', fromUser: true },
      { text: 'Two years.', fromUser: false },
      { text: 'Do you ship to Mars?', fromUser: true },
    ], { restrictText: null, countRelevant: async (question) => { asked.push(question); return question.includes('Mars') ? 0 : 3; } });
    expect(unanswered).toEqual(['Do you ship to Mars?']);
    expect(asked).toEqual(['What is the warranty?', 'Do you ship to Mars?']);
  });

  it('relies on the replies alone when the chatbot has no resources', async () => {
    expect(await findUnansweredQuestions([
      { text: 'What is the warranty?', fromUser: true }, { text: 'Two years.', fromUser: false },
      { text: 'Do you ship to Mars?', fromUser: true }, { text: 'I\'m not sure about that.', fromUser: false },
    ], { restrictText: null })).toEqual(['Do you ship to Mars?']);
  });
});

describe('analyseLocally', () => {
  it('summarises extractively from the conversation\'s own sentences', () => {
    const result = analyseLocally([
      { text: 'Hello. My laptop battery drains fast. How can I make the battery last longer?', fromUser: true },
      { text: 'Lower the screen brightness and close background apps to save battery. You can also enable battery saver.', fromUser: false },
    ], [], []);
    expect(result.summary).toMatch(/^The visitor asked: ".*battery.*" The chatbot replied: ".*battery.*"$/);
    for (const point of result.extractedData.keyPoints) expect(point).toMatch(/^(Visitor|Chatbot): /);
    expect(result.extractedData.keyPoints.length).toBeLessThanOrEqual(5);
    expect(result.extractedData.intentClassification).toBe('information');
    expect(result.customExtractedData).toEqual({});
  });

  it('leaves the local engine\'s citation line out of the key points', () => {
    const result = analyseLocally([
      { text: 'Do you ship for free?', fromUser: true },
      { text: 'Orders above 50 euros ship free.\n\nSource: Shop facts', fromUser: false },
    ], [], []);
    expect(result.extractedData.keyPoints).toEqual(['Visitor: Do you ship for free?', 'Chatbot: Orders above 50 euros ship free.']);
  });

  it('turns what it found into next steps', () => {
    const result = analyseLocally([{ text: 'How much is the pro plan? Call me on +1 415 555 0100.', fromUser: true }], [], ['Is there a student discount?']);
    expect(result.extractedData.nextSteps).toEqual([
      'Contact the visitor at +1 415 555 0100.',
      'Send the visitor pricing details.',
      'Add content to the chatbot\'s resources that answers: "Is there a student discount?"',
    ]);
  });
});
