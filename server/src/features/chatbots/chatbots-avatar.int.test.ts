import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ABSENT_ID, TINY_PNG } from '../../test/factories.js';
import { createTestContext, type TestContext } from '../../test/test-app.js';

let ctx: TestContext;
beforeAll(async () => { ctx = await createTestContext(); });
afterAll(async () => { await ctx?.close(); });

const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(60, 1)]);
const GIF = Buffer.concat([Buffer.from('GIF89a', 'latin1'), Buffer.alloc(20)]);
const WEBP = Buffer.concat([Buffer.from('RIFF', 'latin1'), Buffer.alloc(4), Buffer.from('WEBPVP8 ', 'latin1'), Buffer.alloc(20)]);

async function newChatbot(api = ctx.api) {
  return (await api.post('/v1/chatbot').send({ name: 'Avatar bot' }).expect(201)).body as { id: string };
}

describe('PUT /v1/chatbot/avatar/{id}', () => {
  it('stores an image by its content and serves it publicly', async () => {
    const { id } = await newChatbot();
    const res = await ctx.api.put(`/v1/chatbot/avatar/${id}`).attach('file', TINY_PNG, { filename: 'avatar.txt', contentType: 'text/plain' });
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    const chatbot = (await ctx.api.get(`/v1/chatbot/${id}`)).body;
    expect(chatbot.avatarUrl).toMatch(new RegExp(`/v1/embed/${id}/avatar\\?v=\\d+$`));
    const image = await ctx.anonymous.get(new URL(chatbot.avatarUrl).pathname);
    expect(image.status).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(image.body as Buffer, TINY_PNG)).toBe(0);
  });

  it.each([['jpeg', JPEG, 'image/jpeg'], ['gif', GIF, 'image/gif'], ['webp', WEBP, 'image/webp']])('accepts %s', async (_name, bytes, type) => {
    const { id } = await newChatbot();
    await ctx.api.put(`/v1/chatbot/avatar/${id}`).attach('file', bytes, 'x.bin').expect(200);
    expect((await ctx.anonymous.get(`/v1/embed/${id}/avatar`)).headers['content-type']).toBe(type);
  });

  it('answers 400 for a non-image, a missing file, a wrong part name and a file of 5 MB', async () => {
    const { id } = await newChatbot();
    const svg = await ctx.api.put(`/v1/chatbot/avatar/${id}`).attach('file', Buffer.from('<svg onload="alert(1)"/>'), 'a.png');
    expect(svg.status).toBe(400);
    expect(svg.body.message).toEqual(['file must be a PNG, JPEG, WebP or GIF image']);
    const missing = await ctx.api.put(`/v1/chatbot/avatar/${id}`).field('note', 'x');
    expect(missing.status).toBe(400);
    const wrongPart = await ctx.api.put(`/v1/chatbot/avatar/${id}`).attach('image', TINY_PNG, 'a.png');
    expect(wrongPart.status).toBe(400);
    expect(wrongPart.body.message).toEqual(['property image should not exist']);
    const big = Buffer.concat([TINY_PNG, Buffer.alloc(5 * 1024 * 1024)]);
    const tooBig = await ctx.api.put(`/v1/chatbot/avatar/${id}`).attach('file', big, 'big.png');
    expect(tooBig.status).toBe(400);
    expect(tooBig.body.message).toEqual(['file is too large']);
    await ctx.anonymous.get(`/v1/embed/${id}/avatar`).expect(404);
  });

  it('answers 404 for another organisation\'s chatbot, 400 for a malformed id, 401 without a key', async () => {
    const other = await ctx.newOrganisation();
    const { id } = await newChatbot(other.api);
    expect((await ctx.api.put(`/v1/chatbot/avatar/${id}`).attach('file', TINY_PNG, 'a.png')).status).toBe(404);
    expect((await ctx.api.put(`/v1/chatbot/avatar/${ABSENT_ID}`).attach('file', TINY_PNG, 'a.png')).status).toBe(404);
    expect((await ctx.api.put('/v1/chatbot/avatar/1').attach('file', TINY_PNG, 'a.png')).status).toBe(400);
    expect((await ctx.anonymous.put(`/v1/chatbot/avatar/${id}`).attach('file', TINY_PNG, 'a.png')).status).toBe(401);
  });

  it('never serves the avatar of a PROTECTED chatbot', async () => {
    const { id } = await newChatbot();
    await ctx.api.put(`/v1/chatbot/avatar/${id}`).attach('file', TINY_PNG, 'a.png').expect(200);
    await ctx.api.put(`/v1/chatbot/${id}`).send({ accessLevel: 'PROTECTED' }).expect(200);
    expect((await ctx.anonymous.get(`/v1/embed/${id}/avatar`)).status).toBe(403);
  });
});
