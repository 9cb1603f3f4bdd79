import { createHash } from 'node:crypto';
import type { ChunkProvenance } from '../../retrieve-chunks.js';
import type { SourceSection, TextUnit } from '../ingestion-types.js';

/** A passage ready to be indexed, with where it came from. */
export interface TextChunk {
  content: string;
  provenance: ChunkProvenance;
  /** Hash of the section it was cut from: a re-sync keeps chunks whose section did not change. */
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

const wordCount = (text: string) => (text.match(/\S+/g) ?? []).length;

/** Splits text into sentences; a sentence longer than `maxWords` is cut into word windows. */
export function splitSentences(text: string, maxWords: number): string[] {
  const sentences = text.replace(/\s+/g, ' ').trim().split(/(?<=[.!?…。])\s+(?=[\p{Lu}\p{N}"'“‘([])/u);
  return sentences.flatMap((sentence) => {
    const words = sentence.split(' ');
    if (words.length <= maxWords) return sentence ? [sentence] : [];
    const pieces: string[] = [];
    for (let start = 0; start < words.length; start += maxWords) pieces.push(words.slice(start, start + maxWords).join(' '));
    return pieces;
  });
}

/** The hash identifying a section's content and provenance. */
export function sectionHash(section: SourceSection): string {
  return createHash('sha256').update(JSON.stringify([section.provenance, section.units])).digest('hex');
}

interface Piece { text: string; words: number; unit: TextUnit }

function toChunk(pieces: Piece[], section: SourceSection, contentHash: string): TextChunk {
  const timed = pieces.filter((piece) => piece.unit.startSeconds !== undefined);
  const provenance: ChunkProvenance = { ...section.provenance };
  if (timed.length > 0) {
    provenance.startSeconds = timed[0]!.unit.startSeconds;
    const end = timed[timed.length - 1]!.unit.endSeconds;
    if (end !== undefined) provenance.endSeconds = end;
  }
  return { content: pieces.map((piece) => piece.text).join(' '), provenance, contentHash };
}

/**
 * Cuts sections into overlapping chunks along sentence boundaries. A chunk never spans two
 * sections, so its page, URL or title is exact; timed units give it a start and end time.
 */
export function chunkSections(sections: readonly SourceSection[], options: ChunkOptions = DEFAULT_CHUNK_OPTIONS): TextChunk[] {
  const chunks: TextChunk[] = [];
  for (const section of sections) {
    const contentHash = sectionHash(section);
    const pieces: Piece[] = section.units.flatMap((unit) => splitSentences(unit.text, options.targetWords)
      .map((text) => ({ text, words: wordCount(text), unit })));
    let current: Piece[] = [];
    let words = 0;
    let fresh = 0;
    for (const piece of pieces) {
      current.push(piece);
      words += piece.words;
      fresh++;
      if (words < options.targetWords) continue;
      chunks.push(toChunk(current, section, contentHash));
      const overlap: Piece[] = [];
      let overlapWords = 0;
      for (let i = current.length - 1; i > 0 && overlapWords + current[i]!.words <= options.overlapWords; i--) {
        overlap.unshift(current[i]!);
        overlapWords += current[i]!.words;
      }
      current = overlap;
      words = overlapWords;
      fresh = 0;
    }
    if (fresh > 0) chunks.push(toChunk(current, section, contentHash));
  }
  return chunks;
}
