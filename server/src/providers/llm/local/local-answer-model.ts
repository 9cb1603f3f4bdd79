import { conversationalReply } from '../../../language/conversational-turn.js';
import { isFollowUp } from '../../../language/follow-up.js';
import { otherLanguageNotice } from '../../../language/visitor-language.js';
import type { AnswerModel, AnswerPrompt, Citation } from '../answer-model.js';
import { composeLocalAnswer, partMeaningText, questionParts, type LocalAnswer } from './compose-answer.js';
import { regionsOf } from './places.js';
import { analysePassage, type MeaningOf } from './rank-sentences.js';
import { similarity, type SentenceEncoder } from './sentence-encoder.js';
import { correctSpelling } from './spelling.js';
import { meaningTextsOf } from './sentence-vectors.js';
import { askOf } from './question-focus.js';
import { TurnMeanings } from './turn-meanings.js';
import { wordnetSynonymStems } from './wordnet-stems.js';

/**
 * The notice in the visitor's language that the chatbot answers from knowledge in another, when
 * the visitor's language is not the knowledge's (read from the passages, or else from the restrict
 * text the owner wrote).
 */
function declinedInVisitorsLanguage(prompt: AnswerPrompt): string | undefined {
  const knowledge = prompt.passages.length > 0 ? prompt.passages.map((passage) => passage.content) : [prompt.restrictResponse ?? ''];
  return otherLanguageNotice(prompt.question, knowledge);
}

/** Candidate sentences without stored vectors that one answer encodes itself, at most (a worker call of 32 takes ~0.1–1 s). */
const INLINE_SENTENCES = 16;

/**
 * The built-in offline engine (architecture.md § Models): answers from the retrieved passages'
 * own sentences, streamed word by word, citing the passages it quoted. With a sentence encoder,
 * sentences are ranked by meaning as well as by words, so paraphrased questions find their answer.
 * Deterministic, so a streamed answer and a plain one are identical.
 */
export class LocalAnswerModel implements AnswerModel {
  private readonly answers = new WeakMap<AnswerPrompt, LocalAnswer>();

  private readonly turns?: TurnMeanings;

  constructor(private readonly encoder?: SentenceEncoder) {
    if (encoder) this.turns = new TurnMeanings(encoder);
  }

  async *stream(prompt: AnswerPrompt, signal: AbortSignal): AsyncIterable<string> {
    const answer = await this.answer(prompt);
    for (const piece of answer.text.match(/\s*\S+\s*/g) ?? []) {
      if (signal.aborted) throw signal.reason;
      yield piece;
    }
  }

  /** The passages and sentences the answer quoted. */
  citations(prompt: AnswerPrompt, text: string): Citation[] {
    const answer = this.answers.get(prompt);
    return answer?.text === text ? answer.citations : [];
  }

  /** Whether the answer was the engine's word that the knowledge held none (the restrict text, "not found", or the other-language notice). */
  declined(prompt: AnswerPrompt, text: string): boolean {
    const answer = this.answers.get(prompt);
    return answer?.text === text && answer.declined === true;
  }

  /** Composes (once per prompt) the answer, with the meaning of each candidate sentence when an encoder is there. */
  async answer(prompt: AnswerPrompt): Promise<LocalAnswer> {
    let answer = this.answers.get(prompt);
    if (!answer) {
      // Visitors type on phones: "whats the wifi pasword" is asked as the context spells it.
      const question = prompt.turn ? prompt.question : correctSpelling(prompt.question, prompt.passages);
      const asked = question === prompt.question ? prompt : { ...prompt, question };
      const meanings = asked.turn ? undefined : await this.meanings(asked);
      const lexicon = asked.turn ? undefined : await wordnetSynonymStems(asked.question);
      answer = composeLocalAnswer(asked, meanings?.whole, meanings?.parts, lexicon);
      // Nothing in the knowledge answers it: it may be conversation in words the rules do not know.
      // Best effort: without it the answer stays as composed.
      const turn = answer.declined && this.turns ? await this.turns.kindOf(prompt.question).catch(() => undefined) : undefined;
      if (turn) answer = { text: conversationalReply(turn, prompt.question, prompt.toneType), citations: [] };
      // A visitor writing in a language the knowledge is not written in is told so in theirs.
      else if (answer.declined) answer = { ...answer, text: declinedInVisitorsLanguage(prompt) ?? answer.text };
      this.answers.set(prompt, answer);
    }
    return answer;
  }

  /** The meaning of each candidate sentence against the question, and against each part of a question asking two things. */
  private async meanings(prompt: AnswerPrompt): Promise<{ whole: MeaningOf; parts: MeaningOf[] } | undefined> {
    if (!this.encoder || prompt.passages.length === 0) return undefined;
    const sentences = [...new Set(prompt.passages.flatMap((passage) => meaningTextsOf(analysePassage(passage.content).sentences)))];
    const previous = prompt.messages.slice(0, -1).reverse().find((message) => message.role === 'user');
    const asked = previous && isFollowUp(prompt.question) ? `${previous.content} ${prompt.question}` : prompt.question;
    const regions = regionsOf(prompt.question);
    const question = regions ? `${asked} (${regions})` : asked;
    const parts = questionParts(prompt.question).map(partMeaningText);
    // "I'm a student after some work experience over the summer. Do you take on interns?": the
    // question asked, read alone as well, when the visitor also tells their situation.
    const ask = askOf(prompt.question);
    const askedAlone = ask === undefined ? [] : [ask];
    // The sentences' vectors were mostly stored after ingestion: only the question is encoded then,
    // while they are read.
    const unneeded = new AbortController();
    const encoding = this.encoder.embed([question, ...parts, ...askedAlone], { signal: unneeded.signal });
    encoding.catch(() => undefined);
    const vectors = await this.sentenceVectors(sentences, prompt.storedSentenceVectors);
    // Their meaning index is still filling: ranked by words alone, as without an encoder. The
    // question's encoding is dropped unless the worker has begun it: in a crowd right after
    // ingestion, every answer would otherwise wait for the encodings of all the questions before it.
    if (!vectors) {
      unneeded.abort();
      return undefined;
    }
    const queries = await encoding;
    const meaningsOf = (...query: Float32Array[]): MeaningOf => {
      const byText = new Map(sentences.map((text, i) => [text, Math.max(...query.map((q) => similarity(q, vectors[i]!)))]));
      return (text) => byText.get(text);
    };
    const whole = meaningsOf(queries[0]!, ...queries.slice(1 + parts.length));
    return { whole, parts: queries.slice(1, 1 + parts.length).map((query) => meaningsOf(query)) };
  }
  /**
   * The candidate sentences' vectors: those stored after ingestion, and at most
   * {@link INLINE_SENTENCES} encoded now. More missing (knowledge whose meaning index is still
   * filling) gives none: a sentence without a vector would rank below those with one, so the
   * answer is ranked by words alone rather than encode hundreds of sentences while the visitor waits.
   */
  private async sentenceVectors(sentences: string[], stored: AnswerPrompt['storedSentenceVectors']): Promise<Float32Array[] | undefined> {
    if (!stored) return this.encoder!.embed(sentences);
    const found = await stored(sentences).catch(() => new Map<string, Float32Array>());
    if (sentences.filter((text) => !found.has(text)).length > INLINE_SENTENCES) return undefined;
    return this.encoder!.embed(sentences, { stored: async () => found });
  }
}
