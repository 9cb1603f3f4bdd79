import type { z } from 'zod';

/** The first problem per field (`websiteIntegration.allowedDomains` → "allowedDomains"), as the schema words it. */
export function issuesByField(schema: z.ZodType, body: unknown): Map<string, string> {
  const result = schema.safeParse(body);
  const issues = new Map<string, string>();
  if (result.success) return issues;
  for (const issue of result.error.issues) {
    const key = issue.path.filter((part) => typeof part === 'string').at(-1) ?? 'form';
    if (!issues.has(key)) issues.set(key, issue.message);
  }
  return issues;
}

/** Splits a textarea into its non-empty lines (one domain, popup message or tag per line). */
export const lines = (text: string): string[] => text.split(/[\n,]/).map((line) => line.trim()).filter(Boolean);
