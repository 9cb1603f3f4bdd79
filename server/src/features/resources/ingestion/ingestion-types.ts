import { stripNulCharacters } from '@parley/shared/text';
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
  provenance: Pick<ChunkProvenance, 'page' | 'url' | 'title' | 'pairId'>;
  units: TextUnit[];
}

/** A web page a crawl indexed, with what the next crawl needs to fetch it conditionally. */
export interface WebsitePage {
  /** The URL as discovered (the key of the next conditional fetch). */
  url: string;
  etag?: string;
  lastModified?: string;
  /** The hash of the section the page's chunks were cut from. */
  sectionHash: string;
  textBytes: number;
  /** Same-origin links of the page (discovery by links), followed again when it answers 304. */
  links?: string[];
}

/** What a reader stage returns: the sections, and a better display name when the source has one. */
export interface ReaderOutput {
  sections: SourceSection[];
  title?: string;
  /** Sections unchanged at the source (a web page answering 304), kept without being read again. */
  keptHashes?: string[];
  /** WEB: the pages indexed, in crawl order. */
  pages?: WebsitePage[];
}

/**
 * Third-party text (PDF text, crawled pages, captions, transcripts) without U+0000, which
 * PostgreSQL cannot store: it is dropped here, at ingestion, rather than failing the write.
 */
export function toStorableOutput(output: ReaderOutput): ReaderOutput {
  const clean = (text: string | undefined) => (text === undefined ? undefined : stripNulCharacters(text));
  return {
    ...output,
    ...(output.title === undefined ? {} : { title: clean(output.title) }),
    sections: output.sections.map(({ provenance, units }) => ({
      provenance: {
        ...provenance, ...(provenance.title === undefined ? {} : { title: clean(provenance.title) }),
        ...(provenance.url === undefined ? {} : { url: clean(provenance.url) }),
      },
      units: units.map((unit) => ({ ...unit, text: stripNulCharacters(unit.text) })),
    })),
  };
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
