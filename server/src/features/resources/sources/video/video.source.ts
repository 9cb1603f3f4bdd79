import { MAX_VIDEO_SECONDS } from '@parley/shared';
import { badRequest } from '../../../../errors/http-error.js';
import { readVideo } from '../../ingestion/stages/read-video.js';
import { Mp4FormatError, probeMp4Duration } from '../../mp4-boxes.js';
import type { CreatableSource, SourceResponseFields } from '../source-module.js';
import { readStoredUpload, uploadDraft, type UploadInput } from '../stored-upload.js';
import { VideoSourceSchema } from './video-source.schema.js';

/** @throws 400 for an unreadable MP4 or one of 120 minutes or more. */
async function videoLength(filePath: string): Promise<number> {
  let seconds: number;
  try {
    seconds = await probeMp4Duration(filePath);
  } catch (err) {
    if (err instanceof Mp4FormatError) throw badRequest(`file is not a readable MP4 video: ${err.message}`);
    throw err;
  }
  if (seconds >= MAX_VIDEO_SECONDS) throw badRequest('video must be shorter than 120 minutes');
  return Math.round(seconds);
}

/** An uploaded MP4: its subtitle track, else its audio transcribed; the length is read from its header at creation. */
export const videoSource: CreatableSource<'VIDEO', UploadInput> = {
  type: 'VIDEO',
  schema: VideoSourceSchema,
  syncs: false,
  editable: false,
  fileExtension: 'mp4',
  async create(input) {
    const draft = uploadDraft('VIDEO', 'mp4', input);
    return { ...draft, source: { ...draft.source, videoLength: await videoLength(input.file.path) } };
  },
  read(ctx, resource) {
    return readStoredUpload(ctx, resource.source.storagePath, (filePath, parser, progress) =>
      readVideo(filePath, ctx.transcriber, ctx.signal, (path) => parser.call('readVideoCues', path), progress));
  },
  toResponse({ source }) {
    const fields: SourceResponseFields = {};
    if (source.videoLength !== undefined) fields.videoLength = source.videoLength;
    if (source.fileSize !== undefined) fields.fileSize = source.fileSize;
    return fields;
  },
  storedFile: (source) => source.storagePath,
};
