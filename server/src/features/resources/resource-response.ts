import { SYNC_FREQUENCY_MS, type Resource } from '@parley/shared';
import type { ResourceRecord } from './resources.repository.js';

/**
 * A website's `subLinks`: the ones given (the contract) or, when pages are discovered, the pages
 * the last crawl indexed besides `url` (the given ones until a crawl has finished).
 */
function websiteSubLinks(record: ResourceRecord): string[] {
  const discovers = (record.websiteSettings?.discovery ?? 'NONE') !== 'NONE';
  if (!discovers || !record.websiteIndexedLinks) return record.websiteSubLinks ?? [];
  const root = new URL(record.websiteUrl!).href;
  return record.websiteIndexedLinks.filter((link) => link !== root);
}

/** The API's view of a resource: fields that do not apply to its type are omitted. */
export function toResourceResponse(record: ResourceRecord): Resource {
  const resource: Resource = {
    id: record.id,
    organisation: record.organisationId,
    creator: record.creator,
    fileName: record.fileName,
    type: record.type,
    createdAt: record.createdAt,
    aiProcessingStatus: record.aiProcessingStatus,
    tags: record.tags,
  };
  if (record.type === 'HOSTED_VIDEO' && record.hostedVideoId !== null) resource.hostedVideoId = record.hostedVideoId;
  if (record.type === 'DRIVE' && record.driveResourceFile) {
    const drive = record.driveResourceFile;
    resource.driveResourceFile = {
      driveAccountId: String(drive.driveAccountId ?? ''), fileId: String(drive.fileId ?? ''), fileName: String(drive.fileName ?? ''),
      mimeType: String(drive.mimeType ?? ''), webViewLink: String(drive.webViewLink ?? ''), recursive: String(drive.recursive ?? 'false'),
    };
  }
  if (record.type === 'WEB' && record.websiteUrl) resource.website = { url: record.websiteUrl, subLinks: websiteSubLinks(record) };
  if (record.type === 'VIDEO' && record.videoLength !== null) resource.videoLength = record.videoLength;
  if ((record.type === 'PDF' || record.type === 'VIDEO') && record.fileSize !== null) resource.fileSize = record.fileSize;
  if (record.aiProcessingStatus === 'IN_PROGRESS' && record.processingProgress !== null) resource.processingProgress = Math.round(record.processingProgress * 100) / 100;
  const syncFrequencyMs = record.syncFrequency ? SYNC_FREQUENCY_MS[record.syncFrequency] : undefined;
  if (syncFrequencyMs !== undefined) resource.syncFrequencyMs = syncFrequencyMs;
  if (record.lastSync !== null) resource.lastSync = record.lastSync;
  if (record.failureReason && (record.aiProcessingStatus === 'FAILED' || record.aiProcessingStatus === 'FAILED_NO_TEXT_FOUND')) {
    resource.failureReason = record.failureReason;
  }
  return resource;
}
