import { ResourceSchema } from '@parley/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../src/test/test-app.js';

const MIGRATION = '20261125A-merge-resource-source-columns';

let ctx: TestContext;
beforeAll(async () => { ctx = await createTestContext(); });
afterAll(async () => { await ctx?.close(); });

const id = (n: number) => n.toString(16).padStart(24, '0');

/** One row of each type as the columns before the migration held them (rows from before it, in production). */
function oldRows(organisationId: string, creator: string) {
  const common = { organisation_id: organisationId, creator, created_at: 1_700_000_000_000, ai_processing_status: 'DONE', tags: ['kept'], stored_bytes: 0 };
  const settings = { discovery: 'SITEMAP', maxPages: 20, removeSelectors: ['nav'] };
  return [
    { ...common, id: id(1), type: 'TEXT', file_name: 'notes', text_content: 'Opening hours are nine to five.', stored_bytes: 31 },
    { ...common, id: id(2), type: 'PDF', file_name: 'manual.pdf', storage_path: `${organisationId}/${id(2)}.pdf`, file_size: 5_000_000_000, stored_bytes: 5_000_000_000 },
    { ...common, id: id(3), type: 'VIDEO', file_name: 'clip.mp4', storage_path: `${organisationId}/${id(3)}.mp4`, file_size: 1234, video_length: 65, stored_bytes: 1234 },
    { ...common, id: id(4), type: 'HOSTED_VIDEO', file_name: 'Lighthouse tour', hosted_video_id: 123_456_789_012_345, stored_bytes: 99 },
    {
      ...common, id: id(5), type: 'WEB', file_name: 'https://shop.test/', website_url: 'https://shop.test/', website_sub_links: ['https://shop.test/a'],
      website_settings: JSON.stringify(settings), sync_frequency: 'ONE_DAY', last_sync: 1_700_000_100_000, next_sync_at: 1_700_086_500_000,
      website_indexed_links: JSON.stringify(['https://shop.test/', 'https://shop.test/b', 'https://shop.test/c']),
    },
    { ...common, id: id(6), type: 'WEB', file_name: 'https://plain.test/', website_url: 'https://plain.test/', website_settings: JSON.stringify({}), sync_frequency: 'NEVER' },
    {
      ...common, id: id(7), type: 'DRIVE', file_name: 'Plan.docx', ai_processing_status: 'FAILED', failure_reason: 'DRIVE resources are not read by this service',
      drive_resource_file: JSON.stringify({ driveAccountId: 'acc', fileId: 'f1', fileName: 'Plan.docx', mimeType: 'application/msword', webViewLink: 'https://drive/x', recursive: 'true' }),
    },
  ];
}

/** What the API answered for these rows before the migration (the wire contract must not change). */
function expectedResponses(organisation: string, creator: string) {
  const common = { organisation, creator, createdAt: 1_700_000_000_000, aiProcessingStatus: 'DONE', tags: ['kept'] };
  return [
    { id: id(1), ...common, fileName: 'notes', type: 'TEXT' },
    { id: id(2), ...common, fileName: 'manual.pdf', type: 'PDF', fileSize: 5_000_000_000 },
    { id: id(3), ...common, fileName: 'clip.mp4', type: 'VIDEO', videoLength: 65, fileSize: 1234 },
    { id: id(4), ...common, fileName: 'Lighthouse tour', type: 'HOSTED_VIDEO', hostedVideoId: 123_456_789_012_345 },
    {
      id: id(5), ...common, fileName: 'https://shop.test/', type: 'WEB', website: { url: 'https://shop.test/', subLinks: ['https://shop.test/b', 'https://shop.test/c'] },
      syncFrequencyMs: 86_400_000, lastSync: 1_700_000_100_000,
    },
    { id: id(6), ...common, fileName: 'https://plain.test/', type: 'WEB', website: { url: 'https://plain.test/', subLinks: [] } },
    {
      id: id(7), ...common, fileName: 'Plan.docx', type: 'DRIVE', aiProcessingStatus: 'FAILED',
      driveResourceFile: { driveAccountId: 'acc', fileId: 'f1', fileName: 'Plan.docx', mimeType: 'application/msword', webViewLink: 'https://drive/x', recursive: 'true' },
      failureReason: 'DRIVE resources are not read by this service',
    },
  ];
}

const MOVED_COLUMNS = ['hosted_video_id', 'drive_resource_file', 'website_url', 'website_sub_links', 'website_settings', 'website_indexed_links',
  'sync_frequency', 'video_length', 'file_size', 'storage_path', 'text_content', 'stored_bytes', 'last_sync', 'next_sync_at'];

describe(`migration ${MIGRATION}`, () => {
  it('carries every type\'s columns into `source` and back, answering the API exactly as before', async () => {
    const { db } = ctx.database;
    const { organisationId, userId } = ctx.org;
    await db.migrate.down({ name: MIGRATION });
    expect(await db.schema.hasColumn('resources', 'source')).toBe(false);
    const rows = oldRows(organisationId, userId);
    await db('resources').insert(rows);

    await db.migrate.up({ name: MIGRATION });
    expect(await db.schema.hasColumn('resources', 'website_url')).toBe(false);
    for (const expected of expectedResponses(organisationId, userId)) {
      const res = await ctx.api.get(`/v1/resource/${expected.id}`).expect(200);
      // Key order included: the body is the same bytes as before.
      expect(JSON.stringify(res.body)).toBe(JSON.stringify(ResourceSchema.parse(expected)));
    }
    expect((await ctx.api.get(`/v1/resource/text/${id(1)}`).expect(200)).body.content).toBe('Opening hours are nine to five.');

    await db.migrate.down({ name: MIGRATION });
    const restored = await db('resources').whereIn('id', rows.map((row) => row.id)).orderBy('id').select(['id', ...MOVED_COLUMNS]);
    const normalise = (row: Record<string, unknown>) => Object.fromEntries(MOVED_COLUMNS.map((column) => {
      const value = row[column] ?? null;
      return [column, typeof value === 'string' && column !== 'text_content' && /^[[{]/.test(value) ? JSON.parse(value) : value];
    }));
    expect(restored.map(normalise)).toEqual(rows.map(normalise));
    await db.migrate.up({ name: MIGRATION });
  });
});
