import type { UploadedFile } from '../../../http/upload.js';
import type { UploadType } from '../sniff-file-type.js';
import type { Parser } from '../ingestion/sandbox/parser-process.js';
import type { ResourceDraft, SourceReadContext } from './source-module.js';

/** What the create step of an uploaded file gets: the checked upload and where it will be kept. */
export interface UploadInput {
  id: string;
  file: UploadedFile;
  /** The FileStore key it is put under once the draft is made. */
  storagePath: string;
  tags: string[];
}

/** The draft common to uploaded files: the upload's name (or `upload.<ext>`), size and storage key. */
export function uploadDraft<T extends UploadType>(
  type: T, extension: string, input: UploadInput,
): Omit<ResourceDraft<T>, 'source'> & { source: { storagePath: string; fileSize: number } } {
  const { id, file, storagePath, tags } = input;
  return { id, type, fileName: file.originalName || `upload.${extension}`, tags, storedBytes: file.size, source: { storagePath, fileSize: file.size } };
}

/**
 * Reads a stored upload through the FileStore (a local copy when it lives in object storage),
 * parsing it in the parser process; the read's progress is recorded and settled before returning.
 */
export async function readStoredUpload<T>(
  ctx: SourceReadContext, storagePath: string | undefined, read: (filePath: string, parser: Parser, progress: (fraction: number) => void) => Promise<T>,
): Promise<T> {
  const progress = ctx.progress();
  const output = await ctx.files.withLocalCopy(storagePath ?? '', (filePath) => read(filePath, ctx.parser, progress.report), ctx.signal);
  await progress.settled();
  return output;
}
