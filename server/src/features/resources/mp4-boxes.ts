import fs from 'node:fs/promises';

/** One ISO-BMFF box: its four-character type, where it starts and how long it is (header included). */
export interface Mp4Box { type: string; start: number; size: number; headerSize: number }

/** A file that is not a readable MP4 (truncated, or boxes that do not add up). */
export class Mp4FormatError extends Error {
  override name = 'Mp4FormatError';
}

const MAX_TOP_LEVEL_BOXES = 100_000;

async function readAt(handle: fs.FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead);
}

function boxHeader(header: Buffer, start: number, end: number): Mp4Box {
  if (header.length < 8) throw new Mp4FormatError('truncated box header');
  let size = header.readUInt32BE(0);
  const type = header.toString('latin1', 4, 8);
  let headerSize = 8;
  if (size === 1) {
    if (header.length < 16) throw new Mp4FormatError('truncated box header');
    size = Number(header.readBigUInt64BE(8));
    headerSize = 16;
  } else if (size === 0) {
    size = end - start;
  }
  if (size < headerSize || start + size > end) throw new Mp4FormatError(`box ${type} does not fit the file`);
  return { type, start, size, headerSize };
}

/**
 * Lists the top-level boxes of an MP4 file by reading only their headers, so a 1 GB file costs a
 * few reads wherever its `moov` is (before or after `mdat`).
 */
export async function listTopLevelBoxes(handle: fs.FileHandle, fileSize: number): Promise<Mp4Box[]> {
  const boxes: Mp4Box[] = [];
  let position = 0;
  while (position + 8 <= fileSize && boxes.length < MAX_TOP_LEVEL_BOXES) {
    const box = boxHeader(await readAt(handle, position, 16), position, fileSize);
    boxes.push(box);
    position += box.size;
  }
  return boxes;
}

/** The children of a box held in memory. */
export function childBoxes(data: Buffer, from: number, to: number): Mp4Box[] {
  const boxes: Mp4Box[] = [];
  let position = from;
  while (position + 8 <= to) {
    const box = boxHeader(data.subarray(position, Math.min(to, position + 16)), position, to);
    boxes.push(box);
    position += box.size;
  }
  return boxes;
}

/** Reads the `ftyp` and `moov` boxes of an MP4 file. @throws Mp4FormatError when there is no `moov`. */
export async function readMovieHeader(filePath: string): Promise<{ ftyp?: Buffer; moov: Buffer }> {
  const handle = await fs.open(filePath, 'r');
  try {
    const { size } = await handle.stat();
    const boxes = await listTopLevelBoxes(handle, size);
    const moovBox = boxes.find((box) => box.type === 'moov');
    if (!moovBox) throw new Mp4FormatError('the MP4 has no moov box');
    const ftypBox = boxes.find((box) => box.type === 'ftyp');
    return {
      ftyp: ftypBox && await readAt(handle, ftypBox.start, ftypBox.size),
      moov: await readAt(handle, moovBox.start, moovBox.size),
    };
  } finally {
    await handle.close();
  }
}

/** @throws Mp4FormatError when a box ends before `end` (the end of the fields about to be read). */
function requireBody(box: Mp4Box, end: number): void {
  if (box.start + box.size < end) throw new Mp4FormatError(`the ${box.type} box is truncated`);
}

/** The duration in seconds from `moov/mvhd` (or `moov/mvex/mehd` for fragmented files). */
export function movieDurationSeconds(moov: Buffer): number {
  const children = childBoxes(moov, 8, moov.length);
  const mvhd = children.find((box) => box.type === 'mvhd');
  if (!mvhd) throw new Mp4FormatError('the MP4 has no mvhd box');
  const body = mvhd.start + mvhd.headerSize;
  const version = moov[body];
  // A full box's fields must lie inside the box: a header cut short is the file's fault (400), not a RangeError.
  requireBody(mvhd, body + (version === 1 ? 32 : 20));
  const timescale = moov.readUInt32BE(body + (version === 1 ? 20 : 12));
  let duration = version === 1 ? Number(moov.readBigUInt64BE(body + 24)) : moov.readUInt32BE(body + 16);
  const mvex = children.find((box) => box.type === 'mvex');
  const mehd = mvex && childBoxes(moov, mvex.start + mvex.headerSize, mvex.start + mvex.size).find((box) => box.type === 'mehd');
  if ((duration === 0 || duration === 0xffffffff) && mehd) {
    const mehdBody = mehd.start + mehd.headerSize;
    requireBody(mehd, mehdBody + (moov[mehdBody] === 1 ? 12 : 8));
    duration = moov[mehdBody] === 1 ? Number(moov.readBigUInt64BE(mehdBody + 4)) : moov.readUInt32BE(mehdBody + 4);
  }
  if (!timescale) throw new Mp4FormatError('the MP4 has no timescale');
  return duration / timescale;
}

/** Reads an MP4's duration from its header alone (the upload answers with it at once). */
export async function probeMp4Duration(filePath: string): Promise<number> {
  return movieDurationSeconds((await readMovieHeader(filePath)).moov);
}
