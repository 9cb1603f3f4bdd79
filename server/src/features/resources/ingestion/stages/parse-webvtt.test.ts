import { describe, expect, it } from 'vitest';
import { parseWebVtt } from './parse-webvtt.js';

describe('parseWebVtt', () => {
  it('reads cues with hours, ids, settings and markup; skips NOTE and STYLE blocks', () => {
    const vtt = 'WEBVTT - a title\r\n\r\nNOTE a comment\r\n\r\nSTYLE\r\n::cue { color: red }\r\n\r\nintro\r\n00:00:01.000 --> 00:00:02.500 align:start\r\n<v Roger>Hello &amp; <i>welcome</i>\r\nsecond line\r\n\r\n01:02:03.250 --> 01:02:04.000\r\nLater.\r\n';
    expect(parseWebVtt(vtt)).toEqual([
      { text: 'Hello & welcome second line', startSeconds: 1, endSeconds: 2.5 },
      { text: 'Later.', startSeconds: 3723.25, endSeconds: 3724 },
    ]);
  });

  it('accepts minutes-only stamps and ignores malformed blocks', () => {
    expect(parseWebVtt('WEBVTT\n\n00:05.000 --> 00:06.000\nShort.\n\nnot a cue\n\n')).toEqual([{ text: 'Short.', startSeconds: 5, endSeconds: 6 }]);
  });
});
