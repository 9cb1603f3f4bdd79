import { ResourceSchema, type Resource } from '@parley/shared';
import type { Knex } from 'knex';
import { expect } from 'vitest';
import type { TestContext } from '../../test/test-app.js';
import { replaceChunks } from './ingestion/chunk-staging.js';
import { chunkSections } from './ingestion/stages/chunk-text.js';

const PENDING = new Set(['NOT_STARTED', 'IN_PROGRESS']);

/** Polls a resource until its processing has settled (DONE or a failure) and returns it. */
export async function waitForProcessing(api: TestContext['api'], id: string, timeoutMs = 20_000): Promise<Resource> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await api.get(`/v1/resource/${id}`);
    expect(res.status).toBe(200);
    const resource = ResourceSchema.parse(res.body);
    if (!PENDING.has(resource.aiProcessingStatus)) return resource;
    if (Date.now() > deadline) throw new Error(`resource ${id} still ${resource.aiProcessingStatus} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Creates a resource through the API and checks the 201. */
export async function createResource(api: TestContext['api'], path: string, body: Record<string, unknown>): Promise<Resource> {
  const res = await api.post(`/v1/resource/${path}`).send(body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return ResourceSchema.parse(res.body);
}

/** Replaces a resource's chunks with those of `texts`, a section each, as an ingestion run does. */
export async function replaceChunkTexts(db: Knex, resource: { resourceId: string; organisationId: string }, texts: readonly string[]): Promise<void> {
  await replaceChunks(db, resource, chunkSections(texts.map((text) => ({ provenance: {}, units: [{ text }] }))));
}
