import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { probeMp4Duration } from '../../mp4-boxes.js';
import { sniffFileType } from '../../sniff-file-type.js';
import { IngestionFailedError, NoTextFoundError } from '../ingestion-types.js';
import { decodeTx3gSample, decodeWvttSample, readSubtitleCues, readVideo, readVideoCues } from './read-video.js';

const FIXTURES = path.join(import.meta.dirname, '..', 'fixtures');

function box(type: string, payload: Buffer): Buffer {
  const header = Buffer.alloc(8);
  header.writeUInt32BE(8 + payload.length, 0);
  header.write(type, 4, 'latin1');
  return Buffer.concat([header, payload]);
}

describe('MP4 subtitles', () => {
  it('decodes tx3g and wvtt samples', () => {
    const text = Buffer.from('Héllo');
    const length = Buffer.alloc(2);
    length.writeUInt16BE(text.length);
    expect(decodeTx3gSample(Buffer.concat([length, text, Buffer.from([0, 0, 0, 0])]))).toBe('Héllo');
    const cue = box('vttc', Buffer.concat([box('iden', Buffer.from('1')), box('payl', Buffer.from('WebVTT cue'))]));
    expect(decodeWvttSample(Buffer.concat([cue, box('vtte', Buffer.alloc(0))]))).toBe('WebVTT cue');
  });

  it('reads the cues of an ffmpeg file whose moov follows mdat', async () => {
    expect(await readSubtitleCues(path.join(FIXTURES, 'subtitled-mov-text.mp4'))).toEqual([
      { text: 'The quokka lives on Rottnest Island.', startSeconds: 0.5, endSeconds: 2 },
      { text: 'It is a small marsupial that smiles for photographs.', startSeconds: 2.5, endSeconds: 4.5 },
    ]);
  });

  it('falls back to the transcriber, else NoTextFoundError', async () => {
    const silent = path.join(FIXTURES, 'no-subtitles.mp4');
    await expect(readVideo(silent, undefined)).rejects.toBeInstanceOf(NoTextFoundError);
    const transcriber = { transcribe: async () => [{ text: 'Spoken words.', startSeconds: 0, endSeconds: 1 }] };
    expect(await readVideo(silent, transcriber)).toEqual({ sections: [{ provenance: {}, units: [{ text: 'Spoken words.', startSeconds: 0, endSeconds: 1 }] }] });
  });

  it('reads durations from the header and sniffs types by content', async () => {
    expect(await probeMp4Duration(path.join(FIXTURES, 'no-subtitles.mp4'))).toBeCloseTo(3, 1);
    const head = fs.readFileSync(path.join(FIXTURES, 'no-subtitles.mp4')).subarray(0, 16);
    expect(sniffFileType(head)).toBe('VIDEO');
    expect(sniffFileType(Buffer.from('%PDF-1.7\n'))).toBe('PDF');
    expect(sniffFileType(Buffer.from('PK\u0003\u0004 not a pdf'))).toBeUndefined();
  });

  it('ends a file whose movie header mp4box cannot read as IngestionFailedError, never another error', async () => {
    const real = fs.readFileSync(path.join(FIXTURES, 'subtitled-mov-text.mp4'));
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-mp4-'));
    try {
      // ftyp, then a moov with nothing in it: no mvhd, no tracks.
      const file = path.join(dir, 'empty-moov.mp4');
      fs.writeFileSync(file, Buffer.concat([real.subarray(0, 32), box('moov', Buffer.alloc(0))]));
      await expect(readVideoCues(file)).rejects.toBeInstanceOf(IngestionFailedError);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
