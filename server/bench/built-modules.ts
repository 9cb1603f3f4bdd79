import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { serverBundleOptions } from '../../scripts/server-bundle.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Compiles a module of server code as `npm start`'s build compiles the server, and imports it. The
 * benches run through tsx, which keeps every function's name by defining it on each closure as it
 * is created: a cost per request that the built server does not pay (about 8% of a cached
 * `GET /v1/chatbot/{id}`'s throughput). Written beside the server (`server/.bench-build`), where the
 * server's own packages resolve.
 */
export async function importBuilt<T>(entry: string): Promise<T> {
  const outdir = path.join(root, 'server/.bench-build');
  const name = path.basename(entry, '.ts');
  await build({ ...serverBundleOptions, absWorkingDir: root, entryPoints: { [name]: entry }, outdir, sourcemap: false });
  return await import(pathToFileURL(path.join(outdir, `${name}.js`)).href) as T;
}
