import { readPdf } from '../../ingestion/stages/read-pdf.js';
import type { CreatableSource } from '../source-module.js';
import { readStoredUpload, uploadDraft, type UploadInput } from '../stored-upload.js';
import { PdfSourceSchema } from './pdf-source.schema.js';

/** An uploaded PDF: its text layer, and OCR for pages without one. */
export const pdfSource: CreatableSource<'PDF', UploadInput> = {
  type: 'PDF',
  schema: PdfSourceSchema,
  syncs: false,
  editable: false,
  fileExtension: 'pdf',
  async create(input) {
    return uploadDraft('PDF', 'pdf', input);
  },
  read(ctx, resource) {
    return readStoredUpload(ctx, resource.source.storagePath, (filePath, parser, progress) => readPdf(filePath, {
      parser, maxOcrPages: ctx.ocrMaxPages, maxOcrMs: ctx.ocrMaxMs, signal: ctx.signal, progress,
      log: (message, details) => ctx.logger.info({ resourceId: resource.id, ...details }, message),
    }));
  },
  toResponse: ({ source }) => (source.fileSize === undefined ? {} : { fileSize: source.fileSize }),
  storedFile: (source) => source.storagePath,
};
