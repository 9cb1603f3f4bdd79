import path from 'node:path';
import type { Config } from '../config.js';
import type { FileStore } from './file-store.js';
import { LocalFileStore } from './local-file-store.js';
import { S3FileStore } from './s3-file-store.js';

/** The configured store: S3-compatible object storage when `S3_BUCKET` is set, else `DATA_DIR/files`. */
export function createFileStore(config: Pick<Config, 'dataDir' | 'objectStorage'>): FileStore {
  // Uploads are staged on local disk in any case: their type and a video's length are read first.
  const staging = path.join(config.dataDir, 'uploads', 'incoming');
  return config.objectStorage
    ? new S3FileStore(config.objectStorage, staging)
    : new LocalFileStore(path.join(config.dataDir, 'files'), staging);
}
