import type { TurnKind } from '../../../language/conversational-turn.js';
import { LEXICON } from '../../../language/lexicon.js';
import { similarity, type SentenceEncoder } from './sentence-encoder.js';

/**
 * What visitors say when they are not asking about the knowledge, a few plain ways per kind: a
 * message is that kind of turn when its meaning is close to one of them. Written as common chat
 * openings, closings and requests; none is a question of the visitor-questions development set
 * (dev-set-hygiene.test.ts checks), though a few stock phrases ("hello", "who are you?") are
 * short questions of it too.
 */
const { kinds } = LEXICON.turnPrototypes;
const PROTOTYPES: Record<TurnKind, readonly string[]> = {
  greeting: kinds.greeting.texts, thanks: kinds.thanks.texts, goodbye: kinds.goodbye.texts, identity: kinds.identity.texts,
  acknowledgement: kinds.acknowledgement.texts, handoff: kinds.handoff.texts, complaint: kinds.complaint.texts,
};

/**
 * Questions for the knowledge that share conversation's words ("person", "staff", "open", "AI"):
 * a message closest to one of these is no turn, however close it comes to a turn's prototype
 * ("can I come in person to your office to pay?" was 0.68 from "is there a person I can chat with?").
 */
const QUESTIONS: readonly string[] = LEXICON.turnPrototypes.questions.texts;

/**
 * How close a message (or each of its sentences) must come to a prototype. Over the visitor
 * sets' off-topic and on-topic questions, the Python FAQ and 869 SQuAD 2.0 questions (about
 * 1,400 texts that are not conversation), the closest came to 0.54 (an off-topic one to 0.51); the sets' small talk
 * had a median of 0.78.
 */
export const TURN_MEANING_THRESHOLD = 0.58;

/**
 * How close each sentence of a message read as a turn as a whole must come: a sentence asking or
 * telling something else stays below (nine in ten of the questions above do).
 */
const SENTENCE_FLOOR = 0.45;

/** Which kind answers a message whose sentences are of several kinds ("Thanks, that's all. Goodbye!" is a goodbye). */
const PRIORITY: readonly TurnKind[] = ['handoff', 'complaint', 'identity', 'goodbye', 'thanks', 'acknowledgement', 'greeting'];

interface Prototype { kind: TurnKind | 'question'; vector: Float32Array }
/** The turn a text is nearest to; no kind when it is nearest to a question. */
interface Closest { kind?: TurnKind; score: number }

/** The sentences of a message, split after `.`, `!` or `?`. */
export const sentencesOf = (message: string) => message.split(/(?<=[.!?])\s+/).map((text) => text.trim()).filter((text) => text !== '');

/**
 * Conversational turns recognised by meaning with the sentence encoder, for messages the word
 * rules (conversational-turn.ts) do not read as conversation: "Good morning. I've never used this
 * before: what are you able to do for me?", "Many thanks, you've answered everything." A message
 * is a turn when its meaning is close to a prototype's and none of its sentences is far from
 * every prototype, or when every sentence is close to one; a sentence that asks something else
 * ("…can I bring my dog?") keeps it a question.
 */
export class TurnMeanings {
  private prototypes?: Promise<Prototype[]>;

  constructor(private readonly encoder: SentenceEncoder) {}

  async kindOf(message: string): Promise<TurnKind | undefined> {
    const sentences = sentencesOf(message);
    const texts = sentences.length > 1 ? [message, ...sentences] : [message];
    const [prototypes, vectors] = await Promise.all([this.loaded(), this.encoder.embed(texts)]);
    const closest = (vector: Float32Array): Closest => {
      let best: Prototype | undefined;
      let bestScore = -1;
      for (const prototype of prototypes) {
        const score = similarity(vector, prototype.vector);
        if (score > bestScore) [best, bestScore] = [prototype, score];
      }
      return best === undefined || best.kind === 'question' ? { score: -1 } : { kind: best.kind, score: bestScore };
    };
    const whole = closest(vectors[0]!);
    const each = sentences.length > 1 ? vectors.slice(1).map(closest) : [whole];
    // Read whole, a longer message can come close to a prototype that none of its sentences is
    // near ("I was hoping to drop into your front desk in person on Wednesday. Will it be open?").
    if (whole.score >= TURN_MEANING_THRESHOLD && each.every(({ score }) => score >= SENTENCE_FLOOR)) return whole.kind;
    if (each.some(({ score }) => score < TURN_MEANING_THRESHOLD)) return undefined;
    return PRIORITY.find((kind) => each.some((sentence) => sentence.kind === kind));
  }

  private loaded(): Promise<Prototype[]> {
    this.prototypes ??= (async () => {
      const entries = [
        ...Object.entries(PROTOTYPES).flatMap(([kind, texts]) => texts.map((text) => ({ kind: kind as TurnKind, text }))),
        ...QUESTIONS.map((text) => ({ kind: 'question' as const, text })),
      ];
      const vectors = await this.encoder.embed(entries.map(({ text }) => text));
      return entries.map(({ kind }, i) => ({ kind, vector: vectors[i]! }));
    })();
    // A failed encoding is tried again with the next message.
    this.prototypes.catch(() => { this.prototypes = undefined; });
    return this.prototypes;
  }
}
