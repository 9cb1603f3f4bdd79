import { detectAll } from 'tinyld';
import { LEXICON } from './lexicon.js';

/** The languages the widget speaks (widget/src/i18n): the local engine can say in each what it answers in. */
export const VISITOR_LANGUAGES = ['en', 'ar', 'de', 'es', 'fa', 'fr', 'he', 'it', 'ja', 'nl', 'pt', 'zh'] as const;
export type VisitorLanguage = (typeof VISITOR_LANGUAGES)[number];

/** Below this share of the detector's score for its first choice, a text's language is taken as unknown. */
const MIN_ACCURACY = 0.05;
/**
 * How many times the second choice's score the first must reach: on short messages the detector
 * hesitates ("tell me a joke": English 0.092, Berber 0.091), and a notice in the wrong language is
 * worse than the restrict text.
 */
const MIN_MARGIN = 1.5;
/** How much of a passage is read to tell its language: its start says as much as the whole. */
const PASSAGE_SAMPLE_CHARS = 600;
/** How many of the knowledge's languages the notice names. */
const MAX_NAMED = 3;

/**
 * The language (ISO 639-1) a text is written in, by the `tinyld` detector; undefined when it
 * cannot tell, or when its first choice does not score `margin` times its second.
 */
export function languageOfText(text: string, margin = 1): string | undefined {
  const [first, second] = detectAll(text);
  if (!first || first.lang === '' || first.accuracy < MIN_ACCURACY) return undefined;
  return second && first.accuracy < margin * second.accuracy ? undefined : first.lang;
}

/** A visitor's language when it is one the widget speaks and the detector is clear about it. */
export function visitorLanguageOf(text: string): VisitorLanguage | undefined {
  const language = languageOfText(text, MIN_MARGIN);
  return VISITOR_LANGUAGES.find((code) => code === language);
}

/** Languages of passages already read: the same passages come back question after question. Emptied when full. */
const passageLanguages = new Map<string, string | undefined>();
const MAX_PASSAGES = 5_000;

function passageLanguageOf(text: string): string | undefined {
  const sample = text.slice(0, PASSAGE_SAMPLE_CHARS);
  if (passageLanguages.has(sample)) return passageLanguages.get(sample);
  if (passageLanguages.size >= MAX_PASSAGES) passageLanguages.clear();
  const language = languageOfText(sample);
  passageLanguages.set(sample, language);
  return language;
}

/** The languages a knowledge's texts are written in, the most used first. */
export function knowledgeLanguagesOf(texts: readonly string[]): string[] {
  const counts = new Map<string, number>();
  for (const text of texts) {
    const language = passageLanguageOf(text);
    if (language) counts.set(language, (counts.get(language) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1]).map(([language]) => language);
}

/**
 * What a chatbot says, in the visitor's language, when the knowledge holds no answer and the
 * visitor writes in a language the knowledge is not written in: the languages it can answer in,
 * named in the visitor's language, and the contact offer. Undefined when the visitor's language is
 * not one the widget speaks, cannot be told, or is one of the knowledge's.
 */
export function otherLanguageNotice(question: string, knowledgeTexts: readonly string[]): string | undefined {
  const visitor = visitorLanguageOf(question);
  if (!visitor) return undefined;
  const knowledge = knowledgeLanguagesOf(knowledgeTexts);
  if (knowledge.length === 0 || knowledge.includes(visitor)) return undefined;
  const names = new Intl.DisplayNames([visitor], { type: 'language' });
  const languages = new Intl.ListFormat(visitor, { type: 'disjunction' }).format(knowledge.slice(0, MAX_NAMED).map((code) => names.of(code) ?? code));
  return LEXICON.replies.otherLanguage.byLanguage[visitor].replaceAll('{languages}', languages);
}
