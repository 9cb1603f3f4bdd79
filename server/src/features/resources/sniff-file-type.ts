import fs from 'node:fs/promises';

/** The file types an upload may have, recognised by content (decisions.md § Resources and processing). */
export type UploadType = 'PDF' | 'VIDEO';

/** Returns the type of the given leading bytes: `%PDF-`, or an MP4 `ftyp` box; else undefined. */
export function sniffFileType(head: Uint8Array): UploadType | undefined {
  const ascii = (start: number, end: number) => String.fromCharCode(...head.subarray(start, end));
  if (head.length >= 5 && ascii(0, 5) === '%PDF-') return 'PDF';
  if (head.length >= 12 && ascii(4, 8) === 'ftyp') return 'VIDEO';
  return undefined;
}

/** Reads the first bytes of a file on disk and sniffs its type. */
export async function sniffFile(filePath: string): Promise<UploadType | undefined> {
  const handle = await fs.open(filePath, 'r');
  try {
    const head = Buffer.alloc(16);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return sniffFileType(head.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}
