import { parseEvent, type StreamingEvent } from '@parley/shared';
import { createParser } from 'eventsource-parser';
import type { Knex } from 'knex';
import { newId } from '../../db/ids.js';
import { updateChunkStatistics } from '../resources/ingestion/chunk-index.js';
import type { ChunkProvenance } from '../resources/retrieve-chunks.js';

/** One chunk to store: its text and where it came from. */
export interface ChunkInput {
  content: string;
  provenance?: ChunkProvenance;
}

/**
 * Inserts a finished resource with its chunks directly, for tests and benchmarks of chat that must
 * not depend on ingestion. Chunks are written in batches; returns the resource id.
 */
export async function insertChunkedResource(
  db: Knex, organisationId: string, creator: string, fileName: string, chunks: readonly (ChunkInput | string)[],
  type: 'TEXT' | 'PDF' | 'WEB' | 'VIDEO' = 'TEXT',
): Promise<string> {
  const id = newId();
  await db('resources').insert({
    id, organisation_id: organisationId, creator, file_name: fileName, type, created_at: Date.now(),
    ai_processing_status: 'DONE', tags: [],
  });
  const rows = chunks.map((chunk, ordinal) => {
    const { content, provenance } = typeof chunk === 'string' ? { content: chunk, provenance: {} } : chunk;
    return { resource_id: id, organisation_id: organisationId, ordinal, content, provenance: JSON.stringify(provenance ?? {}) };
  });
  for (let i = 0; i < rows.length; i += 500) await db('resource_chunks').insert(rows.slice(i, i + 500));
  // Token counts for BM25's length normalisation, as ingestion computes them.
  await db.raw(
    'UPDATE resource_chunks SET token_count = (SELECT coalesce(sum(coalesce(array_length(positions, 1), 1)), 0) FROM unnest(tsv)) WHERE resource_id = ?',
    [id],
  );
  // The resource's chunk statistics, as ingestion keeps them.
  await updateChunkStatistics(db, id);
  return id;
}

/** What a chat-stream request returned: parsed events, SSE comments, and the raw body. */
export interface EventStreamResult {
  status: number;
  headers: Headers;
  events: StreamingEvent[];
  comments: string[];
  raw: string;
  /** The JSON body when the server answered without streaming (an error before the stream). */
  json?: unknown;
}

/**
 * POSTs to a streaming endpoint over real HTTP and parses the body with a real SSE parser
 * (eventsource-parser). `onEvent` may abort `signal` to play a visitor who leaves mid-answer.
 */
export async function postEventStream(
  url: string, apiKey: string | undefined, body: unknown,
  options: { signal?: AbortSignal; onEvent?: (event: StreamingEvent, events: StreamingEvent[]) => void } = {},
): Promise<EventStreamResult> {
  const response = await fetch(url, {
    method: 'POST', signal: options.signal,
    headers: { 'content-type': 'application/json', ...(apiKey ? { 'x-api-key': apiKey } : {}) },
    body: JSON.stringify(body),
  });
  const result: EventStreamResult = { status: response.status, headers: response.headers, events: [], comments: [], raw: '' };
  if (!response.headers.get('content-type')?.startsWith('text/event-stream')) {
    result.json = await response.json();
    return result;
  }
  const parser = createParser({
    onEvent: (message) => {
      const event = parseEvent(message.data);
      result.events.push(event);
      options.onEvent?.(event, result.events);
    },
    onComment: (comment) => result.comments.push(comment),
  });
  const decoder = new TextDecoder();
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      const text = decoder.decode(chunk, { stream: true });
      result.raw += text;
      parser.feed(text);
    }
  } catch (err) {
    if (!options.signal?.aborted) throw err;
  }
  return result;
}

/** The answer a stream carried: its deltas joined. */
export function joinDeltas(events: readonly StreamingEvent[]): string {
  return events.map((event) => (event.type === 'partialResponse' ? event.data.text : '')).join('');
}

/** A shop's restrict text and a Markdown FAQ with `##` sections, shared by the answer tests. */
export const SHOP_RESTRICT = 'Sorry, I can only answer questions about Willow & Wick.';
export const SHOP_SITE = 'https://shop.example';
export const SHOP_FAQ = `# FAQ

## Delivery
We post parcels to every country of the European Union. Orders reach Germany and France within 3 working days.

## Returns
Unworn items can be sent back within 30 days of delivery. Refunds are paid to the original card within 5 days of the parcel arriving.
`;
