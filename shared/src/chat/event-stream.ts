import { StreamingEventSchema, type StreamingEvent } from './streaming-event.schema.js';

/** Encodes one streaming event as an SSE frame: one `data:` line, then a blank line. */
export function encodeEvent(event: StreamingEvent): string {
  return `data: ${JSON.stringify(event)}\n\n`;
}

/** An SSE comment line; keeps idle connections open through proxies without being an event. */
export const HEARTBEAT_FRAME = ': heartbeat\n\n';

/**
 * Splits SSE text into events. Keeps the unfinished tail for the next call, so it can be fed
 * arbitrary network chunks. Comments and non-`data` fields are skipped; a malformed payload throws.
 */
export class EventStreamDecoder {
  private buffer = '';

  /** Feeds a chunk and returns every event completed by it. */
  push(chunk: string): StreamingEvent[] {
    this.buffer += chunk.replace(/\r\n?/g, '\n');
    const events: StreamingEvent[] = [];
    let end: number;
    while ((end = this.buffer.indexOf('\n\n')) !== -1) {
      const frame = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      const data = frame
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(line.startsWith('data: ') ? 6 : 5))
        .join('\n');
      if (data) events.push(parseEvent(data));
    }
    return events;
  }
}

/** Parses one `data:` payload into a streaming event; throws on anything else. */
export function parseEvent(data: string): StreamingEvent {
  return StreamingEventSchema.parse(JSON.parse(data));
}

/** Decodes a whole SSE body at once. */
export function decodeEvents(text: string): StreamingEvent[] {
  return new EventStreamDecoder().push(text.endsWith('\n\n') ? text : `${text}\n\n`);
}
