/**
 * Where uploaded files are kept: `DATA_DIR/files` by default, or S3-compatible object storage
 * (`S3_*` settings) so that every instance of a cluster reads what any instance received.
 * Keys are relative paths that the service makes itself (`<organisation id>/<resource id>.pdf`).
 */
export interface FileStore {
  /** `local` or `s3`, for logs. */
  readonly kind: 'local' | 's3';
  /** Where uploads are staged on this machine's disk before they are checked and kept. */
  readonly stagingDirectory: string;
  /**
   * Keeps a staged file under `key`, streaming it (never whole in memory). The staged file may be
   * moved away; the caller removes whatever is left of it.
   */
  put(key: string, stagedPath: string): Promise<void>;
  /**
   * Runs `use` with a path on local disk holding the stored file (object storage: a temporary
   * download, removed when `use` settles). Readers need random access, e.g. an MP4's `moov` box.
   */
  withLocalCopy<T>(key: string, use: (filePath: string) => Promise<T>, signal?: AbortSignal): Promise<T>;
  /** Removes a stored file; nothing happens when it is absent. */
  remove(key: string): Promise<void>;
}
