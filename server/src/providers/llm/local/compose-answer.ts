import type { AnswerPrompt } from '../answer-model.js';
import { rankSentences, relevanceOf, type ScoredSentence } from './rank-sentences.js';
import { questionTerms } from './text-terms.js';

/**
 * Below this relevance the context is taken to hold nothing about the question. With the restrict
 * text set, the answer is then exactly that text (decisions.md § Chat and streaming). Chosen with
 * server/bench/chat-quality.bench.ts on SQuAD 2.0 (unanswerable vs answerable questions).
 */
export const RESTRICT_RELEVANCE_THRESHOLD = 0.35;
/** Without the restrict text, weaker matches are still offered; below this the engine says it found nothing. */
export const ANSWER_RELEVANCE_THRESHOLD = 0.2;
/** The answer body stays around two sentences. */
const MAX_BODY_CHARS = 450;

const NOT_FOUND: Record<NonNullable<AnswerPrompt['toneType']>, string> = {
  FRIENDLY: "Sorry, I couldn't find anything about that in my resources. Could you rephrase your question, or ask about something else?",
  FORMAL: 'I could not find information on this subject in the available resources. Please rephrase your question or ask about another topic.',
  HUMOROUS: "I searched every page I have and came back empty-handed. Could you rephrase that, or ask me about something else?",
  CUSTOM: "I couldn't find anything about that in my resources. Could you rephrase your question?",
};

/** The question's subject words; a short follow-up ("and its price?") borrows the previous question's at half weight. */
export function termsOf(prompt: AnswerPrompt): Map<string, number> {
  const terms = questionTerms(prompt.question);
  const weight = [...terms.values()].reduce((sum, w) => sum + w, 0);
  const previous = prompt.messages.slice(0, -1).reverse().find((message) => message.role === 'user');
  if (weight < 2 && previous) {
    for (const [term, w] of questionTerms(previous.content)) if (!terms.has(term)) terms.set(term, w / 2);
  }
  return terms;
}

function smallTalk(question: string, tone: AnswerPrompt['toneType']): string {
  if (/\b(thanks|thank you|thx|cheers)\b/i.test(question)) return tone === 'FORMAL' ? 'You are welcome.' : "You're welcome! Anything else I can help with?";
  if (/^\s*(hi|hello|hey|good (morning|afternoon|evening))\b/i.test(question)) {
    return tone === 'FORMAL' ? 'Good day. How may I help you?' : 'Hi! What would you like to know?';
  }
  return 'Could you tell me a little more about what you are looking for?';
}

function pickSentences(ranked: readonly ScoredSentence[]): ScoredSentence[] {
  const [best] = ranked;
  if (!best) return [];
  const chosen = [best];
  const words = best.text.split(/\s+/).length;
  const next = ranked.find((s) => s.passage === best.passage && s.position === best.position + 1);
  const missing = (s: ScoredSentence) => [...s.stems].some((term) => !best.stems.has(term));
  const previous = ranked.find((s) => s.passage === best.passage && s.position === best.position - 1);
  // A sentence opening with a pronoun ("It was built in 1890.") needs the one naming its subject.
  const dangling = previous && /^(he|she|it|they|this|these|those|his|her|its|their)\b/i.test(best.text);
  // A short or introducing sentence ("The steps are:") needs the one after it to make sense.
  const second = dangling ? previous : next && (words < 10 || best.text.endsWith(':'))
    ? next
    : ranked.slice(1, 4).find((s) => s.score >= 0.9 * best.score && s.coverage > best.coverage * 0.8 && missing(s));
  if (second && best.text.length + second.text.length < MAX_BODY_CHARS) chosen.push(second);
  return chosen.sort((a, b) => a.passage - b.passage || a.position - b.position);
}

/**
 * The local engine's whole answer: the context sentences that best answer the question, followed
 * by their sources; the restrict text when the context is not relevant enough and the chatbot is
 * restricted; a short reply of its own for small talk or when nothing was found.
 */
export function composeAnswer(prompt: AnswerPrompt): string {
  const terms = termsOf(prompt);
  if (terms.size === 0) return prompt.restrictResponse ?? smallTalk(prompt.question, prompt.toneType);
  const ranked = rankSentences(prompt.question, terms, prompt.passages);
  const relevance = relevanceOf(ranked);
  if (prompt.restrictResponse !== undefined && relevance < RESTRICT_RELEVANCE_THRESHOLD) return prompt.restrictResponse;
  if (relevance < ANSWER_RELEVANCE_THRESHOLD) return NOT_FOUND[prompt.toneType ?? 'FRIENDLY'];
  const chosen = pickSentences(ranked);
  const body = chosen.map((s) => s.text).join(' ');
  const sources = [...new Set(chosen.map((s) => prompt.passages[s.passage]?.source).filter(Boolean))];
  return sources.length === 0 ? body : `${body}\n\n${sources.length > 1 ? 'Sources' : 'Source'}: ${sources.join('; ')}`;
}

/**
 * Whether the passages hold anything relevant to the prompt's question, by the same measure the
 * local engine answers with; the chat service uses it to apply the restrict rule before any model.
 */
export function isRelevant(prompt: Pick<AnswerPrompt, 'question' | 'messages' | 'passages'>): boolean {
  const terms = termsOf({ ...prompt, system: '' });
  if (terms.size === 0) return false;
  return relevanceOf(rankSentences(prompt.question, terms, prompt.passages)) >= RESTRICT_RELEVANCE_THRESHOLD;
}
