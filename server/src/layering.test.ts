import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The server's layers import downwards only: `features/` may use `providers/` and `language/`;
 * `providers/` may use `language/` but no feature; `language/` (the word lists and the reading of
 * messages) uses neither. A provider reaching into a feature ties the engine to the product's
 * routes; the language layer reaching up would make its data depend on what reads it.
 */

const SRC = fileURLToPath(new URL('.', import.meta.url));

/** The relative modules a TypeScript file imports or re-exports, statically or dynamically, resolved against its folder. */
export function importsOf(file: string, text: string): string[] {
  const specifiers = [...text.matchAll(/\b(?:import|export)\b[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s*['"]([^'"]+)['"]/gm)]
    .map((match) => match[1] ?? match[2] ?? match[3]!);
  return specifiers.filter((specifier) => specifier.startsWith('.')).map((specifier) => path.resolve(path.dirname(file), specifier));
}

function typeScriptFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return typeScriptFiles(full);
    return /\.(ts|mts|mjs)$/.test(entry.name) ? [full] : [];
  });
}

/** "<file> imports <module>" for each import of a file under `layer` into one of `forbidden`. */
function violations(layer: string, forbidden: string[]): string[] {
  const inside = (file: string, dir: string) => file.startsWith(path.join(SRC, dir) + path.sep);
  return typeScriptFiles(path.join(SRC, layer)).flatMap((file) => importsOf(file, fs.readFileSync(file, 'utf8'))
    .filter((target) => forbidden.some((dir) => inside(target, dir)))
    .map((target) => `${path.relative(SRC, file)} imports ${path.relative(SRC, target)}`));
}

describe('layering', () => {
  it('reads static, dynamic and re-exporting imports, type-only ones too', () => {
    const file = path.join(SRC, 'providers', 'x.ts');
    const text = [
      "import { a } from '../features/chat/a.js';",
      "import type {\n  B,\n} from '../features/b.js';",
      "export { c } from './c.js';",
      "const d = await import('../features/d.js');",
      "import './side-effect.js';",
      "import { z } from 'zod';",
    ].join('\n');
    expect(importsOf(file, text).map((target) => path.relative(SRC, target))).toEqual([
      'features/chat/a.js', 'features/b.js', 'providers/c.js', 'features/d.js', 'providers/side-effect.js',
    ]);
  });

  it('keeps providers/ free of imports from features/', () => {
    expect(violations('providers', ['features'])).toEqual([]);
  });

  it('keeps language/ free of imports from features/ and providers/', () => {
    expect(fs.existsSync(path.join(SRC, 'language'))).toBe(true);
    expect(violations('language', ['features', 'providers'])).toEqual([]);
  });
});
