import type { AnswerModel, AnswerPrompt } from '../../providers/llm/answer-model.js';

/**
 * An answer ready to be produced: every check (404, 402) has passed and the context is retrieved.
 * Use `deltas` for a stream or `text` for a plain answer; `text` is exactly the concatenation of
 * the deltas.
 */
export interface PreparedAnswer {
  /** Streams the answer as text deltas. Aborting `signal` cancels the model call. */
  deltas(signal?: AbortSignal): AsyncIterable<string>;
  /** The whole answer. */
  text(signal?: AbortSignal): Promise<string>;
  /** The prompt the model receives (for logging and tests); absent for a fixed answer. */
  readonly prompt?: AnswerPrompt;
}

async function collect(deltas: AsyncIterable<string>): Promise<string> {
  let text = '';
  for await (const delta of deltas) text += delta;
  return text;
}

/** An answer that a model produces from a prompt. */
export function modelAnswer(model: AnswerModel, prompt: AnswerPrompt): PreparedAnswer {
  const deltas = (signal: AbortSignal = new AbortController().signal) => model.stream(prompt, signal);
  return { prompt, deltas, text: (signal) => collect(deltas(signal)) };
}

/** An answer known in advance (the restrict text), sent as a single delta without any model. */
export function fixedAnswer(text: string): PreparedAnswer {
  async function* deltas(): AsyncIterable<string> {
    yield text;
  }
  return { deltas, text: async () => text };
}
