import type { BuildOptions } from 'esbuild';

export const serverBundleOptions: BuildOptions;
