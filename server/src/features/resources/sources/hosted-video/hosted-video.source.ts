import type { VideoHostResourceCreate } from '@parley/shared';
import { IngestionFailedError } from '../../ingestion/ingestion-types.js';
import { fetchHostedVideo } from '../../ingestion/stages/fetch-hosted-video.js';
import type { CreatableSource } from '../source-module.js';
import { HostedVideoSourceSchema } from './hosted-video-source.schema.js';

/** A video on the configured video host: its captions, re-read on `sync now`. */
export const hostedVideoSource: CreatableSource<'HOSTED_VIDEO', VideoHostResourceCreate> = {
  type: 'HOSTED_VIDEO',
  schema: HostedVideoSourceSchema,
  syncs: true,
  editable: false,
  async create(body) {
    const hostedVideoId = Number(body.hostedVideoId);
    return { type: 'HOSTED_VIDEO', fileName: `Hosted video ${hostedVideoId}`, tags: body.tags, source: { hostedVideoId } };
  },
  read(ctx, { source }) {
    if (source.hostedVideoId === undefined) throw new IngestionFailedError('the resource names no hosted video');
    return fetchHostedVideo(source.hostedVideoId, { urlTemplate: ctx.videoHostUrl, allowPrivateNetworks: ctx.allowPrivateNetworks }, ctx.signal);
  },
  // The captions are what it stores; the host's title names it once known.
  afterRead: (_resource, output, facts) => ({ fields: { storedBytes: facts.textBytes, ...(output.title ? { fileName: output.title } : {}) } }),
  toResponse: ({ source }) => (source.hostedVideoId === undefined ? {} : { hostedVideoId: source.hostedVideoId }),
};
