import type { AnalysisResult, ChatMessage } from '@parley/shared';
import type { AnalysisCustomField } from '../../../config.js';
import { extractCustomFields } from './custom-fields.js';
import { classifyIntent, type IntentLabel } from './intent.js';
import { classifySentiment, type SentimentLabel } from './sentiment.js';
import { clip, contentWords, isQuestionOrRequest, splitSentences, termFrequencies } from './text-features.js';
import { CONTACT_PATTERNS } from './contact-patterns.js';
import { isNonAnswer } from './unanswered-questions.js';

interface Sentence { text: string; fromUser: boolean; position: number; score: number }

const SUMMARY_SENTENCE_CHARS = 240;
const KEY_POINT_CHARS = 200;
const MAX_KEY_POINTS = 5;
/** The citation line the local engine ends its answers with; it carries no content of its own. */
const CITATION_LINE = /^Sources?: /;

/** Every sentence, scored by how central its words are to the whole conversation. */
function scoreSentences(messages: readonly ChatMessage[], restrictText: string | null): Sentence[] {
  // Refusals and "not found" replies are boilerplate: they say nothing about the conversation.
  const useful = messages.filter((message) => message.fromUser || !isNonAnswer(message.text, restrictText));
  const frequencies = termFrequencies(useful.map((message) => message.text));
  const sentences: Sentence[] = [];
  for (const message of useful) {
    for (const text of splitSentences(message.text)) {
      if (!message.fromUser && CITATION_LINE.test(text)) continue;
      const words = contentWords(text);
      // Square-root length normalisation: favours informative sentences without favouring long ones.
      const score = words.length === 0 ? 0 : words.reduce((sum, word) => sum + (frequencies.get(word) ?? 0), 0) / Math.sqrt(words.length);
      sentences.push({ text, fromUser: message.fromUser, position: sentences.length, score });
    }
  }
  return sentences;
}

function best(sentences: readonly Sentence[], count: number): Sentence[] {
  return [...sentences].sort((a, b) => b.score - a.score || a.position - b.position).slice(0, count)
    .sort((a, b) => a.position - b.position);
}

/** An extractive summary: the visitor's most central sentences, then the chatbot's. */
function summarise(sentences: readonly Sentence[], questions: readonly string[]): string {
  const visitor = sentences.filter((sentence) => sentence.fromUser);
  const chatbot = sentences.filter((sentence) => !sentence.fromUser);
  if (visitor.length === 0 && chatbot.length === 0) return 'The conversation has no messages.';
  const parts: string[] = [];
  if (visitor.length > 0) {
    const verb = questions.length > 0 ? 'asked' : 'wrote';
    parts.push(`The visitor ${verb}: "${best(visitor, 2).map((s) => clip(s.text, SUMMARY_SENTENCE_CHARS)).join(' ')}"`);
  }
  if (chatbot.length > 0) {
    parts.push(`The chatbot ${visitor.length > 0 ? 'replied' : 'wrote'}: "${best(chatbot, 1).map((s) => clip(s.text, SUMMARY_SENTENCE_CHARS)).join(' ')}"`);
  }
  return parts.join(' ');
}

const INTENT_STEPS: Partial<Record<IntentLabel, string>> = {
  pricing: 'Send the visitor pricing details.',
  purchase: 'Follow up on the visitor\'s interest in buying.',
  support: 'Check that the visitor\'s problem is resolved.',
  complaint: 'Review the complaint and reply to the visitor.',
  contact_request: 'Have a person contact the visitor, as they asked.',
  handoff: 'The visitor asked for a person: have someone from the team follow up.',
  shipping: 'Check the visitor\'s delivery question was answered (destinations, times, costs).',
  wholesale: 'Pass the visitor to whoever handles trade and partnership enquiries.',
};

function nextSteps(visitorText: string, intent: IntentLabel, sentiment: SentimentLabel, unanswered: readonly string[]): string[] {
  const steps: string[] = [];
  const email = visitorText.match(CONTACT_PATTERNS.email)?.[0];
  const phone = visitorText.match(CONTACT_PATTERNS.phone)?.[0];
  if (email || phone) steps.push(`Contact the visitor at ${[email, phone?.trim()].filter(Boolean).join(' or ')}.`);
  const intentStep = INTENT_STEPS[intent];
  if (intentStep) steps.push(intentStep);
  if (sentiment === 'negative' && intent !== 'complaint') steps.push('Review the conversation: the visitor seemed dissatisfied.');
  for (const question of unanswered.slice(0, 3)) steps.push(`Add content to the chatbot's resources that answers: "${clip(question, KEY_POINT_CHARS)}"`);
  return steps;
}

/**
 * The offline analyser: an extractive summary and key points (sentences ranked by the
 * conversation's own term frequencies), sentiment from a word lexicon with negation, intent from
 * cue phrases in the visitor's messages, next steps from what was found, and custom fields by
 * pattern and keyword matching. Deterministic; nothing is invented.
 */
export function analyseLocally(
  messages: readonly ChatMessage[], customFields: readonly AnalysisCustomField[], unanswered: readonly string[], restrictText: string | null = null,
): Omit<AnalysisResult, 'unansweredQuestions'> {
  const visitorTexts = messages.filter((message) => message.fromUser).map((message) => message.text);
  const questions = visitorTexts.flatMap(splitSentences).filter(isQuestionOrRequest);
  const sentences = scoreSentences(messages, restrictText);
  const intent = classifyIntent(visitorTexts, questions);
  const sentiment = classifySentiment(visitorTexts);
  const keyPoints = best(sentences.filter((sentence) => sentence.score > 0), MAX_KEY_POINTS)
    .map((sentence) => `${sentence.fromUser ? 'Visitor' : 'Chatbot'}: ${clip(sentence.text, KEY_POINT_CHARS)}`);
  return {
    summary: summarise(sentences, questions),
    extractedData: {
      keyPoints,
      nextSteps: nextSteps(visitorTexts.join('\n'), intent, sentiment, unanswered),
      sentimentAnalysis: sentiment,
      intentClassification: intent,
    },
    customExtractedData: extractCustomFields(visitorTexts, customFields),
  };
}
