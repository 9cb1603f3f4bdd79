import { describe, expect, it } from 'vitest';
import { decodeEvents, encodeEvent, EventStreamDecoder, HEARTBEAT_FRAME } from './event-stream.js';
import { EventDataDecoder } from './event-data.js';
import type { StreamingEvent } from './streaming-event.schema.js';

const events: StreamingEvent[] = [
  { type: 'partialResponse', data: { text: 'Hello\n\nworld: "quoted" data: x' } },
  { type: 'partialResponse', data: { text: ' 🎉' } },
  { type: 'error', statusCode: 502, message: 'provider failed', error: 'Bad Gateway' },
  { type: 'streamEnd' },
];

describe('SSE framing', () => {
  it('round-trips events, newlines in text included', () => {
    expect(decodeEvents(events.map(encodeEvent).join(''))).toEqual(events);
  });

  it('encodes one data line per event followed by a blank line', () => {
    expect(encodeEvent({ type: 'streamEnd' })).toBe('data: {"type":"streamEnd"}\n\n');
  });

  it('decodes arbitrary network chunks and skips heartbeats', () => {
    const wire = [HEARTBEAT_FRAME, ...events.map(encodeEvent)].join('').replace(/\n/g, '\r\n');
    const decoder = new EventStreamDecoder();
    const out: StreamingEvent[] = [];
    for (let i = 0; i < wire.length; i += 7) out.push(...decoder.push(wire.slice(i, i + 7)));
    expect(out).toEqual(events);
  });

  it('keeps a CRLF split across two chunks one line end', () => {
    const decoder = new EventDataDecoder();
    expect(decoder.push('data: one\r')).toEqual([]);
    expect(decoder.push('\ndata: two\r')).toEqual([]);
    expect(decoder.push('\n\r')).toEqual(['one\ntwo']);
    expect(decoder.push('\ndata: three\r\r')).toEqual(['three']);
    expect(decoder.pending).toBe(false);
  });

  it('rejects a payload that is not a streaming event', () => {
    expect(() => decodeEvents('data: {"type":"nope"}\n\n')).toThrow();
  });
});
