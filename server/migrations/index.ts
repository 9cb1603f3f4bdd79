import type { Knex } from 'knex';
import * as createOrganisations from './20261122A-create-organisations.js';
import * as createResources from './20261122B-create-resources.js';
import * as createChatbots from './20261122C-create-chatbots.js';
import * as createConversationsAndLeads from './20261122D-create-conversations-and-leads.js';
import * as createJobs from './20261122E-create-jobs.js';
import * as extendResourceChunks from './20261122F-extend-resource-chunks.js';
import * as addResourceChunkStats from './20261122G-add-resource-chunk-stats.js';
import * as createConsoleSessions from './20261123M-create-console-sessions.js';
import * as createMessageFeedback from './20261123W-create-message-feedback.js';
import * as createWebsitePages from './20261123Y-create-website-pages.js';
import * as addResourceProcessingProgress from './20261123Z-add-resource-processing-progress.js';
import * as addResourceChunkVersion from './20261124A-add-resource-chunk-version.js';
import * as mergeResourceSourceColumns from './20261125A-merge-resource-source-columns.js';
import * as createChunkSentenceVectors from './20261126A-create-chunk-sentence-vectors.js';
import * as createResourceQaPairs from './20261127A-create-resource-qa-pairs.js';
import * as createKnowledgeGapClosures from './20261127G-create-knowledge-gap-closures.js';
import * as addResourceQaVersion from './20261128M-add-resource-qa-version.js';
import * as chunkVersionIgnoresEmbeddings from './20261129A-chunk-version-ignores-embeddings.js';
import * as chunkTsvFilledOnce from './20261202P-chunk-tsv-filled-once.js';
import * as createResourceChunkStaging from './20261203P-create-resource-chunk-staging.js';
import * as createMembers from './20261128J-create-members.js';
import * as createNotifications from './20261128H-create-notifications.js';
import * as addLiveHandoff from './20261128K-add-live-handoff.js';
import * as createChatbotEmbedOrigins from './20261128L-create-chatbot-embed-origins.js';

type Migration = Knex.Migration;

/**
 * Every migration, imported statically. knex's directory loader uses native import(), which
 * bypasses vitest's and tsx's TypeScript transform (stack-notes.md § 1); a static list works in both.
 * Names never change once released: they are the rows of knex_migrations.
 */
const MIGRATIONS: ReadonlyArray<readonly [string, Migration]> = [
  ['20261122A-create-organisations', createOrganisations],
  ['20261122B-create-resources', createResources],
  ['20261122C-create-chatbots', createChatbots],
  ['20261122D-create-conversations-and-leads', createConversationsAndLeads],
  ['20261122E-create-jobs', createJobs],
  ['20261122F-extend-resource-chunks', extendResourceChunks],
  ['20261122G-add-resource-chunk-stats', addResourceChunkStats],
  ['20261123M-create-console-sessions', createConsoleSessions],
  ['20261123W-create-message-feedback', createMessageFeedback],
  ['20261123Y-create-website-pages', createWebsitePages],
  ['20261123Z-add-resource-processing-progress', addResourceProcessingProgress],
  ['20261124A-add-resource-chunk-version', addResourceChunkVersion],
  ['20261125A-merge-resource-source-columns', mergeResourceSourceColumns],
  ['20261126A-create-chunk-sentence-vectors', createChunkSentenceVectors],
  ['20261127A-create-resource-qa-pairs', createResourceQaPairs],
  ['20261127G-create-knowledge-gap-closures', createKnowledgeGapClosures],
  ['20261128M-add-resource-qa-version', addResourceQaVersion],
  ['20261129A-chunk-version-ignores-embeddings', chunkVersionIgnoresEmbeddings],
  ['20261128J-create-members', createMembers],
  ['20261128H-create-notifications', createNotifications],
  ['20261128K-add-live-handoff', addLiveHandoff],
  ['20261128L-create-chatbot-embed-origins', createChatbotEmbedOrigins],
  ['20261202P-chunk-tsv-filled-once', chunkTsvFilledOnce],
  ['20261203P-create-resource-chunk-staging', createResourceChunkStaging],
];

export const migrationSource: Knex.MigrationSource<readonly [string, Migration]> = {
  getMigrations: async () => [...MIGRATIONS],
  getMigrationName: ([name]) => name,
  getMigration: async ([, migration]) => migration,
};
