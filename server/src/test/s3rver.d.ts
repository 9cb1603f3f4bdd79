// s3rver ships no type declarations; these cover what the tests use.
declare module 's3rver' {
  interface S3rverOptions {
    address?: string;
    port?: number;
    silent?: boolean;
    directory: string;
    configureBuckets?: { name: string }[];
  }
  // The package's own (CommonJS) default export, described as it is: not a module of ours.
  // eslint-disable-next-line no-restricted-syntax
  export default class S3rver {
    constructor(options: S3rverOptions);
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
  }
}
