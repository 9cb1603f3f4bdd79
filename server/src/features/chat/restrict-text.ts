/** Markup, quotes and citation markers a model may wrap around the restrict text. */
const DECORATION = /\[\d+(?:\s*[,;]\s*\d+)*\]|[*_`"“”'‘’«»>#\s]/g;

const bare = (text: string) => text.replace(DECORATION, '').replace(/[.!]+$/, '').toLowerCase();

/** Decoration tolerated after the restrict text before the answer is taken as an answer of its own. */
const MAX_TRAILING_CHARS = 12;

/**
 * What may follow the restrict text in an answer that is still only the restrict text: punctuation,
 * symbols and numbers ("(1)", "[1; 2]", "!", "🙂"), never words. "Ask me about shipping. Yes, 9
 * euros." answers the question and must not be replaced by the restrict text.
 */
const TRAILING_DECORATION = /^(?:[\p{P}\p{S}\p{N}\p{M}]|\u200d)*$/u;

/** Whether the whole answer is the restrict text with decoration. */
const isRestrictText = (answer: string, target: string) => {
  const current = bare(answer);
  return current.startsWith(target) && TRAILING_DECORATION.test(current.slice(target.length));
};

/**
 * Passes a provider's deltas through, except while they may still be the restrict text: those
 * are held until the answer either departs from it (then flushed unchanged) or ends as it (then
 * exactly the restrict text is sent, whatever quotes, markup or citation wrapped it).
 */
export async function* holdRestrictText(deltas: AsyncIterable<string>, restrict: string): AsyncIterable<string> {
  const target = bare(restrict);
  let held = '';
  let holding = true;
  for await (const delta of deltas) {
    if (!holding) { yield delta; continue; }
    held += delta;
    const current = bare(held);
    const stillPossible = target.startsWith(current) || (current.startsWith(target) && current.length - target.length <= MAX_TRAILING_CHARS);
    if (!stillPossible) {
      holding = false;
      yield held;
    }
  }
  if (holding && held) yield isRestrictText(held, target) ? restrict : held;
}
