import type { ToneType } from '@parley/shared';
import Sentiment from 'sentiment';
import { LEXICON, patternOf } from './lexicon.js';

/** A visitor message that is conversation, not a question for the knowledge. */
export type TurnKind = 'greeting' | 'thanks' | 'goodbye' | 'identity' | 'acknowledgement' | 'handoff' | 'complaint';

type Language = 'en' | 'de' | 'fr' | 'es' | 'ar' | 'he';

const { conversation } = LEXICON;
const words = (group: { words: string[] }) => new Set(group.words);

/** An identity question is about "you" or a machine: "who is the manager?" is not one. */
const YOU = words(conversation.you);
const MACHINE = words(conversation.machine);

/** Extra conditions of a kind beyond its words. */
const TESTS: Partial<Record<TurnKind, (tokens: string[]) => boolean>> = {
  handoff: (tokens) => tokens.length <= 12,
  identity: (tokens) => tokens.some((token) => YOU.has(token) || MACHINE.has(token)) || !/^[a-z']+$/.test(tokens.join('')),
};

/**
 * Per kind, the words that make a message that kind (triggers) and the words it may also hold.
 * A message is conversational only when every word of it is one of these or common filler, so
 * "hi, do you ship to Germany?" stays a question: "ship" and "Germany" are neither.
 */
const KINDS: { kind: TurnKind; triggers: Set<string>; allowed: Set<string>; test?: (tokens: string[]) => boolean }[] = conversation.kinds.map(
  ({ kind, triggers, allowed }) => ({ kind: kind as TurnKind, triggers: new Set(triggers), allowed: new Set(allowed), test: TESTS[kind as TurnKind] }),
);

const kindOf = (kind: TurnKind) => KINDS.find((k) => k.kind === kind)!;

/** Words any conversational message may hold. */
const FILLER = words(conversation.filler);

/**
 * Phrases that make a message conversational, as one word each ("that's all" → "that's-all"):
 * none of their words would on its own ("what can you do?" is not a question for the knowledge).
 */
const PHRASES: [RegExp, string][] = conversation.phrases.map((phrase) => [patternOf(phrase), phrase.as]);

/** Words of a message, lower case, emoji and punctuation dropped, its conversational phrases as one word each. */
function tokensOf(message: string): string[] {
  let text = message.normalize('NFKC').toLowerCase().replace(/[’‘]/g, "'");
  for (const [pattern, word] of PHRASES) text = text.replace(pattern, word);
  return text.match(/[\p{L}\p{N}'-]+/gu)?.map((token) => token.replace(/^'+|'+$/g, '')).filter(Boolean) ?? [];
}

/**
 * The kinds a closing or opening message mixes ("ok thx, that's all for now": an acknowledgement,
 * thanks and a goodbye), in the order the reply is chosen: a goodbye is answered as one.
 */
const MIXABLE: TurnKind[] = ['goodbye', 'thanks', 'greeting', 'acknowledgement'];
const MIXABLE_WORDS = new Set(KINDS.filter(({ kind }) => MIXABLE.includes(kind)).flatMap(({ triggers, allowed }) => [...triggers, ...allowed]));

/** What kind of conversational turn a visitor message is, or undefined for a question or request. */
export function classifyTurn(message: string): TurnKind | undefined {
  const tokens = tokensOf(message);
  if (tokens.length === 0 || tokens.length > 16) return undefined;
  for (const { kind, triggers, allowed, test } of KINDS) {
    if (!tokens.some((token) => triggers.has(token))) continue;
    if (tokens.every((token) => triggers.has(token) || allowed.has(token) || FILLER.has(token)) && (!test || test(tokens))) return kind;
  }
  // A message mixing two of these kinds, every word of it theirs: no single kind allows the
  // others' words. Handoffs, complaints and identity questions do not mix: their words make
  // questions ("hi, how do I contact customer service?").
  const triggered = MIXABLE.filter((kind) => tokens.some((token) => kindOf(kind).triggers.has(token)));
  if (triggered.length >= 2 && tokens.every((token) => MIXABLE_WORDS.has(token) || FILLER.has(token))) return triggered[0];
  return undefined;
}

/** What a complaint says however it goes on ("wrong" or "bad" may describe the visitor's own order). */
const COMPLAINT_WORDS = new Set([...kindOf('complaint').triggers].filter((word) => !conversation.notComplaintAlone.words.includes(word)));
const CONTACT_VERBS = words(conversation.contactVerbs);
const PEOPLE = new Set([...kindOf('handoff').triggers, ...conversation.peopleAtTheDesk.words]);
const FALLBACK_LENGTH = 24;
/** How many words after its verb a request for a person names the person ("speak to a member of staff"). */
const PERSON_REACH = 5;

/**
 * A message that reads as conversation though it says more than `classifyTurn` allows: "I've rung
 * three times today and nobody picks up. Absolutely useless.", "can I just speak to someone at
 * reception instead?", "you're a robot, aren't you?". It is asked only when the knowledge holds no
 * answer, so a question with these words ("can I speak to someone about a wholesale account?")
 * is answered from the knowledge when it can be, and is otherwise not refused as off-topic.
 */
export function conversationalFallback(message: string): TurnKind | undefined {
  const tokens = tokensOf(message);
  if (tokens.length === 0 || tokens.length > FALLBACK_LENGTH) return undefined;
  const has = (set: Set<string>) => tokens.some((token) => set.has(token));
  if (has(COMPLAINT_WORDS) && !message.includes('?')) return 'complaint';
  // "speak to someone", "talk to a real person": not "someone on the live chat".
  if (tokens.some((token, i) => CONTACT_VERBS.has(token) && tokens.slice(i + 1, i + 1 + PERSON_REACH).some((next) => PEOPLE.has(next)))) return 'handoff';
  if (has(MACHINE) && (has(YOU) || tokens.includes('i') || tokens.includes('this'))) return 'identity';
  if (!message.includes('?') && tellsABadExperience(message)) return 'complaint';
  return undefined;
}

/** English word valences (AFINN-165, a general lexicon rated by hand, negation handled). */
const sentiment = new Sentiment();
/** Valence at or below which a remark is a complaint ("rude" is -2, "not impressed" -3, "late" is unrated). */
const COMPLAINT_VALENCE = -2;
/** A message opening as a question does ("what…", "can I…"), with or without its question mark. */
const OPENS_ASKING = patternOf(LEXICON.answerCues.asks);

/**
 * An English remark, asking nothing, about something that went badly ("the driver was really rude
 * to us yesterday", "waited an hour on the phone, not impressed"): the visitor is complaining, not
 * asking what the knowledge could answer. Read with a general valence lexicon, not a list of
 * complaints.
 */
function tellsABadExperience(message: string): boolean {
  if (languageOf(message) !== 'en' || OPENS_ASKING.test(message.trim())) return false;
  return sentiment.analyze(message).score <= COMPLAINT_VALENCE;
}

/** The words that tell German, French and Spanish apart in a short message, in the order they are tried. */
const LANGUAGE_CUES = conversation.languageCues.map((cue) => ({ language: cue.language as Language, cue: patternOf(cue) }));

/** The language of a short message, from its script and a few function words (English when unsure). */
export function languageOf(text: string): Language {
  if (/\p{Script=Arabic}/u.test(text)) return 'ar';
  if (/\p{Script=Hebrew}/u.test(text)) return 'he';
  const t = ` ${text.toLowerCase()} `;
  return LANGUAGE_CUES.find(({ cue }) => cue.test(t))?.language ?? 'en';
}

type Replies = Record<TurnKind, string>;

const REPLIES: Record<Language, { friendly: Replies; formal?: Partial<Replies> }> = LEXICON.replies.conversational;

/** A short reply to a conversational turn, in the visitor's language and the chatbot's tone. */
export function conversationalReply(kind: TurnKind, message: string, tone: ToneType | undefined): string {
  const replies = REPLIES[languageOf(message)];
  return (tone === 'FORMAL' ? replies.formal?.[kind] : undefined) ?? replies.friendly[kind];
}

const JOINING: Record<Language, string> = LEXICON.replies.handoffJoining.byLanguage;

/**
 * The reply to a request for a person when one is being asked to join (the team is available),
 * in the visitor's language: the handoff reply offers the contact route only when nobody is.
 */
export function handoffJoiningReply(message: string): string {
  return JOINING[languageOf(message)];
}
