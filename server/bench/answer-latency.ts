import { performance } from 'node:perf_hooks';
import type { ChatMessage } from '@parley/shared';
import { buildPrompt, retrievalQuery, toPassages, type AnswerSettings } from '../src/features/chat/build-prompt.js';
import { LocalAnswerModel } from '../src/providers/llm/local/local-answer-model.js';
import type { Services } from '../src/services.js';

const SETTINGS: AnswerSettings = { personalityType: 'ASSISTANT', toneType: 'FRIENDLY', customSystemPrompt: null, restrictAnswersToResourcesContentResponse: null };

/** Median (p50) of each timing, in ms. */
export interface AnswerLatency {
  retrieval: number;
  /** Retrieval and the local engine ranking sentences by words (LOCAL_SENTENCE_ENCODER=false). */
  words: number;
  /** Retrieval and ranking by meaning too, the first time the passages' sentences are met (they are encoded then). */
  meaningFirst: number;
  /** The same once the instance's encoder cache holds the sentences (as after ingesting them here). */
  meaningCached: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Questions asked with the sentence encoder too: its first encoding of a passage takes up to seconds. */
const MEANING_QUESTIONS = 40;

/**
 * The local engine's whole answer as a chat prepares it (retrieval, prompt, sentence ranking),
 * in-process, over `questions` (the first `warmUp` not counted): by words over all of them, then
 * by meaning over the first {@link MEANING_QUESTIONS} (a words-only engine is made here;
 * `services.models` carries the sentence encoder when it is on).
 */
export async function measureLocalAnswers(
  services: Services, organisationId: string, resourceIds: readonly string[], questions: readonly string[], warmUp = 10,
): Promise<AnswerLatency> {
  const words = new LocalAnswerModel();
  const withMeaning = services.models.answerModel('alpha-4o-mini');
  const timings = { retrieval: [] as number[], words: [] as number[], meaningFirst: [] as number[], meaningCached: [] as number[] };
  const answer = async (model: { stream(prompt: ReturnType<typeof buildPrompt>, signal: AbortSignal): AsyncIterable<string> }, prompt: ReturnType<typeof buildPrompt>) => {
    const started = performance.now();
    for await (const piece of model.stream(prompt, new AbortController().signal)) void piece;
    return performance.now() - started;
  };
  const retrieve = async (question: string) => {
    const conversation: ChatMessage[] = [{ text: question, fromUser: true }];
    const started = performance.now();
    const chunks = await services.resources.retrieve(organisationId, resourceIds, retrievalQuery(conversation), services.config.chatContextChunks);
    return { ms: performance.now() - started, prompt: () => buildPrompt(SETTINGS, conversation, toPassages(chunks)) };
  };
  // By words first, with no encoder work in the background.
  for (const [i, question] of questions.entries()) {
    const { ms, prompt } = await retrieve(question);
    const wordsMs = await answer(words, prompt());
    if (i < warmUp) continue;
    timings.retrieval.push(ms);
    timings.words.push(ms + wordsMs);
  }
  for (const [i, question] of questions.slice(0, MEANING_QUESTIONS).entries()) {
    const { ms, prompt } = await retrieve(question);
    const firstMs = await answer(withMeaning, prompt());
    const cachedMs = await answer(withMeaning, prompt());
    if (i < warmUp) continue;
    timings.meaningFirst.push(ms + firstMs);
    timings.meaningCached.push(ms + cachedMs);
  }
  return { retrieval: median(timings.retrieval), words: median(timings.words), meaningFirst: median(timings.meaningFirst), meaningCached: median(timings.meaningCached) };
}
