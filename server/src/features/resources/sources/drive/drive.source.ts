import { IngestionFailedError } from '../../ingestion/ingestion-types.js';
import type { SourceModule } from '../source-module.js';
import { DriveSourceSchema } from './drive-source.schema.js';

/** A Google Drive file: shown as imported, never created or read by this service. */
export const driveSource: SourceModule<'DRIVE'> = {
  type: 'DRIVE',
  schema: DriveSourceSchema,
  syncs: false,
  editable: false,
  async read() {
    throw new IngestionFailedError('DRIVE resources are not read by this service');
  },
  toResponse({ source: { file } }) {
    if (!file) return {};
    const text = (value: unknown, fallback = '') => String(value ?? fallback);
    return {
      driveResourceFile: {
        driveAccountId: text(file.driveAccountId), fileId: text(file.fileId), fileName: text(file.fileName),
        mimeType: text(file.mimeType), webViewLink: text(file.webViewLink), recursive: text(file.recursive, 'false'),
      },
    };
  },
};
