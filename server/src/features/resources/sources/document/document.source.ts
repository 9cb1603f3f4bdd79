import type { DocumentFormat } from '@parley/shared';
import type { CreatableSource } from '../source-module.js';
import { readStoredUpload, uploadDraft, type UploadInput } from '../stored-upload.js';
import { DocumentSourceSchema } from './document-source.schema.js';

/** The stored file's extension per format (the stored name only; the format was sniffed from content). */
const EXTENSIONS: Record<DocumentFormat, string> = { DOCX: 'docx', PPTX: 'pptx', MARKDOWN: 'md', PLAIN_TEXT: 'txt', HTML: 'html', CSV: 'csv' };

/** An upload's input with its sniffed document format. */
export type DocumentUploadInput = UploadInput & { format: DocumentFormat };

/** The extension a document of this format is stored under. */
export const documentExtension = (format: DocumentFormat): string => EXTENSIONS[format];

/** An uploaded document (extension): read in the parser process, its headings, lists and tables kept. */
export const documentSource: CreatableSource<'DOCUMENT', DocumentUploadInput> = {
  type: 'DOCUMENT',
  schema: DocumentSourceSchema,
  syncs: false,
  editable: false,
  async create(input) {
    const draft = uploadDraft('DOCUMENT', EXTENSIONS[input.format], input);
    return { ...draft, source: { ...draft.source, format: input.format } };
  },
  read(ctx, resource) {
    return readStoredUpload(ctx, resource.source.storagePath, (filePath, parser) => parser.call('readDocument', filePath, resource.source.format ?? 'PLAIN_TEXT'));
  },
  toResponse: ({ source }) => ({
    ...(source.fileSize === undefined ? {} : { fileSize: source.fileSize }), ...(source.format ? { documentFormat: source.format } : {}),
  }),
  storedFile: (source) => source.storagePath,
};
