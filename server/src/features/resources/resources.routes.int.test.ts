import fs from 'node:fs';
import path from 'node:path';
import { ErrorBodySchema, ResourceListSchema, ResourceSchema } from '@parley/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ABSENT_ID } from '../../test/factories.js';
import { createTestContext, type TestContext } from '../../test/test-app.js';
import { makePdf } from './ingestion/fixtures/make-pdf.js';
import { createResource } from './resources.test-support.js';

const FIXTURES = path.join(import.meta.dirname, 'ingestion', 'fixtures');
const SUBTITLED_MP4 = fs.readFileSync(path.join(FIXTURES, 'subtitled-mov-text.mp4'));

/** An ISO-BMFF box of a type and body. */
function mp4Box(type: string, body: Buffer): Buffer {
  const size = Buffer.alloc(4);
  size.writeUInt32BE(8 + body.length);
  return Buffer.concat([size, Buffer.from(type, 'latin1'), body]);
}

/** An MP4 whose boxes all fit the file but whose `moov/mvhd` header is cut short after `mvhdBody`. */
function mp4WithShortMvhd(mvhdBody: Buffer): Buffer {
  return Buffer.concat([mp4Box('ftyp', Buffer.from('isom\0\0\0\0isommp41', 'latin1')), mp4Box('moov', mp4Box('mvhd', mvhdBody))]);
}

let ctx: TestContext;
beforeAll(async () => { ctx = await createTestContext({ env: { RESOURCE_CREATION_RATE_LIMIT: '1000' } }); });
afterAll(async () => { await ctx?.close(); });

async function expect400(res: { status: number; body: unknown }, message: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(ErrorBodySchema.parse(res.body)).toMatchObject({ statusCode: 400, error: 'Bad Request' });
  expect((res.body as { message: string[] }).message).toContain(message);
}

describe('POST /v1/resource/text', () => {
  it('creates a TEXT resource, NOT_STARTED, with its tags', async () => {
    const resource = await createResource(ctx.api, 'text', { name: 'Notes', content: 'Quokkas live on Rottnest Island.', tags: ['animals'] });
    expect(resource).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/), organisation: ctx.org.organisationId, creator: ctx.org.userId, fileName: 'Notes',
      type: 'TEXT', createdAt: expect.any(Number), aiProcessingStatus: 'NOT_STARTED', tags: ['animals'],
    });
  });

  it.each([
    [{ content: 'x' }, 'name is required'],
    [{ name: 'n' }, 'content is required'],
    [{ name: 'n', content: '' }, 'content must not be empty'],
    [{ name: 'n', content: 7 }, 'content must be a string'],
    [{ name: 'n', content: 'x', tags: 'a' }, 'tags must be an array'],
    [{ name: 'n', content: 'x', tags: Array.from({ length: 51 }, (_, i) => `t${i}`) }, 'tags must contain at most 50 tags'],
    [{ name: 'n', content: 'x', tags: ['x'.repeat(101)] }, 'tags[0] must be at most 100 characters'],
    [{ name: 'n', content: 'x', extra: true }, 'property extra should not exist'],
  ])('answers 400 for %j', async (body, message) => {
    await expect400(await ctx.api.post('/v1/resource/text').send(body), message);
  });

  it('accepts 5,000,000 characters and refuses one more', async () => {
    const big = 'a'.repeat(5_000_000);
    expect((await ctx.api.post('/v1/resource/text').send({ name: 'big', content: big })).status).toBe(201);
    await expect400(await ctx.api.post('/v1/resource/text').send({ name: 'big', content: `${big}a` }), 'content must be at most 5000000 characters');
  });

  it('answers 401 without a key and 400 for malformed JSON', async () => {
    expect((await ctx.anonymous.post('/v1/resource/text').send({ name: 'n', content: 'x' })).status).toBe(401);
    await expect400(await ctx.api.post('/v1/resource/text').set('content-type', 'application/json').send('{"name":'), 'body must be valid JSON');
  });
});

describe('POST /v1/resource/video-host', () => {
  it('creates a HOSTED_VIDEO resource with an integer hostedVideoId', async () => {
    const resource = await createResource(ctx.api, 'video-host', { hostedVideoId: '123456' });
    expect(resource).toMatchObject({ type: 'HOSTED_VIDEO', hostedVideoId: 123456, tags: [] });
  });

  it.each([
    [{}, 'hostedVideoId is required'],
    [{ hostedVideoId: 12 }, 'hostedVideoId must be a string'],
    [{ hostedVideoId: '12a' }, 'hostedVideoId must be a string of 1 to 15 digits'],
  ])('answers 400 for %j', async (body, message) => {
    await expect400(await ctx.api.post('/v1/resource/video-host').send(body), message);
  });
});

describe('POST /v1/resource/website', () => {
  it('creates a WEB resource with its pages and sync period', async () => {
    const resource = await createResource(ctx.api, 'website', {
      url: 'https://example.com/', subLinks: ['https://example.com/a'], syncFrequency: 'ONE_DAY',
      settings: { delayBetweenExtractionMs: 10, targetSelectors: ['main'], removeSelectors: ['.ad'], userAgent: 'TestBot/1.0' },
    });
    expect(resource).toMatchObject({
      type: 'WEB', fileName: 'https://example.com/', website: { url: 'https://example.com/', subLinks: ['https://example.com/a'] },
      syncFrequencyMs: 86_400_000, aiProcessingStatus: 'NOT_STARTED',
    });
    expect(resource).not.toHaveProperty('lastSync');
  });

  it('defaults syncFrequency to NEVER, which omits syncFrequencyMs', async () => {
    const resource = await createResource(ctx.api, 'website', { url: 'https://example.com/' });
    expect(resource).not.toHaveProperty('syncFrequencyMs');
    expect(resource.website).toEqual({ url: 'https://example.com/', subLinks: [] });
  });

  it.each([
    [{}, 'url is required'],
    [{ url: 'ftp://example.com/' }, 'url must be an http or https URL'],
    [{ url: 'https://example.com/', subLinks: ['nope'] }, 'subLinks[0] must be an http or https URL'],
    [{ url: 'https://example.com/', subLinks: Array.from({ length: 1001 }, (_, i) => `https://example.com/${i}`) }, 'subLinks must contain at most 1000 URLs'],
    [{ url: 'https://example.com/', syncFrequency: 'HOURLY' }, 'syncFrequency must be one of: ONE_DAY, THREE_DAYS, SEVEN_DAYS, ONE_MONTH, NEVER'],
    [{ url: 'https://example.com/', settings: { delayBetweenExtractionMs: 60_001 } }, 'settings.delayBetweenExtractionMs must be at most 60000'],
    [{ url: 'https://example.com/', settings: { delayBetweenExtractionMs: -1 } }, 'settings.delayBetweenExtractionMs must be at least 0'],
    [{ url: 'https://example.com/', settings: { targetSelectors: ['p:nope'] } }, 'settings.targetSelectors[0] must be a valid CSS selector'],
    [{ url: 'https://example.com/', settings: { removeSelectors: ['[[['] } }, 'settings.removeSelectors[0] must be a valid CSS selector'],
    [{ url: 'https://example.com/', settings: { depth: 2 } }, 'property settings.depth should not exist'],
  ])('answers 400 for %j', async (body, message) => {
    await expect400(await ctx.api.post('/v1/resource/website').send(body), message);
  });
});

describe('POST /v1/resource/file', () => {
  it('stores a PDF (type by content, not by name) with its size', async () => {
    const pdf = makePdf(['A page of text.']);
    const res = await ctx.api.post('/v1/resource/file').attach('file', pdf, { filename: 'manual.bin', contentType: 'application/octet-stream' })
      .field('tags', 'docs').field('tags', 'v2');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const resource = ResourceSchema.parse(res.body);
    expect(resource).toMatchObject({ type: 'PDF', fileName: 'manual.bin', fileSize: pdf.length, tags: ['docs', 'v2'], aiProcessingStatus: 'NOT_STARTED' });
    expect(resource).not.toHaveProperty('videoLength');
    const stored = fs.readdirSync(path.join(ctx.config.dataDir, 'files', ctx.org.organisationId));
    expect(stored).toContain(`${resource.id}.pdf`);
  });

  it('stores an MP4 and answers with its length, read from the header at upload', async () => {
    const res = await ctx.api.post('/v1/resource/file').attach('file', SUBTITLED_MP4, 'clip.mp4').field('tags', '["a","b"]');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ type: 'VIDEO', fileName: 'clip.mp4', fileSize: SUBTITLED_MP4.length, videoLength: 5, tags: ['a', 'b'] });
  });

  it('answers 400 for a file of no known type (a PNG), even named .pdf, and removes it', async () => {
    const res = await ctx.api.post('/v1/resource/file').attach('file', Buffer.from('89504e470d0a1a0a0000000d4948445200', 'hex'), 'fake.pdf');
    await expect400(res, 'file must be a PDF, an MP4 video, a Word document (DOCX), PowerPoint slides (PPTX), or a UTF-8 '
      + 'Markdown, plain text, HTML or CSV file (recognised by content, not by name)');
    expect(fs.readdirSync(path.join(ctx.config.dataDir, 'uploads', 'incoming'))).toEqual([]);
  });

  it('answers 400 for a video of 120 minutes or more', async () => {
    const long = Buffer.from(SUBTITLED_MP4);
    // Rewrite mvhd's duration to 7200 s at the file's own timescale.
    const mvhd = long.indexOf('mvhd');
    const timescale = long.readUInt32BE(mvhd + 4 + 12);
    long.writeUInt32BE(7200 * timescale, mvhd + 4 + 16);
    await expect400(await ctx.api.post('/v1/resource/file').attach('file', long, 'long.mp4'), 'video must be shorter than 120 minutes');
  });

  it.each([
    ['no file', (req: ReturnType<TestContext['api']['post']>) => req.field('tags', 'x'), 'file is required (multipart part "file")'],
    ['bad tags JSON', (req: ReturnType<TestContext['api']['post']>) => req.attach('file', makePdf(['x']), 'a.pdf').field('tags', '["a",'), 'tags must be repeated fields or one JSON array of strings'],
    ['an unknown field', (req: ReturnType<TestContext['api']['post']>) => req.attach('file', makePdf(['x']), 'a.pdf').field('color', 'red'), 'property color should not exist'],
    ['a file under another name', (req: ReturnType<TestContext['api']['post']>) => req.attach('document', makePdf(['x']), 'a.pdf'), 'property document should not exist'],
    ['a truncated MP4', (req: ReturnType<TestContext['api']['post']>) => req.attach('file', SUBTITLED_MP4.subarray(0, 100), 'a.mp4'), 'file is not a readable MP4 video: box mdat does not fit the file'],
    ['an MP4 whose mvhd box is only a header', (req: ReturnType<TestContext['api']['post']>) => req.attach('file', mp4WithShortMvhd(Buffer.alloc(0)), 'a.mp4'), 'file is not a readable MP4 video: the mvhd box is truncated'],
    ['an MP4 whose mvhd header is cut short', (req: ReturnType<TestContext['api']['post']>) => req.attach('file', mp4WithShortMvhd(Buffer.alloc(10)), 'a.mp4'), 'file is not a readable MP4 video: the mvhd box is truncated'],
    ['an MP4 whose version 1 mvhd header is cut short', (req: ReturnType<TestContext['api']['post']>) => req.attach('file', mp4WithShortMvhd(Buffer.concat([Buffer.from([1]), Buffer.alloc(27)])), 'a.mp4'), 'file is not a readable MP4 video: the mvhd box is truncated'],
  ])('answers 400 for %s', async (_name, build, message) => {
    await expect400(await build(ctx.api.post('/v1/resource/file')), message);
  });
});

describe('authentication', () => {
  it.each([
    ['get', '/v1/resource/all'], ['get', `/v1/resource/${ABSENT_ID}`], ['delete', `/v1/resource/${ABSENT_ID}`],
    ['post', '/v1/resource/file'], ['post', '/v1/resource/text'], ['post', '/v1/resource/video-host'], ['post', '/v1/resource/website'],
  ] as const)('answers 401 to %s %s without a valid key', async (method, url) => {
    for (const res of [await ctx.anonymous[method](url), await ctx.anonymous[method](url).set('x-api-key', 'not-a-key')]) {
      expect(res.status).toBe(401);
      expect(ErrorBodySchema.parse(res.body).statusCode).toBe(401);
    }
  });
});

describe('upload size rule', () => {
  it('refuses a file of 1000 MB or more (the service\'s check behind multer\'s limit)', async () => {
    const small = path.join(ctx.config.dataDir, 'claims-to-be-huge.pdf');
    fs.writeFileSync(small, makePdf(['x']));
    const auth = (await ctx.services.organisations.authenticate(ctx.org.apiKey))!;
    const upload = { file: { path: small, size: 1000 * 1024 * 1024, originalName: 'huge.pdf', claimedType: 'application/pdf' }, fields: {} };
    await expect(ctx.services.resources.createFile(auth, upload)).rejects.toMatchObject({ statusCode: 400, messages: ['file must be smaller than 1000 MB'] });
    expect(fs.existsSync(small)).toBe(false);
  });
});

describe('GET and DELETE /v1/resource/{id}', () => {
  it('lists the organisation\'s resources newest first', async () => {
    const first = await createResource(ctx.api, 'text', { name: 'first', content: 'one' });
    const second = await createResource(ctx.api, 'text', { name: 'second', content: 'two' });
    const list = ResourceListSchema.parse((await ctx.api.get('/v1/resource/all').expect(200)).body);
    expect(list.map((resource) => resource.id).slice(0, 2)).toEqual([second.id, first.id]);
  });

  it('reads one resource; 400 for a malformed id, 404 for an absent one', async () => {
    const created = await createResource(ctx.api, 'text', { name: 'read me', content: 'x' });
    expect((await ctx.api.get(`/v1/resource/${created.id}`).expect(200)).body).toEqual(created);
    await expect400(await ctx.api.get('/v1/resource/xyz'), 'id must be a 24-character lower-case hex id');
    expect((await ctx.api.get(`/v1/resource/${ABSENT_ID}`)).status).toBe(404);
  });

  it('reads a DRIVE resource back with its driveResourceFile', async () => {
    const id = 'aa'.repeat(12);
    await ctx.database.db('resources').insert({
      id, organisation_id: ctx.org.organisationId, creator: ctx.org.userId, file_name: 'Plan.docx', type: 'DRIVE', created_at: Date.now(),
      ai_processing_status: 'DONE', tags: [], source: JSON.stringify({ file: {
        driveAccountId: 'acc', fileId: 'f1', fileName: 'Plan.docx', mimeType: 'application/msword', webViewLink: 'https://drive/x', recursive: false,
      } }),
    });
    expect((await ctx.api.get(`/v1/resource/${id}`).expect(200)).body).toMatchObject({
      type: 'DRIVE', driveResourceFile: { driveAccountId: 'acc', fileId: 'f1', fileName: 'Plan.docx', mimeType: 'application/msword', webViewLink: 'https://drive/x', recursive: 'false' },
    });
  });

  it('deletes a resource with its stored file and returns it', async () => {
    const res = await ctx.api.post('/v1/resource/file').attach('file', makePdf(['bye']), 'bye.pdf').expect(201);
    const file = path.join(ctx.config.dataDir, 'files', ctx.org.organisationId, `${res.body.id}.pdf`);
    expect(fs.existsSync(file)).toBe(true);
    expect((await ctx.api.delete(`/v1/resource/${res.body.id}`).expect(200)).body).toEqual(res.body);
    expect(fs.existsSync(file)).toBe(false);
    expect((await ctx.api.get(`/v1/resource/${res.body.id}`)).status).toBe(404);
    expect((await ctx.api.delete(`/v1/resource/${res.body.id}`)).status).toBe(404);
  });

  it('answers 409 listing the chatbots that use the resource', async () => {
    const resource = await createResource(ctx.api, 'text', { name: 'used', content: 'x' });
    const chatbot = (await ctx.api.post('/v1/chatbot').send({ name: 'Bot', resourceIds: [resource.id] }).expect(201)).body;
    const res = await ctx.api.delete(`/v1/resource/${resource.id}`);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ statusCode: 409, error: 'Conflict', chatbots: [chatbot.id] });
    expect(ErrorBodySchema.parse(res.body).message[0]).toContain('used by 1 chatbot');
    await ctx.api.put(`/v1/chatbot/${chatbot.id}`).send({ resourceIds: [] }).expect(200);
    expect((await ctx.api.delete(`/v1/resource/${resource.id}`)).status).toBe(200);
  });

  it('keeps organisations apart: another organisation gets 404 and an empty list', async () => {
    const resource = await createResource(ctx.api, 'text', { name: 'private', content: 'x' });
    const other = await ctx.newOrganisation();
    expect((await other.api.get(`/v1/resource/${resource.id}`)).status).toBe(404);
    expect((await other.api.delete(`/v1/resource/${resource.id}`)).status).toBe(404);
    expect((await other.api.get('/v1/resource/all').expect(200)).body).toEqual([]);
    expect((await ctx.api.get(`/v1/resource/${resource.id}`)).status).toBe(200);
  });
});
