import type { AiProcessingStatus, DocumentFormat, Resource, ResourceType } from '@parley/shared';

const TYPE_LABELS: Record<ResourceType, string> = {
  PDF: 'PDF', VIDEO: 'Video', TEXT: 'Text', HOSTED_VIDEO: 'Hosted video', WEB: 'Website', DRIVE: 'Google Drive file', QA: 'Saved answers', DOCUMENT: 'Document',
};

const FORMAT_LABELS: Record<DocumentFormat, string> = {
  DOCX: 'Word document', PPTX: 'PowerPoint slides', MARKDOWN: 'Markdown', PLAIN_TEXT: 'Plain text', HTML: 'HTML page', CSV: 'CSV table',
};

/** A resource's kind in an owner's words ("Word document", "Website"). */
export function resourceKind(resource: Pick<Resource, 'type' | 'documentFormat'>): string {
  return resource.documentFormat ? FORMAT_LABELS[resource.documentFormat] : TYPE_LABELS[resource.type];
}

/** What the upload's file picker offers (the server recognises the type by content, not by these). */
export const UPLOAD_ACCEPT = [
  'application/pdf', 'video/mp4', '.pdf', '.mp4', '.docx', '.pptx', '.md', '.markdown', '.txt', '.html', '.htm', '.csv',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation', 'text/markdown', 'text/plain', 'text/html', 'text/csv',
].join(',');

/** Processing statuses in an owner's words (the API value is shown beside them). */
export const STATUS_LABELS: Record<AiProcessingStatus, string> = {
  NOT_STARTED: 'Waiting', IN_PROGRESS: 'Reading', DONE: 'Ready', FAILED: 'Failed', FAILED_NO_TEXT_FOUND: 'No text found',
};
