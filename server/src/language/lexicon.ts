import answerCues from './data/answer-cues.json' with { type: 'json' };
import conversation from './data/conversation.json' with { type: 'json' };
import followUp from './data/follow-up.json' with { type: 'json' };
import places from './data/places.json' with { type: 'json' };
import replies from './data/replies.json' with { type: 'json' };
import stopWords from './data/stop-words.json' with { type: 'json' };
import thesaurus from './data/thesaurus.json' with { type: 'json' };
import turnPrototypes from './data/turn-prototypes.json' with { type: 'json' };

/**
 * The language layer's word lists, read from the data files beside it (server/src/language/data).
 * Every group there records its language (an ISO 639-1 code, "mul" for many, or a list) and why it
 * exists, in general terms: the engine is the method, these files are its vocabulary. They are
 * imported, not read from disk, so the production bundle carries them.
 */

/** A word list with its language and reason. */
export interface WordGroup {
  language: string | string[];
  why: string;
  words: string[];
}

/** A pattern of words (a regular expression's source and flags) with its language and reason. */
export interface WordPattern {
  language: string | string[];
  why: string;
  source: string;
  flags: string;
}

/** The regular expression a data file's pattern describes. */
export const patternOf = (pattern: WordPattern): RegExp => new RegExp(pattern.source, pattern.flags);

export const LEXICON = {
  answerCues,
  conversation,
  followUp,
  places,
  replies,
  stopWords,
  thesaurus,
  turnPrototypes,
};
