import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

/** The `S3_*` settings of a loopback S3-compatible server. */
export interface S3TestServer {
  env: Record<string, string>;
  /** Object files as the server keeps them on disk, for checks that a key exists. */
  directory: string;
  close(): Promise<void>;
}

export const S3_TEST_BUCKET = 'parley-test';

/**
 * Starts s3rver (an S3-compatible server in Node, from npm: nothing is downloaded at run time)
 * on a free loopback port with one empty bucket.
 */
export async function startS3Server(): Promise<S3TestServer> {
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), 'parley-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: S3_TEST_BUCKET }] });
  const { port } = await server.run();
  return {
    directory,
    env: {
      S3_BUCKET: S3_TEST_BUCKET, S3_ENDPOINT: `http://127.0.0.1:${port}`, S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER', S3_FORCE_PATH_STYLE: 'true',
    },
    async close() {
      await server.close();
      await fs.rm(directory, { recursive: true, force: true });
    },
  };
}
