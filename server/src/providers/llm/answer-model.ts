import type { ChatSource } from '@parley/shared';
import type { TurnKind } from '../../language/conversational-turn.js';

/** One passage of retrieved context, as a model sees it. */
export interface ContextPassage {
  /** The passage text (Markdown-like: heading lines give its section path). */
  content: string;
  /** Human-readable origin for citations: "manual.pdf, page 3". */
  source: string;
  /** Where it came from, as answers cite it (the snippet is chosen per answer). */
  citation?: Omit<ChatSource, 'snippet'>;
  /** The owner's saved answer to the visitor's question (a matched QA pair): models are told to answer with it. */
  ownerAnswer?: boolean;
}

/** A passage an answer drew on: its index in the prompt and, when known, the sentence quoted. */
export interface Citation {
  passage: number;
  snippet?: string;
}

/** One turn of the conversation, in model terms. */
export interface PromptMessage {
  role: 'user' | 'assistant';
  content: string;
}

/**
 * Everything a model needs to answer: the full system prompt and history for provider models, and
 * the structured parts (question, passages, restrict text) the local engine works from.
 */
export interface AnswerPrompt {
  /** Personality, tone, custom prompt, the restrict rule and the numbered context. */
  system: string;
  /** The conversation, oldest first; the last message is the visitor's question. */
  messages: PromptMessage[];
  /** The visitor's last message. */
  question: string;
  /** Retrieved passages, best first. */
  passages: ContextPassage[];
  /** When set, answer only from the passages, and with exactly this text when they hold nothing relevant. */
  restrictResponse?: string;
  /** Wording hint for the local engine's own sentences (greetings, "not found"). */
  toneType?: 'HUMOROUS' | 'FRIENDLY' | 'FORMAL' | 'CUSTOM';
  /** Set when the visitor's message is conversation (a greeting, thanks, a request for a person), not a question. */
  turn?: TurnKind;
  /** The local engine's vectors of the passages' sentences stored at ingestion, for the given texts (those it has). */
  storedSentenceVectors?: (texts: string[]) => Promise<ReadonlyMap<string, Float32Array>>;
}

/** A model that answers a prompt as a stream of text deltas (architecture.md § Models). */
export interface AnswerModel {
  /**
   * Streams the answer; the concatenation of the yielded strings is the answer.
   * Aborting `signal` cancels the underlying call (the HTTP request of a provider).
   */
  stream(prompt: AnswerPrompt, signal: AbortSignal): AsyncIterable<string>;
  /** The passages an answer drew on; without it, the answer's `[n]` markers say. */
  citations?(prompt: AnswerPrompt, text: string): Citation[];
  /** Whether an answer says the knowledge held none (in words other than the restrict text), when the model can tell. */
  declined?(prompt: AnswerPrompt, text: string): boolean;
}
