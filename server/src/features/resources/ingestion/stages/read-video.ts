import fs from 'node:fs/promises';
import { createFile, MP4BoxBuffer, type Sample } from 'mp4box';
import { childBoxes, Mp4FormatError, readMovieHeader } from '../../mp4-boxes.js';
import { IngestionFailedError, NoTextFoundError, type ReaderOutput, type TextUnit } from '../ingestion-types.js';
import type { Transcriber } from './transcribe-audio.js';

interface TrackInfo { id: number; codec: string; type?: string }

/**
 * The sample tables of an MP4, parsed by mp4box from the `ftyp` and `moov` boxes alone. Sample
 * offsets are absolute, so the `mdat` (wherever it is: stack-notes.md § 5, moov after mdat) is
 * read afterwards sample by sample, never held in memory whole.
 */
async function readSampleTables(filePath: string): Promise<{ tracks: TrackInfo[]; samples(trackId: number): Sample[] }> {
  const { ftyp, moov } = await readMovieHeader(filePath);
  const header = ftyp ? Buffer.concat([ftyp, moov]) : moov;
  const file = createFile();
  let tracks: TrackInfo[] | undefined;
  file.onReady = (info) => { tracks = info.tracks.map((track) => ({ id: track.id, codec: track.codec, type: track.type })); };
  file.onError = (module, message) => { throw new Mp4FormatError(`${module}: ${message}`); };
  const arrayBuffer = header.buffer.slice(header.byteOffset, header.byteOffset + header.length) as ArrayBuffer;
  try {
    file.appendBuffer(MP4BoxBuffer.fromArrayBuffer(arrayBuffer, 0));
    file.flush();
  } catch (err) {
    // mp4box trusts the boxes it finds (a moov without mvhd is a TypeError): the file's fault, not ours.
    if (err instanceof Mp4FormatError) throw err;
    throw new Mp4FormatError(`mp4box could not read the movie header (${err instanceof Error ? err.message : String(err)})`);
  }
  if (!tracks) throw new Mp4FormatError('mp4box could not read the movie header');
  return { tracks, samples: (trackId) => file.getTrackSamplesInfo(trackId) };
}

/** A `tx3g` (mov_text) sample: a 16-bit big-endian length, then UTF-8 text. */
export function decodeTx3gSample(data: Buffer): string {
  if (data.length < 2) return '';
  return data.toString('utf8', 2, Math.min(data.length, 2 + data.readUInt16BE(0)));
}

/** A `wvtt` (WebVTT in MP4) sample: `vttc` boxes holding a `payl` box with the cue text; `vtte` is empty. */
export function decodeWvttSample(data: Buffer): string {
  const texts: string[] = [];
  for (const box of childBoxes(data, 0, data.length)) {
    if (box.type !== 'vttc') continue;
    for (const child of childBoxes(data, box.start + box.headerSize, box.start + box.size)) {
      if (child.type === 'payl') texts.push(data.toString('utf8', child.start + child.headerSize, child.start + child.size));
    }
  }
  return texts.join('\n');
}

const SUBTITLE_DECODERS: Record<string, (data: Buffer) => string> = { tx3g: decodeTx3gSample, wvtt: decodeWvttSample };

/** The cues of the first subtitle track (mov_text/tx3g or WebVTT), with their times; [] if none. */
export async function readSubtitleCues(filePath: string): Promise<TextUnit[]> {
  const { tracks, samples } = await readSampleTables(filePath);
  const track = tracks.find((candidate) => SUBTITLE_DECODERS[candidate.codec.split('.')[0]!]);
  if (!track) return [];
  const decode = SUBTITLE_DECODERS[track.codec.split('.')[0]!]!;
  const handle = await fs.open(filePath, 'r');
  try {
    const cues: TextUnit[] = [];
    for (const sample of samples(track.id)) {
      if (sample.size <= 2) continue;
      const data = Buffer.alloc(sample.size);
      await handle.read(data, 0, sample.size, sample.offset);
      const text = decode(data).replace(/<[^>]+>/g, '').replace(/\s+/g, ' ').trim();
      if (!text) continue;
      const startSeconds = sample.dts / sample.timescale;
      cues.push({ text, startSeconds, endSeconds: (sample.dts + sample.duration) / sample.timescale });
    }
    return cues;
  } finally {
    await handle.close();
  }
}

/**
 * The subtitle cues of a video file.
 * @throws IngestionFailedError when the file is not a readable MP4.
 */
export async function readVideoCues(filePath: string): Promise<TextUnit[]> {
  try {
    return await readSubtitleCues(filePath);
  } catch (err) {
    if (err instanceof Mp4FormatError) throw new IngestionFailedError(`the MP4 could not be read: ${err.message}`);
    throw err;
  }
}

/**
 * Reads a video's text: its own subtitle track (read by `readCues`, in the parser process in
 * production), else a transcript from the configured provider.
 * @throws NoTextFoundError when it has neither; IngestionFailedError when the file is not a readable MP4.
 */
export async function readVideo(
  filePath: string, transcriber: Transcriber | undefined, signal?: AbortSignal, readCues: (filePath: string) => Promise<TextUnit[]> = readVideoCues,
  onProgress?: (fraction: number) => void,
): Promise<ReaderOutput> {
  let cues = await readCues(filePath);
  if (cues.length === 0 && transcriber) cues = await transcriber.transcribe(filePath, signal, onProgress);
  if (cues.length === 0) {
    throw new NoTextFoundError(transcriber ? 'the video has no subtitle track and its transcript is empty' : 'the video has no subtitle track and no transcription provider is configured');
  }
  return { sections: [{ provenance: {}, units: cues }] };
}
