import { createHash } from 'node:crypto';
import { SECTION_SEPARATOR, segmentText, splitParagraph, type TextSegment } from '@parley/shared/text';
import type { ChunkProvenance } from '../../retrieve-chunks.js';
import type { SourceSection, TextUnit } from '../ingestion-types.js';

/** A passage ready to be indexed, with where it came from. */
export interface TextChunk {
  content: string;
  provenance: ChunkProvenance;
  /** Hash of the section it was cut from (and of the pipeline): a re-sync keeps chunks whose section did not change. */
  contentHash: string;
}

export interface ChunkOptions {
  /** A chunk is closed once it holds this many words (about 1.3 tokens each). */
  targetWords: number;
  /** Words of the previous chunk's last sentences repeated at the start of the next one. */
  overlapWords: number;
}

/** About 240 tokens per chunk with about 50 of overlap: small enough to rank sharply, big enough to answer. */
export const DEFAULT_CHUNK_OPTIONS: ChunkOptions = { targetWords: 180, overlapWords: 40 };

/**
 * The version of the text pipeline's code (splitter and chunker). It is part of every section
 * hash, so a changed pipeline re-indexes a resource at its next sync instead of keeping stale chunks.
 */
export const TEXT_PIPELINE_VERSION = 'structured-5';

/**
 * Everything that shapes a resource's stored chunks besides its source: the code version, the
 * chunk size and overlap, and the embeddings model their vectors come from (none: no vectors).
 * Its key is hashed into every section hash, so changing any of them (CHUNK options in code, or
 * EMBEDDINGS_MODEL set, changed or removed) re-indexes a resource at its next read instead of
 * keeping chunks of another size, or vectors of another model that retrieval would never compare.
 */
export interface TextPipeline {
  chunk: ChunkOptions;
  embeddingModel?: string;
}

/** The identity of a pipeline, as hashed into section hashes and website page records. */
export function textPipelineKey(pipeline: TextPipeline): string {
  const { targetWords, overlapWords } = pipeline.chunk;
  return JSON.stringify([TEXT_PIPELINE_VERSION, targetWords, overlapWords, pipeline.embeddingModel ?? null]);
}

/** The key of the default chunking without embeddings. */
export const DEFAULT_PIPELINE_KEY = textPipelineKey({ chunk: DEFAULT_CHUNK_OPTIONS });

/** A new top-level section closes a chunk that already holds this many words. */
const SECTION_BREAK_WORDS = 60;

/**
 * A chunk of a video (timed units) spans at most this much of it, so the moment it is cited at
 * (its start) is never far before the words it cites: 180 words are over a minute of speech.
 */
export const TIMED_CHUNK_SECONDS = 30;
/** Words (about a sentence) repeated from one such chunk into the next. */
const TIMED_OVERLAP_WORDS = 15;

const wordCount = (text: string) => (text.match(/\S+/g) ?? []).length;

/** The hash identifying a section's content and provenance under a pipeline (`textPipelineKey`). */
export function sectionHash(section: SourceSection, pipelineKey: string = DEFAULT_PIPELINE_KEY): string {
  return createHash('sha256').update(JSON.stringify([pipelineKey, section.provenance, section.units])).digest('hex');
}

interface Piece { segment: TextSegment; words: number; unit?: TextUnit }

/** The pieces of a section: structured sentences, or for timed units (captions) each unit's sentences with its time. */
function piecesOf(section: SourceSection): Piece[] {
  const timed = section.units.some((unit) => unit.startSeconds !== undefined);
  if (!timed) {
    return segmentText(section.units.map((unit) => unit.text).join('\n')).map((segment) => ({ segment, words: wordCount(segment.text) }));
  }
  // Captions are one running text: their cues join on one line.
  return section.units.flatMap((unit) => splitParagraph(unit.text)
    .map((text) => ({ segment: { text, kind: 'paragraph' as const, section: [], block: 0 }, words: wordCount(text), unit })));
}

/** Seconds from the start of one timed piece to the start of another (0 for untimed text). */
const spanSeconds = (first: Piece | undefined, next: Piece) => (next.unit?.startSeconds ?? 0) - (first?.unit?.startSeconds ?? next.unit?.startSeconds ?? 0);

const samePath = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((part, i) => part === b[i]);

/**
 * Writes pieces back as Markdown-like text: the heading path of the first piece, then each
 * heading where the path changes, list items as `- `, table rows and paragraphs on lines of
 * their own. Readers of a chunk (the local engine) recover the structure with `segmentText`.
 */
function render(pieces: readonly Piece[]): string {
  const lines: string[] = [];
  let path: readonly string[] = [];
  let block = -1;
  for (const { segment } of pieces) {
    if (!samePath(path, segment.section)) {
      const common = segment.section.findIndex((part, i) => path[i] !== part);
      const from = common === -1 ? segment.section.length : common;
      segment.section.slice(from).forEach((heading, i) => lines.push(`${'#'.repeat(Math.min(6, from + i + 1))} ${heading}`));
      path = segment.section;
      block = -1;
    }
    const prefix = segment.kind === 'item' ? '- ' : '';
    if (segment.block === block && segment.kind === 'paragraph') lines[lines.length - 1] += ` ${segment.text}`;
    else lines.push(`${prefix}${segment.text}`);
    block = segment.block;
  }
  return lines.join('\n');
}

function toChunk(pieces: Piece[], section: SourceSection, contentHash: string): TextChunk {
  const timed = pieces.filter((piece) => piece.unit?.startSeconds !== undefined);
  const provenance: ChunkProvenance = { ...section.provenance };
  const path = pieces[0]?.segment.section ?? [];
  if (path.length > 0) provenance.section = path.join(SECTION_SEPARATOR);
  if (timed.length > 0) {
    provenance.startSeconds = timed[0]!.unit!.startSeconds;
    const end = timed[timed.length - 1]!.unit!.endSeconds;
    if (end !== undefined) provenance.endSeconds = end;
  }
  return { content: render(pieces), provenance, contentHash };
}

/**
 * Cuts sections into overlapping chunks along sentence boundaries. A chunk never spans two
 * sources' sections (so its page, URL or title is exact), starts with its heading path, and a new
 * top-level heading closes a chunk of some size; timed units give it a start and end time.
 */
export function chunkSections(
  sections: readonly SourceSection[], options: ChunkOptions = DEFAULT_CHUNK_OPTIONS, pipelineKey = textPipelineKey({ chunk: options }),
): TextChunk[] {
  const chunks: TextChunk[] = [];
  for (const section of sections) {
    const contentHash = sectionHash(section, pipelineKey);
    let current: Piece[] = [];
    let words = 0;
    let fresh = 0;
    const close = (overlapWords: number) => {
      chunks.push(toChunk(current, section, contentHash));
      const overlap: Piece[] = [];
      let kept = 0;
      const last = current.at(-1)?.segment.section ?? [];
      for (let i = current.length - 1; i > 0 && kept + current[i]!.words <= overlapWords && samePath(current[i]!.segment.section, last); i--) {
        overlap.unshift(current[i]!);
        kept += current[i]!.words;
      }
      current = overlap;
      words = kept;
      fresh = 0;
    };
    for (const piece of piecesOf(section)) {
      const top = current.at(-1)?.segment.section.slice(0, 2) ?? [];
      if (fresh > 0 && words >= SECTION_BREAK_WORDS && !samePath(top, piece.segment.section.slice(0, 2))) close(0);
      else if (fresh > 0 && spanSeconds(current[0], piece) >= TIMED_CHUNK_SECONDS) close(Math.min(options.overlapWords, TIMED_OVERLAP_WORDS));
      current.push(piece);
      words += piece.words;
      fresh++;
      if (words >= options.targetWords) close(options.overlapWords);
    }
    if (fresh > 0) chunks.push(toChunk(current, section, contentHash));
  }
  return chunks;
}
