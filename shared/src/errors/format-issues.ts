import type { z } from 'zod';

const ARTICLE: Record<string, string> = {
  string: 'a string', number: 'a number', int: 'an integer', boolean: 'a boolean',
  array: 'an array', object: 'an object', bigint: 'an integer',
};

function pathOf(path: readonly PropertyKey[]): string {
  return path.map((segment) => (typeof segment === 'number' ? `[${segment}]` : String(segment)))
    .join('.').replace(/\.\[/g, '[');
}

function describeSize(issue: z.core.$ZodIssueTooBig | z.core.$ZodIssueTooSmall, bound: 'at least' | 'at most'): string {
  const limit = 'minimum' in issue ? issue.minimum : issue.maximum;
  switch (issue.origin) {
    case 'string': return `must be ${bound} ${limit} characters`;
    case 'array': case 'set': return `must contain ${bound} ${limit} items`;
    default: return `must be ${bound === 'at least' ? 'at least' : 'at most'} ${limit}`;
  }
}

function describe(issue: z.core.$ZodIssue): string {
  // Schemas phrase their own messages as a predicate ("must be a hex color"); keep those.
  if (/^(must|should|is) /.test(issue.message)) return issue.message;
  switch (issue.code) {
    case 'invalid_type':
      // zod omits the input from issues unless asked; its default message names what it received.
      return /received undefined$/.test(issue.message) ? 'is required' : `must be ${ARTICLE[issue.expected] ?? issue.expected}`;
    case 'too_small': return describeSize(issue, 'at least');
    case 'too_big': return describeSize(issue, 'at most');
    case 'invalid_value': return `must be one of: ${issue.values.map(String).join(', ')}`;
    case 'invalid_format': return `must be a valid ${issue.format}`;
    default: return issue.message;
  }
}

/**
 * Turns zod issues into the API's error messages, one per issue, field first:
 * `"name must be a string"`, `"property foo should not exist"`.
 */
export function formatIssues(issues: readonly z.core.$ZodIssue[], root = 'body'): string[] {
  return issues.flatMap((issue) => {
    const path = pathOf(issue.path);
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => `property ${path ? `${path}.${key}` : key} should not exist`);
    }
    return [`${path || root} ${describe(issue)}`];
  });
}
