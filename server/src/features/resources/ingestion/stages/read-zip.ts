import yauzl from 'yauzl';
import { IngestionFailedError } from '../ingestion-types.js';

/** What an Office file may hold at most once unzipped, in all and per part (a real one is a few MB). */
export const ZIP_LIMITS = { totalBytes: 200 * 1024 * 1024, entryBytes: 100 * 1024 * 1024, entries: 10_000, ratio: 200 } as const;

const MB = 1024 * 1024;

function openZip(filePath: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.open(filePath, { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: false }, (err, zip) => {
      if (err || !zip) reject(new IngestionFailedError(`the file is not a readable zip: ${err?.message ?? 'no entries'}`));
      else resolve(zip);
    });
  });
}

/**
 * Checks a zip's central directory against ZIP_LIMITS before anything is decompressed: too many
 * entries, too many bytes once unzipped, or a part that expands more than 200 times (a zip bomb)
 * is a clear failure. Parts that lie about their size are caught while reading (yauzl checks).
 * @returns the entry names.
 */
export async function checkZip(filePath: string): Promise<string[]> {
  const zip = await openZip(filePath);
  try {
    return await new Promise<string[]>((resolve, reject) => {
      const names: string[] = [];
      let total = 0;
      zip.on('entry', (entry: yauzl.Entry) => {
        names.push(entry.fileName);
        total += entry.uncompressedSize;
        const ratio = entry.uncompressedSize / Math.max(1, entry.compressedSize);
        if (names.length > ZIP_LIMITS.entries) return reject(new IngestionFailedError(`the document holds more than ${ZIP_LIMITS.entries} parts`));
        if (entry.uncompressedSize > ZIP_LIMITS.entryBytes || total > ZIP_LIMITS.totalBytes) {
          return reject(new IngestionFailedError(`the document expands to more than ${ZIP_LIMITS.totalBytes / MB} MB when unzipped (a zip bomb?)`));
        }
        if (entry.uncompressedSize > MB && ratio > ZIP_LIMITS.ratio) {
          return reject(new IngestionFailedError(`a part of the document expands ${Math.round(ratio)} times when unzipped (a zip bomb?)`));
        }
        zip.readEntry();
      });
      zip.on('end', () => resolve(names));
      zip.on('error', (err: Error) => reject(new IngestionFailedError(`the document is not a readable zip: ${err.message}`)));
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
}

/** Reads the named entries of a zip (as UTF-8 text), stopping at ZIP_LIMITS.entryBytes each. */
export async function readZipTexts(filePath: string, wanted: (name: string) => boolean): Promise<Map<string, string>> {
  const zip = await openZip(filePath);
  const texts = new Map<string, string>();
  try {
    await new Promise<void>((resolve, reject) => {
      const fail = (err: Error) => reject(err instanceof IngestionFailedError ? err : new IngestionFailedError(`the document could not be unzipped: ${err.message}`));
      zip.on('entry', (entry: yauzl.Entry) => {
        if (!wanted(entry.fileName)) return zip.readEntry();
        zip.openReadStream(entry, (err, stream) => {
          if (err || !stream) return fail(err ?? new Error('no stream'));
          const parts: Buffer[] = [];
          let bytes = 0;
          stream.on('data', (part: Buffer) => {
            bytes += part.length;
            if (bytes > ZIP_LIMITS.entryBytes) {
              stream.destroy();
              fail(new IngestionFailedError(`a part of the document expands to more than ${ZIP_LIMITS.entryBytes / MB} MB (a zip bomb?)`));
            } else parts.push(part);
          });
          stream.on('error', fail);
          stream.on('end', () => {
            texts.set(entry.fileName, Buffer.concat(parts).toString('utf8'));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve());
      zip.on('error', fail);
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
  return texts;
}
