import type { TextUnit } from '../ingestion-types.js';

const TIMING = /^((?:\d+:)?\d{1,2}:\d{2}[.,]\d{1,3})\s+-->\s+((?:\d+:)?\d{1,2}:\d{2}[.,]\d{1,3})/;

/** `hh:mm:ss.ttt` or `mm:ss.ttt` in seconds. */
function toSeconds(stamp: string): number {
  const parts = stamp.replace(',', '.').split(':').map(Number);
  return parts.reduce((total, part) => total * 60 + part, 0);
}

/**
 * The cues of a WebVTT document as timed text, markup removed. Header, NOTE, STYLE and REGION
 * blocks are skipped; a block without a timing line is ignored rather than failing the whole file.
 */
export function parseWebVtt(source: string): TextUnit[] {
  const cues: TextUnit[] = [];
  const blocks = source.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n').split(/\n{2,}/);
  for (const block of blocks) {
    const lines = block.split('\n');
    const timingIndex = lines.findIndex((line) => TIMING.test(line.trim()));
    if (timingIndex < 0 || timingIndex > 1) continue;
    const [, start, end] = lines[timingIndex]!.trim().match(TIMING)!;
    const text = lines.slice(timingIndex + 1).join(' ')
      .replace(/<[^>]*>/g, '').replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&nbsp;/g, ' ')
      .replace(/\s+/g, ' ').trim();
    if (text) cues.push({ text, startSeconds: toSeconds(start!), endSeconds: toSeconds(end!) });
  }
  return cues;
}
