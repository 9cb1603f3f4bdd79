/**
 * Splits SSE text into the `data` payloads of its events. Keeps the unfinished tail for the next
 * call, so it can be fed arbitrary network chunks. Comments (heartbeats) and other fields are
 * skipped. Framing only: no schema, so the widget uses it without zod.
 */
export class EventDataDecoder {
  private buffer = '';
  /** The last chunk ended in a CR: a line feed opening the next one is the same line end (CRLF). */
  private afterCarriageReturn = false;

  /** Feeds a chunk and returns the data of every event completed by it. */
  push(chunk: string): string[] {
    if (!chunk) return [];
    const text = this.afterCarriageReturn && chunk.startsWith('\n') ? chunk.slice(1) : chunk;
    this.afterCarriageReturn = chunk.endsWith('\r');
    this.buffer += text.replace(/\r\n?/g, '\n');
    const payloads: string[] = [];
    let end: number;
    while ((end = this.buffer.indexOf('\n\n')) !== -1) {
      const frame = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      const data = frame
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(line.startsWith('data: ') ? 6 : 5))
        .join('\n');
      if (data) payloads.push(data);
    }
    return payloads;
  }

  /** Whether an unfinished event is still buffered (a stream cut off mid-event). */
  get pending(): boolean {
    return this.buffer.trim().length > 0;
  }
}
