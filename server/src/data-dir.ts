import fs from 'node:fs/promises';
import path from 'node:path';

/** Group and other permission bits: none of them may be set on anything under DATA_DIR. */
const OTHERS = 0o077;

/**
 * Makes DATA_DIR the owner's alone (issue 14: PGlite's files were 0666, uploads 0644): a umask
 * for everything this process creates from now on, then every existing file and directory under
 * it loses its group and other permissions (an install from before this rule is tightened on start).
 * Symbolic links are not followed.
 */
export async function secureDataDir(dataDir: string): Promise<void> {
  process.umask(OTHERS);
  await fs.mkdir(dataDir, { recursive: true, mode: 0o700 });
  await tightenDataDir(dataDir);
}

/** Removes group and other permissions from everything under `dataDir` (symbolic links are skipped). */
export async function tightenDataDir(dataDir: string): Promise<void> {
  const pending = [dataDir];
  for (let current = pending.pop(); current !== undefined; current = pending.pop()) {
    const stat = await fs.lstat(current);
    if (stat.isSymbolicLink()) continue;
    if ((stat.mode & OTHERS) !== 0) await fs.chmod(current, stat.mode & 0o700);
    if (stat.isDirectory()) for (const entry of await fs.readdir(current)) pending.push(path.join(current, entry));
  }
}
