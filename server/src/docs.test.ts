import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = (file: string) => fileURLToPath(new URL(`../../${file}`, import.meta.url));

/** The README stays a guide; everything longer lives under docs/. */
const README_MAX_BYTES = 12 * 1024;

/** The variables `EnvSchema` reads: the keys of its `z.object({ … })` in config.ts. */
function configVariables(): string[] {
  const source = readFileSync(fileURLToPath(new URL('./config.ts', import.meta.url)), 'utf8');
  const start = source.indexOf('const EnvSchema = z.object({');
  const end = source.indexOf('\n});', start);
  if (start < 0 || end < 0) throw new Error('EnvSchema not found in config.ts');
  return [...source.slice(start, end).matchAll(/^\s+([A-Z][A-Z0-9_]*):/gm)].map((match) => match[1]!);
}

describe('documentation', () => {
  it('keeps README.md within 12 KB', () => {
    expect(statSync(root('README.md')).size).toBeLessThanOrEqual(README_MAX_BYTES);
  });

  it('documents every environment variable config.ts reads in docs/configuration.md', () => {
    const variables = configVariables();
    expect(variables.length).toBeGreaterThan(50);
    const documented = readFileSync(root('docs/configuration.md'), 'utf8');
    expect(variables.filter((name) => !documented.includes(`\`${name}\``))).toEqual([]);
  });
});
