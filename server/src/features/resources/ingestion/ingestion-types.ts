import type { ChunkProvenance } from '../retrieve-chunks.js';

/** A piece of source text, with its time range when it comes from a video. */
export interface TextUnit {
  text: string;
  startSeconds?: number;
  endSeconds?: number;
}

/**
 * One section of a source (a PDF page, a web page, a video's captions): the unit of provenance
 * and of change detection (a re-sync keeps the chunks of a section whose hash did not change).
 */
export interface SourceSection {
  provenance: Pick<ChunkProvenance, 'page' | 'url' | 'title'>;
  units: TextUnit[];
}

/** What a reader stage returns: the sections, and a better display name when the source has one. */
export interface ReaderOutput {
  sections: SourceSection[];
  title?: string;
}

/** Nothing readable in the source (an image-only PDF, a silent video): `FAILED_NO_TEXT_FOUND`. */
export class NoTextFoundError extends Error {
  override name = 'NoTextFoundError';
}

/**
 * A failure that retrying cannot fix (an unknown hosted video, a malformed file, a refused
 * address): the resource ends `FAILED` at once. Anything else thrown is retried first.
 */
export class IngestionFailedError extends Error {
  override name = 'IngestionFailedError';
}
