import { z } from 'zod';
import { BlockedAddressError, safeFetch } from '../../../../net/safe-fetch.js';
import { IngestionFailedError, NoTextFoundError, type ReaderOutput } from '../ingestion-types.js';
import { parseWebVtt } from './parse-webvtt.js';

/** What the video host answers for one video (decisions.md § Running it). */
const HostedVideoSchema = z.object({ title: z.string().optional(), captions: z.string().optional() });

export interface VideoHostOptions {
  /** URL template with `{id}` (VIDEO_HOST_URL). */
  urlTemplate?: string;
  allowPrivateNetworks: boolean;
}

/**
 * Reads a hosted video's title and WebVTT captions from the configured video host, through the
 * SSRF guard. A video the host does not know (404) ends FAILED; a host error (5xx) is retried.
 * @throws IngestionFailedError, NoTextFoundError
 */
export async function fetchHostedVideo(hostedVideoId: number, options: VideoHostOptions, signal?: AbortSignal): Promise<ReaderOutput> {
  if (!options.urlTemplate) throw new IngestionFailedError('no video host is configured (VIDEO_HOST_URL)');
  const url = options.urlTemplate.replaceAll('{id}', encodeURIComponent(String(hostedVideoId)));
  let response;
  try {
    response = await safeFetch(url, { allowPrivateNetworks: options.allowPrivateNetworks, signal, headers: { accept: 'application/json' } });
  } catch (err) {
    if (err instanceof BlockedAddressError) throw new IngestionFailedError(err.message);
    throw err;
  }
  if (response.status === 404) throw new IngestionFailedError(`the video host does not know video ${hostedVideoId}`);
  if (response.status >= 500) throw new Error(`the video host answered ${response.status}`);
  if (response.status !== 200) throw new IngestionFailedError(`the video host answered ${response.status} for video ${hostedVideoId}`);
  let video: z.infer<typeof HostedVideoSchema>;
  try {
    video = HostedVideoSchema.parse(JSON.parse(response.body.toString('utf8')));
  } catch {
    throw new IngestionFailedError(`the video host's answer for video ${hostedVideoId} is not the expected JSON`);
  }
  const title = video.title?.trim() || undefined;
  const cues = parseWebVtt(video.captions ?? '');
  if (cues.length === 0) throw new NoTextFoundError(`hosted video ${hostedVideoId} has no captions`);
  return { title, sections: [{ provenance: title ? { title } : {}, units: cues }] };
}
