import { SYNC_FREQUENCY_MS, type Resource } from '@parley/shared';
import type { ResourceRecord } from './resources.repository.js';
import { sourceOfRecord } from './sources/registry.js';

/**
 * The API's view of a resource: its type's module gives the type's fields, which are omitted
 * when they do not apply. The key order is the wire order and must not change.
 */
export function toResourceResponse(record: ResourceRecord): Resource {
  const module = sourceOfRecord(record);
  const resource: Resource = {
    id: record.id,
    organisation: record.organisationId,
    creator: record.creator,
    fileName: record.fileName,
    type: record.type,
    createdAt: record.createdAt,
    aiProcessingStatus: record.aiProcessingStatus,
    tags: record.tags,
    ...module.toResponse(record),
  };
  if (record.aiProcessingStatus === 'IN_PROGRESS' && record.processingProgress !== null) resource.processingProgress = Math.round(record.processingProgress * 100) / 100;
  const syncFrequency = module.syncFrequency?.(record.source);
  const syncFrequencyMs = syncFrequency ? SYNC_FREQUENCY_MS[syncFrequency] : undefined;
  if (syncFrequencyMs !== undefined) resource.syncFrequencyMs = syncFrequencyMs;
  if (record.lastSync !== null) resource.lastSync = record.lastSync;
  if (record.failureReason && (record.aiProcessingStatus === 'FAILED' || record.aiProcessingStatus === 'FAILED_NO_TEXT_FOUND')) {
    resource.failureReason = record.failureReason;
  }
  return resource;
}
