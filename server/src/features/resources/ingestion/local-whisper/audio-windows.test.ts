import { describe, expect, it } from 'vitest';
import { audioWindows, quietCut, SAMPLE_RATE, skipLeadingSilence, WINDOW_SECONDS } from './audio-windows.js';

/** `seconds` of a 440 Hz tone at `level`, with silence over the given ranges (in seconds). */
function tone(seconds: number, quiet: ReadonlyArray<readonly [number, number]> = [], level = 0.3): Float32Array {
  const samples = new Float32Array(Math.round(seconds * SAMPLE_RATE));
  for (let i = 0; i < samples.length; i++) {
    const t = i / SAMPLE_RATE;
    samples[i] = quiet.some(([from, to]) => t >= from && t < to) ? 0 : level * Math.sin(2 * Math.PI * 440 * t);
  }
  return samples;
}

/** The samples as ffmpeg's f32le bytes, delivered in chunks of `size` bytes (not a multiple of 4). */
async function* asBytes(samples: Float32Array, size = 4099): AsyncGenerator<Buffer> {
  const bytes = Buffer.alloc(samples.length * 4);
  samples.forEach((sample, i) => bytes.writeFloatLE(sample, i * 4));
  for (let offset = 0; offset < bytes.length; offset += size) yield bytes.subarray(offset, offset + size);
}

async function collect(samples: Float32Array) {
  const windows = [];
  for await (const window of audioWindows(asBytes(samples))) windows.push(window);
  return windows;
}

describe('audioWindows', () => {
  it('cuts 70 s into windows of at most 30 s at the quiet moments, covering every sample once', async () => {
    const samples = tone(70, [[27, 27.5], [53, 53.4]]);
    const windows = await collect(samples);
    const starts = windows.map((window) => window.startSeconds);
    expect(starts).toHaveLength(3);
    expect(starts[0]).toBe(0);
    // Each cut falls inside a quiet stretch.
    expect(starts[1]).toBeGreaterThanOrEqual(27);
    expect(starts[1]).toBeLessThanOrEqual(27.5);
    expect(starts[2]).toBeGreaterThanOrEqual(53);
    expect(starts[2]).toBeLessThanOrEqual(53.4);
    for (const window of windows) expect(window.samples.length).toBeLessThanOrEqual(WINDOW_SECONDS * SAMPLE_RATE);
    expect(windows.reduce((sum, window) => sum + window.samples.length, 0)).toBe(samples.length);
    // Samples survive the byte chunking (chunks that split a float) unchanged.
    expect(windows[1]!.samples[1000]).toBe(samples[Math.round(windows[1]!.startSeconds * SAMPLE_RATE) + 1000]);
  });

  it('gives a short recording as one window', async () => {
    const windows = await collect(tone(4));
    expect(windows).toHaveLength(1);
    expect(windows[0]).toMatchObject({ startSeconds: 0 });
    expect(windows[0]!.samples.length).toBe(4 * SAMPLE_RATE);
  });
});

describe('quietCut', () => {
  it('ends a window without quiet moments at its full length', () => {
    expect(quietCut(tone(31)) / SAMPLE_RATE).toBeGreaterThan(WINDOW_SECONDS - 5);
    expect(quietCut(tone(31)) / SAMPLE_RATE).toBeLessThanOrEqual(WINDOW_SECONDS);
  });
});

describe('skipLeadingSilence', () => {
  it('starts a window 200 ms before its first sound, moving its start time along', () => {
    const window = skipLeadingSilence({ startSeconds: 30, samples: tone(10, [[0, 4]]) });
    expect(window.startSeconds).toBeCloseTo(33.8, 5);
    expect(window.samples.length).toBe(6.2 * SAMPLE_RATE);
  });

  it('keeps a window that starts with sound as it is', () => {
    const samples = tone(3);
    expect(skipLeadingSilence({ startSeconds: 0, samples }).samples).toBe(samples);
  });
});
