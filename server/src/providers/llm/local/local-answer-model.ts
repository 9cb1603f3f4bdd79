import type { AnswerModel, AnswerPrompt, Citation } from '../answer-model.js';
import { composeAnswer, composeLocalAnswer } from './compose-answer.js';

/**
 * The built-in offline engine (architecture.md § Models): answers from the retrieved passages'
 * own sentences, with their sources, streamed word by word. Deterministic, so a streamed answer
 * and a plain one are identical.
 */
export class LocalAnswerModel implements AnswerModel {
  async *stream(prompt: AnswerPrompt, signal: AbortSignal): AsyncIterable<string> {
    const answer = composeAnswer(prompt);
    for (const piece of answer.match(/\s*\S+\s*/g) ?? []) {
      if (signal.aborted) throw signal.reason;
      yield piece;
    }
  }

  /** The passages and sentences the answer quoted (the engine is deterministic: the same prompt gives the same answer). */
  citations(prompt: AnswerPrompt, text: string): Citation[] {
    const answer = composeLocalAnswer(prompt);
    return answer.text === text ? answer.citations : [];
  }
}
