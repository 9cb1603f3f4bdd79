import { describe, expect, it } from 'vitest';
import { SAMPLE_RATE } from './audio-windows.js';
import { mayHoldSpeech, toTranscriptUnits } from './transcript-filter.js';

const window = { startSeconds: 30, samples: new Float32Array(20 * SAMPLE_RATE) };

describe('toTranscriptUnits', () => {
  it('dates segments in video time, an open end at the window\'s end', () => {
    expect(toTranscriptUnits(window, [
      { text: ' Welcome to the museum. ', timestamp: [0, 3.5] },
      { text: 'It opens at ten.', timestamp: [3.5, null] },
    ])).toEqual([
      { text: 'Welcome to the museum.', startSeconds: 30, endSeconds: 33.5 },
      { text: 'It opens at ten.', startSeconds: 33.5, endSeconds: 50 },
    ]);
  });

  it('drops annotations and decoding loops, keeping the speech beside them', () => {
    expect(toTranscriptUnits(window, [
      { text: '[BLANK_AUDIO]', timestamp: [0, 2] },
      { text: ' (music) Parking is free.', timestamp: [2, 4] },
      { text: ` M${'m'.repeat(300)}`, timestamp: [4, null] },
      { text: ' I am talking about the game. I am talking about the game. I am talking about the game. I am talking about the game.', timestamp: [6, 9] },
    ])).toEqual([{ text: 'Parking is free.', startSeconds: 32, endSeconds: 34 }]);
  });

  it('takes a window that says nothing but what Whisper says for silence as silent', () => {
    expect(toTranscriptUnits(window, [{ text: ' you', timestamp: [0, 2] }])).toEqual([]);
    expect(toTranscriptUnits(window, [{ text: ' Thank you for watching!', timestamp: [0, 2] }])).toEqual([]);
    expect(toTranscriptUnits(window, [{ text: ' Thank you.', timestamp: [0, 2] }, { text: 'See you at ten.', timestamp: [2, 4] }])).toHaveLength(2);
  });
});

describe('mayHoldSpeech', () => {
  it('is false for digital silence and true for a sound', () => {
    expect(mayHoldSpeech(window)).toBe(false);
    expect(mayHoldSpeech({ startSeconds: 0, samples: new Float32Array(SAMPLE_RATE).fill(0.1) })).toBe(true);
  });
});
