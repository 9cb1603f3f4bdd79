import { wordnetSynonyms } from '../../../language/wordnet.js';
import { isStopWord, stem, tokenize } from './text-terms.js';

/** For each stem of a question's words, the stems of its WordNet synonyms (see language/wordnet.ts). */
export async function wordnetSynonymStems(question: string): Promise<Map<string, string[]>> {
  const synonyms = new Map<string, string[]>();
  for (const token of new Set(tokenize(question))) {
    if (isStopWord(token) || !/^\p{L}{3,}$/u.test(token)) continue;
    const own = stem(token);
    const stems = [...new Set((await wordnetSynonyms(token)).map(stem))].filter((s) => s !== own);
    if (stems.length > 0) synonyms.set(own, [...new Set([...(synonyms.get(own) ?? []), ...stems])]);
  }
  return synonyms;
}

/** Both thesauri's synonyms of each stem. */
export function mergeSynonyms(a: ReadonlyMap<string, string[]>, b: ReadonlyMap<string, string[]>): Map<string, string[]> {
  const merged = new Map(a);
  for (const [key, stems] of b) merged.set(key, [...new Set([...(merged.get(key) ?? []), ...stems])]);
  return merged;
}
