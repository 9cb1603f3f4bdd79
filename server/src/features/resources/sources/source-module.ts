import type { Parser } from '../ingestion/sandbox/parser-process.js';
import type { Knex } from 'knex';
import type { z } from 'zod';
import type { Resource, ResourceType, SyncFrequency } from '@parley/shared';
import type { ReaderOutput } from '../ingestion/ingestion-types.js';
import type { IngestionContext } from '../ingestion/run-ingestion.js';
import type { ResourceFields, ResourceUpdate } from '../resources.repository.js';
import type { DocumentSourceSchema } from './document/document-source.schema.js';
import type { DriveSourceSchema } from './drive/drive-source.schema.js';
import type { HostedVideoSourceSchema } from './hosted-video/hosted-video-source.schema.js';
import type { PdfSourceSchema } from './pdf/pdf-source.schema.js';
import type { QaSourceSchema } from './qa/qa-source.schema.js';
import type { TextSourceSchema } from './text/text-source.schema.js';
import type { VideoSourceSchema } from './video/video-source.schema.js';
import type { WebSourceSchema } from './web/web-source.schema.js';

/**
 * The schema of each type's data in `resources.source`. A type map rather than a value, so the
 * record type does not depend on the modules that use it.
 */
interface SourceSchemas {
  TEXT: typeof TextSourceSchema;
  PDF: typeof PdfSourceSchema;
  VIDEO: typeof VideoSourceSchema;
  HOSTED_VIDEO: typeof HostedVideoSourceSchema;
  WEB: typeof WebSourceSchema;
  DRIVE: typeof DriveSourceSchema;
  QA: typeof QaSourceSchema;
  DOCUMENT: typeof DocumentSourceSchema;
}

/** The per-type data of a resource of type `T`, as stored in `resources.source`. */
export type SourceOf<T extends ResourceType> = z.output<SourceSchemas[T]>;

/** A resource of type `T` with its per-type data. */
export type ResourceOf<T extends ResourceType> = ResourceFields & { type: T; source: SourceOf<T> };

/** A new resource of type `T`, as a module's create step makes it (the service adds ids, owner and status). */
export interface ResourceDraft<T extends ResourceType> {
  id?: string;
  type: T;
  fileName: string;
  tags: string[];
  source: SourceOf<T>;
  storedBytes?: number;
  textContent?: string;
  /** What the type keeps besides the resource row (a QA resource's pairs), written in the same transaction after it. */
  write?: (trx: Knex, resource: { id: string; organisationId: string }) => Promise<void>;
}

/** The type's own fields of the API's resource (omitted when they do not apply). */
export type SourceResponseFields = Pick<Resource, 'hostedVideoId' | 'driveResourceFile' | 'website' | 'videoLength' | 'fileSize' | 'documentFormat'>;

/** What a reader gets besides its resource. */
export interface SourceReadContext extends IngestionContext {
  signal: AbortSignal;
  /** Section hashes of the resource's current chunks (a crawl keeps pages that answer 304 only if indexed). */
  indexed: ReadonlySet<string>;
  /** The text pipeline the sections will be hashed under (`textPipelineKey`). */
  pipelineKey: string;
  /** Starts recording a long read's progress. */
  progress(): ProgressRecorder;
  /**
   * The job's parser process (started on first use, ended with the job), shared by the read and
   * the chunking that follows it: starting one costs most of a second.
   */
  parser: Parser;
}

/** Records a long read's progress (0..1) as `processingProgress`; `settled` waits for the last write. */
export interface ProgressRecorder {
  report: (fraction: number) => void;
  settled: () => Promise<void>;
}

/** What a successful read writes besides the chunks, in the same transaction. */
export interface ReadOutcome {
  fields: ResourceUpdate;
  write?: (trx: Knex) => Promise<void>;
}

/** Facts of a successful read that a module may record. */
export interface ReadFacts {
  now: number;
  /** Bytes of text read (the pages' text for a crawl). */
  textBytes: number;
  pipelineKey: string;
  /** When the resource syncs next under its frequency (null: never). */
  nextSyncAt: number | null;
}

/**
 * One resource source type: how it is created, read, shown and kept current. Adding a type is a
 * new folder under `sources/` and a line in `registry.ts`; nothing else switches on the type.
 * `C` is what its create step takes (a request body, an upload).
 */
export interface SourceModule<T extends ResourceType, C = never> {
  readonly type: T;
  /** Parses the stored `resources.source` of this type. */
  readonly schema: SourceSchemas[T];
  /** Whether `sync now` re-reads it from its source. */
  readonly syncs: boolean;
  /** Whether its text is edited through `/v1/resource/text/{id}`. */
  readonly editable: boolean;
  /** The extension of its stored upload, when it is an uploaded file. */
  readonly fileExtension?: string;
  /** Validates the create input and makes the new resource. @throws 400 for input the contract cannot express */
  create?(input: C): Promise<ResourceDraft<T>>;
  /**
   * Reads the source into sections. Untrusted bytes are parsed in the parser process.
   * @throws NoTextFoundError, IngestionFailedError (permanent), anything else (retried)
   */
  read(ctx: SourceReadContext, resource: ResourceOf<T>): Promise<ReaderOutput>;
  /** What a successful read records on the resource besides its status. */
  afterRead?(resource: ResourceOf<T>, output: ReaderOutput, facts: ReadFacts): ReadOutcome;
  /** The type's fields of the API's resource. */
  toResponse(resource: ResourceOf<T>): SourceResponseFields;
  /** How often it re-syncs by itself, when it does. */
  syncFrequency?(source: SourceOf<T>): SyncFrequency | undefined;
  /** The FileStore key of its stored upload, removed with the resource. */
  storedFile?(source: SourceOf<T>): string | undefined;
}

/** A module whose resources are created through the API (all but DRIVE). */
export type CreatableSource<T extends ResourceType, C> = SourceModule<T, C> & { create(input: C): Promise<ResourceDraft<T>> };
