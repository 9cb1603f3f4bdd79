import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FileStore } from './file-store.js';

/** Files under one directory (`DATA_DIR/files`); a cluster mounts it as a shared volume. */
export class LocalFileStore implements FileStore {
  readonly kind = 'local';

  constructor(private readonly directory: string, readonly stagingDirectory: string) {}

  /** The stored file's path; a key never leaves the directory. */
  private pathOf(key: string): string {
    const target = path.resolve(this.directory, key);
    if (!target.startsWith(path.resolve(this.directory) + path.sep)) throw new Error(`file key outside the store: ${key}`);
    return target;
  }

  async put(key: string, stagedPath: string): Promise<void> {
    const target = this.pathOf(key);
    await fs.mkdir(path.dirname(target), { recursive: true });
    try {
      await fs.rename(stagedPath, target);
    } catch (err) {
      // The staging directory and the store are on different volumes (the README advises a
      // separate shared volume for DATA_DIR/files): copy, then move into place atomically.
      if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
      const partial = `${target}.${randomUUID()}.partial`;
      try {
        await fs.copyFile(stagedPath, partial);
        await fs.rename(partial, target);
      } finally {
        await fs.rm(partial, { force: true });
      }
    }
  }

  async withLocalCopy<T>(key: string, use: (filePath: string) => Promise<T>): Promise<T> {
    const filePath = this.pathOf(key);
    // An absent file fails here, as it does in object storage, not somewhere inside a reader.
    await fs.access(filePath);
    return use(filePath);
  }

  async remove(key: string): Promise<void> {
    await fs.rm(this.pathOf(key), { force: true });
  }
}
