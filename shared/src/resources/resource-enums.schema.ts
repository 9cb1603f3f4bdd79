import { z } from 'zod';

/**
 * `QA` (saved answers: questions an owner answers in their own words) and `DOCUMENT` (an uploaded
 * Word document, slides, Markdown, plain text, HTML or CSV file) are extensions.
 */
export const ResourceTypeSchema = z.enum(['VIDEO', 'PDF', 'TEXT', 'HOSTED_VIDEO', 'WEB', 'DRIVE', 'QA', 'DOCUMENT'])
  .describe('`QA` is an extension: saved answers (`POST /v1/resource/qa`), questions the owner answers in their own words. '
    + '`DOCUMENT` is an extension: a file uploaded through `POST /v1/resource/file` that is neither a PDF nor an MP4 '
    + '(a Word document, PowerPoint slides, Markdown, plain text, HTML or CSV; `documentFormat` says which).');
export type ResourceType = z.infer<typeof ResourceTypeSchema>;

/** The format of a `DOCUMENT` upload, recognised by its content (extension). */
export const DocumentFormatSchema = z.enum(['DOCX', 'PPTX', 'MARKDOWN', 'PLAIN_TEXT', 'HTML', 'CSV'])
  .describe('Extension: the format of a `DOCUMENT` upload, recognised by content: `DOCX` (Word), `PPTX` (PowerPoint), '
    + '`MARKDOWN`, `PLAIN_TEXT`, `HTML` or `CSV`.');
export type DocumentFormat = z.infer<typeof DocumentFormatSchema>;

/** `NOT_STARTED → IN_PROGRESS → DONE | FAILED_NO_TEXT_FOUND | FAILED` (decisions.md § Resources). */
export const AiProcessingStatusSchema = z.enum(['NOT_STARTED', 'IN_PROGRESS', 'DONE', 'FAILED_NO_TEXT_FOUND', 'FAILED']);
export type AiProcessingStatus = z.infer<typeof AiProcessingStatusSchema>;

export const SyncFrequencySchema = z.enum(['ONE_DAY', 'THREE_DAYS', 'SEVEN_DAYS', 'ONE_MONTH', 'NEVER']);
export type SyncFrequency = z.infer<typeof SyncFrequencySchema>;

const DAY_MS = 24 * 60 * 60 * 1000;

/** The length of each sync period in ms; `NEVER` has none. */
export const SYNC_FREQUENCY_MS: Record<SyncFrequency, number | undefined> = {
  ONE_DAY: DAY_MS,
  THREE_DAYS: 3 * DAY_MS,
  SEVEN_DAYS: 7 * DAY_MS,
  ONE_MONTH: 30 * DAY_MS,
  NEVER: undefined,
};
