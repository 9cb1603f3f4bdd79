import { SECTION_SEPARATOR, segmentText, type AnswerMeta, type ChatSource } from '@parley/shared';
import type { AnswerModel, AnswerPrompt, Citation, ContextPassage } from '../../providers/llm/answer-model.js';
import { conversationalReply } from '../../language/conversational-turn.js';
import { holdRestrictText } from './restrict-text.js';

/**
 * An answer ready to be produced: every check (404, 402) has passed and the context is retrieved.
 * Use `deltas` for a stream or `text` for a plain answer; `text` is exactly the concatenation of
 * the deltas. `meta` gives what the answer carries beside its text (sources, refused, handoff).
 */
export interface PreparedAnswer {
  /** Streams the answer as text deltas. Aborting `signal` cancels the model call. */
  deltas(signal?: AbortSignal): AsyncIterable<string>;
  /** The whole answer. */
  text(signal?: AbortSignal): Promise<string>;
  /** The metadata of the finished answer whose text is `text`. */
  meta(text: string): AnswerMeta;
  /** The prompt the model receives (for logging and tests); absent for a fixed answer. */
  readonly prompt?: AnswerPrompt;
}

/** The longest snippet a source carries. */
const SNIPPET_CHARS = 240;

async function collect(deltas: AsyncIterable<string>): Promise<string> {
  let text = '';
  for await (const delta of deltas) text += delta;
  return text;
}

/** `[1]`, `[2, 3]` markers of an answer, as passage indexes (in order, once each). */
export function markerCitations(text: string, passages: number): Citation[] {
  const seen = new Set<number>();
  for (const match of text.matchAll(/\[(\d+(?:\s*[,;]\s*\d+)*)\]/g)) {
    for (const n of match[1]!.split(/[,;]/).map((part) => Number(part.trim()))) if (n >= 1 && n <= passages) seen.add(n - 1);
  }
  return [...seen].map((passage) => ({ passage }));
}

function clip(text: string): string {
  const flat = text.replace(/^#+\s.*$/gm, '').replace(/\s+/g, ' ').trim();
  if (flat.length <= SNIPPET_CHARS) return flat;
  // Cut at a word boundary; text without spaces (Chinese, Japanese) is cut at the limit.
  const space = flat.lastIndexOf(' ', SNIPPET_CHARS - 1);
  return `${flat.slice(0, space > 0 ? space : SNIPPET_CHARS - 1)}…`;
}

/**
 * The section of a passage the snippet was quoted from. A chunk may span sections ("FAQ ›
 * Delivery" then "FAQ › Returns"), and its provenance names only the first; its text carries the
 * headings where the path changes, so the quoted sentence's own path is recovered from it.
 */
function sectionOf(content: string, snippet: string | undefined): string | undefined {
  if (!snippet) return undefined;
  const quoted = segmentText(content).find((segment) => snippet === segment.text || snippet.startsWith(`${segment.text} `));
  return quoted && quoted.section.length > 0 ? quoted.section.join(SECTION_SEPARATOR) : undefined;
}

/**
 * The sources of an answer: one per cited passage (under the section of the sentence quoted,
 * when known), the same place cited twice only once.
 */
export function sourcesOf(prompt: Pick<AnswerPrompt, 'passages'>, citations: readonly Citation[]): ChatSource[] {
  const sources = new Map<string, ChatSource>();
  for (const { passage, snippet } of citations) {
    const context = prompt.passages[passage];
    if (!context?.citation) continue;
    const quotedSection = sectionOf(context.content, snippet);
    const citation = quotedSection ? { ...context.citation, section: quotedSection } : context.citation;
    const { resourceId, section, page, url, timestampSec } = citation;
    const key = JSON.stringify([resourceId, section, page, url, timestampSec]);
    if (!sources.has(key)) sources.set(key, { ...citation, snippet: clip(snippet ?? context.content) });
  }
  return [...sources.values()];
}

/**
 * An answer that a model produces from a prompt. With a restrict text, a provider's answer that
 * is the restrict text with decoration (quotes, markup, a citation) is sent as exactly the text.
 */
export function modelAnswer(model: AnswerModel, prompt: AnswerPrompt): PreparedAnswer {
  const restrict = prompt.restrictResponse;
  const deltas = (signal: AbortSignal = new AbortController().signal) => {
    const stream = model.stream(prompt, signal);
    return restrict && !model.citations ? holdRestrictText(stream, restrict) : stream;
  };
  return {
    prompt, deltas,
    text: (signal) => collect(deltas(signal)),
    meta(text) {
      // A handoff classified before answering, or the local engine's own handoff reply to a request
      // for a person that it read only once the knowledge held no answer.
      const handoff = prompt.turn === 'handoff' || text === conversationalReply('handoff', prompt.question, prompt.toneType) ? { handoff: true } : {};
      // The local engine may say it in the visitor's language rather than with the restrict text.
      if (restrict !== undefined && (text.trim() === restrict.trim() || model.declined?.(prompt, text))) return { sources: [], refused: true, ...handoff };
      const cited = model.citations ? model.citations(prompt, text) : markerCitations(text, prompt.passages.length);
      // The owner's saved answer was given to be the answer: it is its source even when the model did not cite it.
      const citations = prompt.passages[0]?.ownerAnswer && !cited.some((citation) => citation.passage === 0) ? [{ passage: 0 }, ...cited] : cited;
      return { sources: sourcesOf(prompt, citations), ...handoff };
    },
  };
}

/** An answer known in advance (the restrict text), sent as a single delta without any model. */
export function fixedAnswer(text: string, meta: AnswerMeta = { sources: [], refused: true }): PreparedAnswer {
  async function* deltas(): AsyncIterable<string> {
    yield text;
  }
  return { deltas, text: async () => text, meta: () => meta };
}

/**
 * The built-in engine's answer to a question a saved answer matched: the owner's answer exactly as
 * written, in one delta, citing the pair. Never the restrict text.
 */
export function ownerAnswer(passage: ContextPassage): PreparedAnswer {
  return fixedAnswer(passage.content, { sources: sourcesOf({ passages: [passage] }, [{ passage: 0 }]) });
}
