import { EventDataDecoder } from './event-data.js';
import { StreamingEventSchema, type StreamingEvent } from './streaming-event.schema.js';

/** Encodes one streaming event as an SSE frame: one `data:` line, then a blank line. */
export function encodeEvent(event: StreamingEvent): string {
  return `data: ${JSON.stringify(event)}\n\n`;
}

/** An SSE comment line; keeps idle connections open through proxies without being an event. */
export const HEARTBEAT_FRAME = ': heartbeat\n\n';

/**
 * Splits SSE text into streaming events ({@link EventDataDecoder} plus the event schema); a
 * malformed payload throws.
 */
export class EventStreamDecoder {
  private readonly frames = new EventDataDecoder();

  /** Feeds a chunk and returns every event completed by it. */
  push(chunk: string): StreamingEvent[] {
    return this.frames.push(chunk).map(parseEvent);
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
