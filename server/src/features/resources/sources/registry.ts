import type { ResourceType } from '@parley/shared';
import type { UploadType } from '../sniff-file-type.js';
import { documentSource } from './document/document.source.js';
import { driveSource } from './drive/drive.source.js';
import { hostedVideoSource } from './hosted-video/hosted-video.source.js';
import { pdfSource } from './pdf/pdf.source.js';
import { qaSource } from './qa/qa.source.js';
import type { CreatableSource, ResourceOf, SourceModule } from './source-module.js';
import type { UploadInput } from './stored-upload.js';
import { textSource } from './text/text.source.js';
import { videoSource } from './video/video.source.js';
import { webSource } from './web/web.source.js';

/**
 * Every source type's module. The order is the order types are named in messages
 * ("only WEB and HOSTED_VIDEO resources sync").
 */
export const SOURCE_MODULES: { readonly [T in ResourceType]: SourceModule<T, unknown> } = {
  TEXT: textSource,
  PDF: pdfSource,
  VIDEO: videoSource,
  WEB: webSource,
  HOSTED_VIDEO: hostedVideoSource,
  DRIVE: driveSource,
  QA: qaSource,
  DOCUMENT: documentSource,
};

/** The module of a type. */
export function sourceModuleOf<T extends ResourceType>(type: T): SourceModule<T, unknown> {
  return SOURCE_MODULES[type] as SourceModule<T, unknown>;
}

/** The module of an uploaded PDF or MP4 (documents have their own, `documentSource`). */
export function uploadSourceOf(type: Exclude<UploadType, 'DOCUMENT'>): CreatableSource<UploadType, UploadInput> & { fileExtension: string } {
  return { PDF: pdfSource, VIDEO: videoSource }[type] as CreatableSource<UploadType, UploadInput> & { fileExtension: string };
}

/**
 * A record's module, typed for the record: `SOURCE_MODULES[record.type]` alone is a union of
 * modules that TypeScript cannot call with the record (the correlation of the two is lost).
 */
export function sourceOfRecord<T extends ResourceType>(resource: ResourceOf<T>): SourceModule<T, unknown> {
  return sourceModuleOf(resource.type);
}

/** The types whose modules say `which`, in registry order. */
export function sourceTypesWhere(which: (module: SourceModule<ResourceType, unknown>) => boolean): ResourceType[] {
  return (Object.values(SOURCE_MODULES) as SourceModule<ResourceType, unknown>[]).filter(which).map((module) => module.type);
}
