import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/test-app.js';
import { createResource, waitForProcessing } from '../resources.test-support.js';
import { startFakeServer, type FakeServer } from './fixtures/fake-servers.js';
import { makePdf } from './fixtures/make-pdf.js';

const FIXTURES = path.join(import.meta.dirname, 'fixtures');

let ctx: TestContext;
let videoHost: FakeServer;

const CAPTIONS = `WEBVTT

1
00:00:01.000 --> 00:00:04.000
Welcome to the <b>lighthouse</b> tour.

00:01:05.500 --> 00:01:09.000
The lamp was first lit in 1858.
`;

beforeAll(async () => {
  videoHost = await startFakeServer((req) => {
    if (req.url === '/videos/42.json') return { type: 'application/json', body: JSON.stringify({ title: 'Lighthouse tour', captions: CAPTIONS }) };
    if (req.url === '/videos/500.json') return { status: 503, body: 'down' };
    if (req.url === '/videos/43.json') return { type: 'application/json', body: JSON.stringify({ title: 'Silent film', captions: 'WEBVTT\n' }) };
    return { status: 404, type: 'application/json', body: '{"error":"unknown video"}' };
  });
  ctx = await createTestContext({ env: { RESOURCE_CREATION_RATE_LIMIT: '1000', VIDEO_HOST_URL: `${videoHost.url}/videos/{id}.json` } });
  ctx.startJobs();
});
afterAll(async () => {
  await ctx?.close();
  await videoHost?.close();
});

async function chunksOf(resourceId: string) {
  return ctx.database.db('resource_chunks').where({ resource_id: resourceId }).orderBy('ordinal').select('id', 'content', 'provenance', 'token_count');
}

async function upload(file: Buffer, name: string) {
  const res = await ctx.api.post('/v1/resource/file').attach('file', file, name);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string };
}

describe('text', () => {
  it('indexes text as given: NOT_STARTED → DONE, searchable, with token counts', async () => {
    const created = await createResource(ctx.api, 'text', { name: 'Quokkas', content: 'The quokka is a small wallaby. It lives on Rottnest Island near Perth.' });
    const done = await waitForProcessing(ctx.api, created.id);
    expect(done.aiProcessingStatus).toBe('DONE');
    expect(done).not.toHaveProperty('failureReason');
    const chunks = await chunksOf(created.id);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]!.token_count).toBeGreaterThan(5);
    const found = await ctx.services.resources.retrieve(ctx.org.organisationId, [created.id], 'Where do quokkas live?', 3);
    expect(found[0]).toMatchObject({ resourceId: created.id, fileName: 'Quokkas' });
    expect(found[0]!.content).toContain('Rottnest Island');
  });
});

describe('PDF', () => {
  it('reads text page by page and keeps page numbers', async () => {
    const pdf = makePdf([
      'Chapter one is about the history of tea in China.',
      'Chapter two explains that the pangolin is covered in keratin scales.',
      'Chapter three covers coffee roasting.',
    ]);
    const { id } = await upload(pdf, 'animals.pdf');
    expect((await waitForProcessing(ctx.api, id)).aiProcessingStatus).toBe('DONE');
    const chunks = await chunksOf(id);
    expect(chunks.map((chunk) => chunk.provenance.page)).toEqual([1, 2, 3]);
    const [best] = await ctx.services.resources.retrieve(ctx.org.organisationId, [id], 'What covers a pangolin?', 1);
    expect(best).toMatchObject({ provenance: { page: 2 } });
  });

  it('ends FAILED_NO_TEXT_FOUND for an image-only PDF, with the reason', async () => {
    const { id } = await upload(makePdf({ imagePages: 2 }), 'scan.pdf');
    const resource = await waitForProcessing(ctx.api, id);
    expect(resource.aiProcessingStatus).toBe('FAILED_NO_TEXT_FOUND');
    expect(resource.failureReason).toContain('no text layer');
    expect(await chunksOf(id)).toEqual([]);
  });
});

describe('MP4', () => {
  it('reads the mov_text subtitle track (moov after mdat) with timestamps', async () => {
    const { id } = await upload(fs.readFileSync(path.join(FIXTURES, 'subtitled-mov-text.mp4')), 'quokka.mp4');
    expect((await waitForProcessing(ctx.api, id)).aiProcessingStatus).toBe('DONE');
    const [chunk] = await chunksOf(id);
    expect(chunk!.content).toBe('The quokka lives on Rottnest Island. It is a small marsupial that smiles for photographs.');
    expect(chunk!.provenance).toEqual({ startSeconds: 0.5, endSeconds: 4.5 });
  });

  it('ends FAILED_NO_TEXT_FOUND for a video without subtitles when no transcription is configured', async () => {
    const { id } = await upload(fs.readFileSync(path.join(FIXTURES, 'no-subtitles.mp4')), 'silent.mp4');
    const resource = await waitForProcessing(ctx.api, id);
    expect(resource).toMatchObject({ aiProcessingStatus: 'FAILED_NO_TEXT_FOUND', videoLength: 3 });
    expect(resource.failureReason).toContain('no transcription provider');
  });
});

describe('hosted video', () => {
  it('reads the title and WebVTT captions from the video host, keeping timestamps', async () => {
    const created = await createResource(ctx.api, 'video-host', { hostedVideoId: '42' });
    const resource = await waitForProcessing(ctx.api, created.id);
    expect(resource).toMatchObject({ aiProcessingStatus: 'DONE', fileName: 'Lighthouse tour', hostedVideoId: 42 });
    // The cues are a minute apart: each is its own passage, cited at its own moment (TIMED_CHUNK_SECONDS).
    const chunks = await chunksOf(created.id);
    expect(chunks.map((chunk) => [chunk.content, chunk.provenance])).toEqual([
      ['Welcome to the lighthouse tour.', { title: 'Lighthouse tour', startSeconds: 1, endSeconds: 4 }],
      ['The lamp was first lit in 1858.', { title: 'Lighthouse tour', startSeconds: 65.5, endSeconds: 69 }],
    ]);
    expect(videoHost.requests.some((request) => request.path === '/videos/42.json')).toBe(true);
  });

  it('ends FAILED for a video the host does not know (404)', async () => {
    const created = await createResource(ctx.api, 'video-host', { hostedVideoId: '999' });
    const resource = await waitForProcessing(ctx.api, created.id);
    expect(resource.aiProcessingStatus).toBe('FAILED');
    expect(resource.failureReason).toBe('the video host does not know video 999');
  });

  it('retries a failing video host, then ends FAILED with the reason (never stays IN_PROGRESS)', async () => {
    const created = await createResource(ctx.api, 'video-host', { hostedVideoId: '500' });
    const resource = await waitForProcessing(ctx.api, created.id, 25_000);
    expect(resource).toMatchObject({ aiProcessingStatus: 'FAILED', failureReason: 'the video host answered 503' });
    expect(videoHost.requests.filter((request) => request.path === '/videos/500.json')).toHaveLength(3);
  });

  it('ends FAILED_NO_TEXT_FOUND for a video without captions', async () => {
    const created = await createResource(ctx.api, 'video-host', { hostedVideoId: '43' });
    expect((await waitForProcessing(ctx.api, created.id)).aiProcessingStatus).toBe('FAILED_NO_TEXT_FOUND');
  });
});

describe('tenant isolation in retrieval', () => {
  it('never returns another organisation\'s chunks, even given its resource id', async () => {
    const created = await createResource(ctx.api, 'text', { name: 'Secret', content: 'The vault code is kept in the blue folder.' });
    await waitForProcessing(ctx.api, created.id);
    const other = await ctx.newOrganisation();
    expect(await ctx.services.resources.retrieve(other.organisationId, [created.id], 'vault code folder', 5)).toEqual([]);
    expect(await ctx.services.resources.retrieve(ctx.org.organisationId, [created.id], 'vault code folder', 5)).toHaveLength(1);
  });
});
