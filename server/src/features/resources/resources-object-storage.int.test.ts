import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Server, S3_TEST_BUCKET, type S3TestServer } from '../../test/s3-server.js';
import { createTestContext, type TestContext } from '../../test/test-app.js';
import { makePdf } from './ingestion/fixtures/make-pdf.js';
import { waitForProcessing } from './resources.test-support.js';

const FIXTURES = path.join(import.meta.dirname, 'ingestion', 'fixtures');

let s3: S3TestServer;
let ctx: TestContext;

beforeAll(async () => {
  s3 = await startS3Server();
  ctx = await createTestContext({ env: { RESOURCE_CREATION_RATE_LIMIT: '1000', ...s3.env } });
  ctx.startJobs();
});
afterAll(async () => {
  await ctx?.close();
  await s3?.close();
});

/** The keys s3rver holds in the test bucket (it keeps each object as `<key>._S3rver_object`). */
function storedKeys(): string[] {
  const bucket = path.join(s3.directory, S3_TEST_BUCKET);
  if (!fs.existsSync(bucket)) return [];
  return (fs.readdirSync(bucket, { recursive: true }) as string[])
    .filter((entry) => entry.endsWith('._S3rver_object'))
    .map((entry) => entry.replace(/\._S3rver_object$/, ''));
}

describe('uploads in S3-compatible object storage', () => {
  it('stores an uploaded PDF as an object, ingests it from there, and deletes it with its resource', async () => {
    const created = await ctx.api.post('/v1/resource/file').attach('file', makePdf(['Lighthouses warn ships of rocks at night.']), 'lights.pdf');
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const key = `${ctx.org.organisationId}/${created.body.id}.pdf`;
    expect(storedKeys()).toContain(key);
    expect(fs.existsSync(path.join(ctx.config.dataDir, 'files'))).toBe(false);

    expect((await waitForProcessing(ctx.api, created.body.id)).aiProcessingStatus).toBe('DONE');
    const found = await ctx.services.resources.retrieve(ctx.org.organisationId, [created.body.id], 'What do lighthouses warn ships of?', 1);
    expect(found[0]?.content).toContain('rocks at night');
    // The temporary local copy that ingestion read is gone, and so is the staged upload.
    expect(fs.readdirSync(path.join(ctx.config.dataDir, 'uploads', 'incoming'))).toEqual([]);

    expect((await ctx.api.delete(`/v1/resource/${created.body.id}`)).status).toBe(200);
    expect(storedKeys()).not.toContain(key);
  });

  it('reads a video\'s subtitle track from the stored object', async () => {
    const created = await ctx.api.post('/v1/resource/file').attach('file', fs.readFileSync(path.join(FIXTURES, 'subtitled-mov-text.mp4')), 'quokka.mp4');
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(storedKeys()).toContain(`${ctx.org.organisationId}/${created.body.id}.mp4`);
    expect((await waitForProcessing(ctx.api, created.body.id)).aiProcessingStatus).toBe('DONE');
  });
});
