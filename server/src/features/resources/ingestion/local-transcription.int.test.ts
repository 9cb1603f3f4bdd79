import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ChatResponseSchema, PassageListingSchema } from '@parley/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/test-app.js';
import { waitForProcessing } from '../resources.test-support.js';
import { startFakeServer, type FakeServer } from './fixtures/fake-servers.js';
import { canMakeSpeechVideos, makeSpeechVideo, MUSEUM_TALK } from './fixtures/make-speech-video.js';
import { findWhisperRuntime } from './local-whisper/whisper-runtime.js';

const RUNTIME_DIR = path.resolve(import.meta.dirname, '../../../../transcription-runtime');
const FIXTURES = path.join(import.meta.dirname, 'fixtures');
/** Whisper tiny on 2 shared cores: about a real-time factor of 3, plus loading the model. */
const TRANSCRIPTION_TIMEOUT_MS = 180_000;
// CI installs the runtime and espeak-ng (.ci/run, .ci/prepare-system.sh), so there these tests
// never skip; a developer without `npm run install:transcription` skips them.
const canTranscribe = 'runtime' in findWhisperRuntime(RUNTIME_DIR) && canMakeSpeechVideos();

describe.skipIf(!canTranscribe && !process.env.CI)('offline transcription (Whisper tiny)', () => {
  let ctx: TestContext;
  let work: string;

  beforeAll(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-transcription-'));
    // The talk starts after 4 s of silence: its passages must be cited at about 0:04, not 0:00.
    makeSpeechVideo(path.join(work, 'museum.mp4'), [{ text: MUSEUM_TALK, atSeconds: 4 }], 20);
    makeSpeechVideo(path.join(work, 'silent.mp4'), [], 5);
    ctx = await createTestContext({ env: { RESOURCE_CREATION_RATE_LIMIT: '1000', LOCAL_TRANSCRIPTION: 'true', LOCAL_TRANSCRIPTION_DIR: RUNTIME_DIR } });
    ctx.startJobs();
  });
  afterAll(async () => {
    await ctx?.close();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  it('transcribes an MP4 without subtitles offline; chat finds it and cites the moment it is said', async () => {
    const upload = await ctx.api.post('/v1/resource/file').attach('file', fs.readFileSync(path.join(work, 'museum.mp4')), 'museum.mp4').expect(201);
    const done = await waitForProcessing(ctx.api, upload.body.id, TRANSCRIPTION_TIMEOUT_MS);
    expect(done.aiProcessingStatus, done.failureReason).toBe('DONE');
    expect(done.processingProgress).toBeUndefined();

    const { passages } = PassageListingSchema.parse((await ctx.api.get(`/v1/resource/${upload.body.id}/passages`).expect(200)).body);
    expect(passages).toHaveLength(1);
    expect(passages[0]!.text).toMatch(/museum.*visitors.*postcards/is);
    expect(passages[0]!.timestampSec).toBeGreaterThan(3);
    expect(passages[0]!.timestampSec).toBeLessThan(5);

    const chatbot = await ctx.api.post('/v1/chatbot').send({ name: 'Museum', resourceIds: [upload.body.id] }).expect(201);
    const res = await ctx.api.post('/v1/chatbot/chat').send({ chatbotId: chatbot.body.id, conversation: [{ text: 'Does the gift shop sell postcards?', fromUser: true }] });
    expect(res.status).toBe(201);
    const answer = ChatResponseSchema.parse(res.body);
    expect(answer.text).toMatch(/postcards/i);
    expect(answer.sources).toEqual([expect.objectContaining({ resourceId: upload.body.id, timestampSec: passages[0]!.timestampSec })]);
  }, TRANSCRIPTION_TIMEOUT_MS + 10_000);

  it('ends a silent video without subtitles FAILED_NO_TEXT_FOUND (Whisper is not asked to invent words)', async () => {
    const upload = await ctx.api.post('/v1/resource/file').attach('file', fs.readFileSync(path.join(work, 'silent.mp4')), 'silent.mp4').expect(201);
    const done = await waitForProcessing(ctx.api, upload.body.id, TRANSCRIPTION_TIMEOUT_MS);
    expect(done).toMatchObject({ aiProcessingStatus: 'FAILED_NO_TEXT_FOUND', failureReason: 'the video has no subtitle track and its transcript is empty' });
  }, TRANSCRIPTION_TIMEOUT_MS + 10_000);
});

describe('offline transcription, runtime and provider', () => {
  let provider: FakeServer | undefined;
  afterAll(async () => { await provider?.close(); });

  it('without the runtime, a video without subtitles ends FAILED_NO_TEXT_FOUND saying how to install it', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-no-runtime-'));
    const ctx = await createTestContext({ env: { LOCAL_TRANSCRIPTION: 'true', LOCAL_TRANSCRIPTION_DIR: empty } });
    try {
      ctx.startJobs();
      const upload = await ctx.api.post('/v1/resource/file').attach('file', fs.readFileSync(path.join(FIXTURES, 'no-subtitles.mp4')), 'beep.mp4').expect(201);
      const done = await waitForProcessing(ctx.api, upload.body.id);
      expect(done.aiProcessingStatus).toBe('FAILED_NO_TEXT_FOUND');
      expect(done.failureReason).toBe('the video has no subtitle track and no transcription provider is configured; '
        + 'the offline transcription runtime is not installed (run `npm run install:transcription` on the server for offline transcription)');
    } finally {
      await ctx.close();
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });

  it('a configured transcription provider is used before the offline runtime', async () => {
    provider = await startFakeServer((req) => (req.url === '/v1/audio/transcriptions'
      // Plain text without segments (a server that ignores verbose_json): still dated, from 0:00.
      ? { type: 'application/json', body: JSON.stringify({ text: 'A beep from the provider.' }) }
      : { status: 404 }));
    const ctx = await createTestContext({ env: { LOCAL_TRANSCRIPTION: 'true', LOCAL_TRANSCRIPTION_DIR: RUNTIME_DIR, TRANSCRIPTION_BASE_URL: `${provider.url}/v1` } });
    try {
      ctx.startJobs();
      const upload = await ctx.api.post('/v1/resource/file').attach('file', fs.readFileSync(path.join(FIXTURES, 'no-subtitles.mp4')), 'beep.mp4').expect(201);
      expect((await waitForProcessing(ctx.api, upload.body.id)).aiProcessingStatus).toBe('DONE');
      const { passages } = PassageListingSchema.parse((await ctx.api.get(`/v1/resource/${upload.body.id}/passages`).expect(200)).body);
      expect(passages).toEqual([{ text: 'A beep from the provider.', timestampSec: 0 }]);
    } finally {
      await ctx.close();
    }
  });
});
