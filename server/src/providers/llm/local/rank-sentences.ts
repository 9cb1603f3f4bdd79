import type { ContextPassage } from '../answer-model.js';
import { segmentText, type TextSegment } from '@parley/shared';
import { LEXICON, patternOf } from '../../../language/lexicon.js';
import { RecentMap } from './recent-map.js';
import { SYNONYM_CREDIT } from './synonyms.js';
import { contentStems, isStopWord, stem, tokenize } from './text-terms.js';

const cues = LEXICON.answerCues;

/** How much a passage lacking the question's names and numbers loses in relevance (all missing: everything). */
const MISSING_KEY_PENALTY = 1;
/** Credit of a shared 5-letter prefix ("represent" / "representative") against a full match. */
const PARTIAL_MATCH = 0.5;
/** Weight of the retrieval rank (best passage: +0.3, second: +0.15, ...); tuned on SQuAD (server/bench/chat-quality.bench.ts). */
const RANK_PRIOR = 0.3;
/**
 * The same when sentence meanings are known: retrieval ranked the passages partly by the same
 * encoder's vectors, so a full prior counted that evidence twice. At half: SQuAD contains-gold
 * 81.6% → 83.0%; useful open answers on two fresh visitor sets 0.64 → 0.65 and 0.56 → 0.59, the
 * development set unchanged (0.91).
 */
const RANK_PRIOR_WITH_MEANING = 0.15;
/** Stems that stand for a question stem as well as itself ("germany" → "eu", "europ"). */
export type Alternatives = Map<string, string[]>;

/** The question's meaning against a sentence's (cosine), from a sentence encoder; undefined when unknown. */
export type MeaningOf = (sentence: string) => number | undefined;

/** Weight of meaning against word coverage in the ranking score (tuned on the visitor-questions dev set). */
const MEANING_WEIGHT = 1;
/** Bonus of a sentence holding the kind of answer the question wants (a price for "how much"). */
const ANSWER_TYPE_BONUS = 0.08;
/** Weight of word relevance beside the best sentence's meaning when both are known. */
const WORDS_BESIDE_MEANING = 0.5;

/**
 * Weight of the meaning of a sentence's nearest heading beside its own: "Returns and refunds" tells
 * what "can I send it back?" is about when the sentence says "within 30 days". Ranking only; the
 * restrict decision stays on sentence meanings. Visitor-questions dev set: useful on-topic answers
 * of the open chatbots 0.70 → 0.75 (0.2 to 0.5 do as well; 0.7 starts to lose).
 */
const HEADING_MEANING_WEIGHT = 0.3;
/**
 * The same for a heading that asks a question ("### Can I park nearby?", an FAQ's): a visitor's
 * question is often a paraphrase of it, and the sentences under it are its answer. A fresh set
 * (four sites never seen, one with an FAQ of question headings): useful open answers 0.60 → 0.61
 * at 0.8; the dev set (two question headings) lost one answer at 0.8.
 */
const QUESTION_HEADING_MEANING_WEIGHT = 0.5;
/** Credit of question words found only in a sentence's headings, against words in the sentence itself. */
const SECTION_CREDIT = 0.5;
/** How much relevance a question loses for subject words found nowhere in the context (all absent: half). */
const ABSENT_PENALTY = 0.5;

/**
 * A sentence about the document itself rather than what it tells ("This guide explains the council
 * services residents ask about most often.", "It is written for security reviewers and procurement
 * teams."): it shares a question's words and answers none, as a sentence that only repeats them.
 */
const ABOUT_THE_DOCUMENT = patternOf(cues.aboutTheDocument);

/** One sentence of the retrieved context, scored against the question. */
export interface ScoredSentence {
  text: string;
  /** The headings above it, outermost first. */
  section: string[];
  /** The kind of block it came from: a paragraph, a list item or a table row. */
  kind: 'paragraph' | 'item' | 'row';
  /** Its block (paragraph, list item, row) within the passage: neighbours in one block belong together. */
  block: number;
  /** Index of its passage in the retrieval order. */
  passage: number;
  /** Index of the sentence within its passage. */
  position: number;
  /** Share (0..1) of the question's weighted subject words the sentence contains. */
  coverage: number;
  /** The same share in the sentence's own words, its headings left out. */
  ownCoverage: number;
  /** Share (0..1) of the question's weighted subject words its whole passage contains. */
  passageCoverage: number;
  /** Share (0..1) of the question's names and numbers its passage lacks. */
  missingKeys: number;
  /** Share (0..1) of the question's subject words (by weight) that no passage contains at all. */
  absent: number;
  /** Similarity (cosine, about -0.1..1) of the sentence's meaning to the question's, when a sentence encoder is there; else 0. */
  meaning: number;
  /** Similarity of the question's meaning to the question heading the sentence answers ("Can I park nearby?"), else 0. */
  headingQuestionMeaning: number;
  /** Whether it holds the kind of answer the question wants (a price for "how much"); false when the question wants no particular kind. */
  answersType: boolean;
  /** Ranking score: coverage plus meaning, phrase, answer-type and retrieval-rank evidence. */
  score: number;
  stems: Set<string>;
}

type AnswerType = 'date' | 'time' | 'price' | 'number' | 'name' | undefined;

const MONTHS = patternOf(cues.answerTypes.months);
const NUMBER_WORDS = patternOf(cues.answerTypes.numberWords);
const WEEKDAYS = patternOf(cues.answerTypes.weekdays);
// Times as English writes them ("3pm", "15:00") and as French and German do ("15 h", "10 h 30", "15 Uhr").
const CLOCK = patternOf(cues.answerTypes.clock);
// Prices with the currency before or after the amount ("£18", "18 £", "15 €").
const MONEY = patternOf(cues.answerTypes.money);

/**
 * The same cues in the other languages a knowledge base often has a section in (French, Spanish,
 * German): "à quelle heure", "¿cuánto cuesta?", "in welcher Stadt". Matched on the lower-cased question.
 */
const OTHER_LANGUAGE_CUES: [RegExp, AnswerType][] = cues.answerTypes.otherLanguages.map((cue) => [patternOf(cue), cue.type as AnswerType]);

/** The wording that tells what a question wants (language/data/answer-cues.json). */
const WANTS = Object.fromEntries(Object.entries(cues.questionWants).map(([type, cue]) => [type, patternOf(cue)])) as Record<keyof typeof cues.questionWants, RegExp>;

/** What kind of answer a question wants, from its wording: a time of day, a date, a price, a number, a name. */
function expectedAnswerType(question: string): AnswerType {
  const q = question.toLowerCase();
  if (WANTS.time.test(q)) return 'time';
  if (WANTS.otherLanguage.test(q)) {
    for (const [cue, type] of OTHER_LANGUAGE_CUES) if (cue.test(q)) return type;
  }
  if (WANTS.price.test(q)) return 'price';
  if (WANTS.date.test(q)) return 'date';
  if (WANTS.number.test(q)) return 'number';
  if (WANTS.name.test(q)) return 'name';
  return undefined;
}

function hasAnswerType(type: AnswerType, text: string, questionStems: Set<string>): boolean {
  if (type === 'time') return CLOCK.test(text);
  if (type === 'price') return MONEY.test(text);
  if (type === 'date') return /\b\d{3,4}s?\b/.test(text) || MONTHS.test(text) || WEEKDAYS.test(text) || CLOCK.test(text) || /\bcentury\b/i.test(text);
  if (type === 'number') return /\d/.test(text) || NUMBER_WORDS.test(text);
  if (type === 'name') {
    // A capitalised word the question does not already name, not counting the sentence's first word.
    const words = text.split(/\s+/).slice(1);
    return words.some((word) => /^\p{Lu}\p{L}+/u.test(word) && !questionStems.has(stem(tokenize(word)[0] ?? '')));
  }
  return false;
}

/** Inverse document frequency over the candidate sentences. */
function idfOf(sentences: { stems: Set<string> }[]): (term: string) => number {
  const cache = new Map<string, number>();
  return (term) => {
    let value = cache.get(term);
    if (value === undefined) {
      // A word found nowhere weighs as much as one found once, so one paraphrased word cannot sink a good match.
      const df = Math.max(1, sentences.reduce((n, s) => n + (s.stems.has(term) ? 1 : 0), 0));
      value = Math.log(1 + sentences.length / (1 + df));
      cache.set(term, value);
    }
    return value;
  };
}

/** 1 for the same stem; partial credit for a shared 5-letter prefix, else 0. */
function matchStem(term: string, stems: Set<string>): number {
  if (stems.has(term)) return 1;
  if (term.length < 5 || /\d/.test(term)) return 0;
  const prefix = term.slice(0, 5);
  for (const s of stems) if (s.startsWith(prefix)) return PARTIAL_MATCH;
  return 0;
}

/**
 * A figure of the visitor's own situation rather than the name of a subject: an age ("my nan is
 * 91", "our 8 year old"), a party ("80 guests"), a time ("at 9", "until 10pm"), a date ("the
 * 20th"), an amount ("£300"). The knowledge answers about such figures ("children aged 8 or
 * older") without holding them. What names a subject keeps its digits beside letters ("v1",
 * "2fa"), is a year ("in 2022") or follows a name.
 */
function isNamingNumber(word: string): boolean {
  const token = word.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
  if (/^(1[89]|20)\d\d$/.test(token)) return true;
  return /\p{L}/u.test(token) && !/^\d+(?:[:.]\d+)?(st|nd|rd|th|am|pm|s|k|p|x)$/i.test(token) && !/^\d+-/.test(token);
}

/** Capitalised words that tell when, not what: days, months and the holidays a visit falls in. */
const CALENDAR = new Set(cues.calendar.words);

/** Words of a language that capitalises every noun (German): there a capital names nothing in particular. */
const CAPITALISED_NOUNS = patternOf(cues.capitalisedNouns);

/**
 * Stems of the question's names and numbers: capitalised words within a sentence (not days or
 * months), and numbers that name something.
 */
function keyStems(question: string): string[] {
  const words = question.split(/\s+/);
  // German capitalises every noun: there a capital names nothing in particular.
  const names = !CAPITALISED_NOUNS.test(question);
  const isName = (word: string, index: number) => index > 0 && !/[.!?]$/.test(words[index - 1]!) && /^["'(]?\p{Lu}\p{Ll}/u.test(word)
    && !CALENDAR.has(word.toLowerCase().replace(/[^\p{L}]/gu, ''));
  // A number after a name is part of it ("Surf School 12", "Room 7").
  const keys = words.filter((word, index) => (/\d/.test(word) ? isNamingNumber(word) || (names && index > 0 && isName(words[index - 1]!, index - 1)) : names && isName(word, index)));
  return [...new Set(keys.flatMap((word) => tokenize(word)).filter((token) => !isStopWord(token)).map(stem))];
}

function phraseBonus(questionOrder: string[], sentenceOrder: string[]): number {
  if (questionOrder.length < 2) return 0;
  const pairs = new Set<string>();
  for (let i = 0; i + 1 < sentenceOrder.length; i++) pairs.add(`${sentenceOrder[i]} ${sentenceOrder[i + 1]}`);
  let hits = 0;
  for (let i = 0; i + 1 < questionOrder.length; i++) if (pairs.has(`${questionOrder[i]} ${questionOrder[i + 1]}`)) hits++;
  return Math.min(0.15, 0.06 * hits);
}

/** A passage's sentences with their stems (in order and as a set), and the stems of the whole passage. Shared: read only. */
export interface PassageAnalysis {
  sentences: (TextSegment & { key: string; order: string[]; stems: Set<string>; sectionStems: Set<string> })[];
  stems: Set<string>;
}

/** Analyses of recent passages: popular chunks come back question after question. Least recently used out first. */
const analyses = new RecentMap<string, PassageAnalysis>(1_000);

export function analysePassage(content: string): PassageAnalysis {
  let analysis = analyses.get(content);
  if (!analysis) {
    const sections = new Map<string, Set<string>>();
    const sectionStemsOf = (section: string[]) => {
      const text = section.join(' ');
      let stems = sections.get(text);
      if (!stems) sections.set(text, (stems = new Set(contentStems(text))));
      return stems;
    };
    analysis = {
      sentences: segmentText(content).map((segment) => {
        const order = contentStems(segment.text);
        return { ...segment, key: segment.text.toLowerCase(), order, stems: new Set(order), sectionStems: sectionStemsOf(segment.section) };
      }),
      stems: new Set(contentStems(content)),
    };
  }
  analyses.set(content, analysis);
  return analysis;
}

/**
 * How well a set of stems matches a question term (0..1): by the term itself or one of its
 * alternatives ("germany" by "eu"), whichever matches best, a shared prefix for half; by a synonym
 * ("lit" for "burned") for {@link SYNONYM_CREDIT}.
 */
export function termMatcher(alternatives: Alternatives, synonyms: Alternatives): (term: string, stems: Set<string>) => number {
  return (term, stems) => Math.max(
    matchStem(term, stems), ...(alternatives.get(term) ?? []).map((alt) => matchStem(alt, stems)),
    ...(synonyms.get(term) ?? []).map((synonym) => SYNONYM_CREDIT * (stems.has(synonym) ? 1 : 0)),
  );
}

/**
 * Scores every distinct sentence of the passages against the question's weighted subject words,
 * best first. `terms` comes from {@link questionTerms}; `question` supplies word order and the
 * expected answer type ("when" wants a date, "how many" a number, "who" a name).
 */
export function rankSentences(
  question: string, terms: Map<string, number>, passages: readonly ContextPassage[], meaningOf?: MeaningOf, alternatives: Alternatives = new Map(),
  synonyms: Alternatives = new Map(),
): ScoredSentence[] {
  const matchOf = termMatcher(alternatives, synonyms);
  const seen = new Set<string>();
  const candidates: (Omit<ScoredSentence, 'coverage' | 'ownCoverage' | 'passageCoverage' | 'missingKeys' | 'absent' | 'score' | 'meaning' | 'answersType' | 'headingQuestionMeaning'> & { order: string[]; sectionStems: Set<string> })[] = [];
  const passageStems = passages.map((passage, index) => {
    const analysis = analysePassage(passage.content);
    analysis.sentences.forEach(({ text, section, block, kind, key, order, stems, sectionStems }, position) => {
      if (seen.has(key)) return;
      seen.add(key);
      candidates.push({ text, section, block, kind, passage: index, position, stems, order, sectionStems });
    });
    return analysis.stems;
  });
  if ((terms.size === 0 && !meaningOf) || candidates.length === 0) return [];
  const idf = idfOf(candidates);
  const termList = [...terms.keys()];
  const weights = termList.map((term) => (terms.get(term) ?? 0) * idf(term));
  const total = weights.reduce((sum, weight) => sum + weight, 0) || 1;
  /** How well each question term is matched by the stems (1, a partial match's credit, or 0). */
  const matchesOf = (stems: Set<string>) => termList.map((term) => matchOf(term, stems));
  /** The weighted share of the question matched: a term matched by either of two sets counts its better match (as matching their union would). */
  const coverageOf = (matches: number[], more?: number[]) => matches.reduce((sum, match, t) => sum + (more ? Math.max(match, more[t]!) : match) * weights[t]!, 0) / total;
  const questionOrder = contentStems(question);
  const type = expectedAnswerType(question);
  const questionStems = new Set(terms.keys());
  const keys = keyStems(question);
  const allStems = new Set(passageStems.flatMap((stems) => [...stems]));
  const termTotal = [...terms.values()].reduce((sum, w) => sum + w, 0) || 1;
  const absent = [...terms].reduce((sum, [term, w]) => sum + (matchOf(term, allStems) === 0 ? w : 0), 0) / termTotal;
  const missingKeysOf = (passage: number) => keys.length === 0 ? 0
    : keys.filter((key) => ![key, ...(alternatives.get(key) ?? []), ...(synonyms.get(key) ?? [])].some((k) => passageStems[passage]?.has(k))).length / keys.length;
  const rankPrior = meaningOf ? RANK_PRIOR_WITH_MEANING : RANK_PRIOR;
  const passageCoverages = new Map<number, number>();
  const sectionMatches = new Map<Set<string>, number[]>();
  return candidates.map(({ sectionStems, order, ...candidate }) => {
    // The section's headings count for half: "## Delivery" tells where a sentence is, not what it says.
    const ownMatches = matchesOf(candidate.stems);
    let headingMatches = sectionMatches.get(sectionStems);
    if (!headingMatches) sectionMatches.set(sectionStems, (headingMatches = matchesOf(sectionStems)));
    const own = coverageOf(ownMatches);
    const coverage = own + SECTION_CREDIT * (coverageOf(ownMatches, headingMatches) - own);
    let novel = false;
    for (const s of candidate.stems) if (!questionStems.has(s)) { novel = true; break; }
    const meaning = meaningOf?.(candidate.text) ?? 0;
    const heading = candidate.section.at(-1);
    const headingMeaning = heading === undefined ? 0 : meaningOf?.(heading) ?? 0;
    const asksHeading = heading !== undefined && /\?\s*$/.test(heading);
    let score = coverage + MEANING_WEIGHT * meaning + (asksHeading ? QUESTION_HEADING_MEANING_WEIGHT : HEADING_MEANING_WEIGHT) * headingMeaning + phraseBonus(questionOrder, order) + rankPrior / (1 + candidate.passage);
    const answersType = hasAnswerType(type, candidate.text, questionStems);
    if ((coverage > 0 || meaning > 0.3) && answersType) score += ANSWER_TYPE_BONUS;
    // A sentence that only repeats the question's words cannot hold its answer.
    if (!novel || ABOUT_THE_DOCUMENT.test(candidate.text)) score *= 0.6;
    if (candidate.stems.size < 3) score *= 0.7;
    let passageCoverage = passageCoverages.get(candidate.passage);
    if (passageCoverage === undefined) passageCoverages.set(candidate.passage, (passageCoverage = coverageOf(matchesOf(passageStems[candidate.passage] ?? new Set()))));
    return { ...candidate, coverage, ownCoverage: own, passageCoverage, missingKeys: missingKeysOf(candidate.passage), absent, meaning, headingQuestionMeaning: asksHeading ? headingMeaning : 0, answersType, score };
  }).sort((a, b) => b.score - a.score || a.passage - b.passage || a.position - b.position);
}

/**
 * How well the context covers the question (0..1): the best sentence's coverage blended with its
 * passage's (a fact split over two neighbouring sentences still counts), reduced when its passage
 * lacks the question's names or numbers, or when question words appear nowhere in the context.
 */
export function relevanceOf(ranked: readonly ScoredSentence[]): number {
  return ranked.reduce((best, s) => Math.max(best, (0.6 * s.coverage + 0.4 * s.passageCoverage) * (1 - MISSING_KEY_PENALTY * s.missingKeys) * (1 - ABSENT_PENALTY * s.absent)), 0);
}

/**
 * Relevance when sentence meanings are known: the best sentence's similarity of meaning plus half
 * the word relevance ({@link relevanceOf}). A paraphrase shares the meaning, not the words; an
 * off-topic question that shares the domain's words ("a restaurant near the shop") shares neither
 * enough. On the visitor-questions dev set this separates them far better than either alone.
 * `missingKeyWeight` takes that share of a sentence's meaning away for the share of the question's
 * names and numbers its passage lacks ("the drive from Cornwall to Glasgow" is not "the drive from
 * London"). A sentence under a heading asking a question counts that question's meaning when it is
 * closer: the owner wrote the question the sentence answers.
 */
export function meaningRelevanceOf(ranked: readonly ScoredSentence[], missingKeyWeight = 0): number {
  return WORDS_BESIDE_MEANING * relevanceOf(ranked) + ranked.reduce((best, s) => Math.max(best, Math.max(s.meaning, s.headingQuestionMeaning) * (1 - missingKeyWeight * s.missingKeys)), 0);
}
