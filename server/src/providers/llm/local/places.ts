import { LEXICON } from '../../../language/lexicon.js';

/**
 * A small gazetteer: the regions a place belongs to, as knowledge bases name them ("We ship to the
 * EU", "UK delivery"), so "Do you deliver to Germany?" finds the EU sentence. Countries, their
 * adjectives and a few large cities; the words added to a question are the regions' own.
 */
const REGIONS: [string[], string[]][] = LEXICON.places.groups.map(({ places, regions }) => [places, regions]);

const PATTERNS = REGIONS.map(([places, regions]) => [new RegExp(`\\b(?:${places.join('|')})\\b`, 'i'), regions] as const);

/** The regions the places a text names belong to ("Germany" → "eu europe european union"), or ''. */
export function regionsOf(text: string): string {
  const regions = new Set<string>();
  for (const [pattern, names] of PATTERNS) if (pattern.test(text)) for (const name of names) regions.add(name);
  return [...regions].join(' ');
}
