import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type * as ClientS3 from '@aws-sdk/client-s3';
import type { Upload as MultipartUpload } from '@aws-sdk/lib-storage';
import type { FileStore } from './file-store.js';

/** The object storage settings (`S3_*`). */
export interface S3Settings {
  bucket: string;
  /** An S3-compatible server's URL (MinIO, Ceph, R2…); absent: AWS itself. */
  endpoint?: string;
  region: string;
  /** Absent: the AWS SDK's default credential chain (environment, instance role). */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** `bucket` in the path rather than the host name (most self-hosted servers need it). */
  forcePathStyle: boolean;
  /** Prepended to every key, so one bucket can serve several deployments. */
  prefix: string;
}

/**
 * A multipart upload holds at most `QUEUE_SIZE` parts of `PART_SIZE` in memory: 16 MiB for any
 * file, a 1000 MB upload included (125 parts, far below S3's 10,000).
 */
const PART_SIZE = 8 * 1024 * 1024;
const QUEUE_SIZE = 2;

/** The AWS SDK, loaded on first use: importing it costs about half a second of every start-up. */
interface Sdk {
  s3: typeof ClientS3;
  Upload: typeof MultipartUpload;
  client: ClientS3.S3Client;
}

/** Files as objects of one bucket of S3-compatible storage (AWS SDK v3). */
export class S3FileStore implements FileStore {
  readonly kind = 's3';
  private sdkLoading?: Promise<Sdk>;

  constructor(private readonly settings: S3Settings, readonly stagingDirectory: string) {}

  private sdk(): Promise<Sdk> {
    return this.sdkLoading ??= this.loadSdk();
  }

  private async loadSdk(): Promise<Sdk> {
    const [s3, { Upload }] = await Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/lib-storage')]);
    const { settings } = this;
    const client = new s3.S3Client({
      endpoint: settings.endpoint,
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      credentials: settings.accessKeyId && settings.secretAccessKey
        ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey }
        : undefined,
      // The SDK's default CRC checksums on every request are not understood by several
      // S3-compatible servers; send them only where the API requires one.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    return { s3, Upload, client };
  }

  private objectKey(key: string): string {
    return this.settings.prefix + key;
  }

  async put(key: string, stagedPath: string): Promise<void> {
    const { size } = await fs.promises.stat(stagedPath);
    const { Upload, client } = await this.sdk();
    const upload = new Upload({
      client,
      params: { Bucket: this.settings.bucket, Key: this.objectKey(key), Body: fs.createReadStream(stagedPath), ContentLength: size },
      partSize: PART_SIZE,
      queueSize: QUEUE_SIZE,
      // A failed multipart upload is aborted, so no orphaned parts stay billed.
      leavePartsOnError: false,
    });
    await upload.done();
  }

  async withLocalCopy<T>(key: string, use: (filePath: string) => Promise<T>, signal?: AbortSignal): Promise<T> {
    await fs.promises.mkdir(this.stagingDirectory, { recursive: true });
    const copy = path.join(this.stagingDirectory, `${randomUUID()}${path.extname(key)}`);
    try {
      const { s3, client } = await this.sdk();
      const object = await client.send(new s3.GetObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) }), { abortSignal: signal });
      await pipeline(object.Body as Readable, fs.createWriteStream(copy), { signal });
      return await use(copy);
    } finally {
      await fs.promises.rm(copy, { force: true });
    }
  }

  async remove(key: string): Promise<void> {
    // S3 answers a delete of an absent key with success.
    const { s3, client } = await this.sdk();
    await client.send(new s3.DeleteObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) }));
  }
}
