import { setTimeout as sleep } from 'node:timers/promises';
import { ConversationListingSchema, type ConversationListItem } from '@parley/shared';
import type { TestContext } from '../../../test/test-app.js';

/**
 * Polls the listing until the conversation's analysis reaches one of `statuses` (the job runs
 * in the background). Fails after `limitMs`, a bound on waiting, not a timing assertion.
 */
export async function waitForAnalysis(
  ctx: TestContext, chatbotId: string, conversationId: string, statuses: readonly string[] = ['DONE', 'FAILED'], limitMs = 25_000,
): Promise<ConversationListItem> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const res = await ctx.api.get(`/v1/conversation/${chatbotId}`);
    const item = ConversationListingSchema.parse(res.body).conversations.find((conversation) => conversation.id === conversationId);
    if (item && statuses.includes(item.analysis.status)) return item;
    if (Date.now() > deadline) throw new Error(`analysis of ${conversationId} is still ${item?.analysis.status} after ${limitMs} ms`);
    await sleep(50);
  }
}

/** Inserts a searchable chunk for a resource (what ingestion would have written). */
export async function insertChunk(ctx: TestContext, resourceId: string, content: string, ordinal = 0): Promise<void> {
  await ctx.database.db('resource_chunks').insert({ resource_id: resourceId, organisation_id: ctx.org.organisationId, ordinal, content });
}
