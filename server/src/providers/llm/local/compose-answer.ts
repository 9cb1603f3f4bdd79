import { conversationalFallback, conversationalReply } from '../../../language/conversational-turn.js';
import { isFollowUp } from '../../../language/follow-up.js';
import { LEXICON, patternOf } from '../../../language/lexicon.js';
import type { AnswerPrompt, Citation } from '../answer-model.js';
import { meaningRelevanceOf, rankSentences, relevanceOf, termMatcher, type Alternatives, type MeaningOf, type ScoredSentence } from './rank-sentences.js';
import { regionsOf } from './places.js';
import { askOf } from './question-focus.js';
import { SYNONYM_CREDIT, synonymStems } from './synonyms.js';
import { contentStems, questionTerms, stem, tokenize } from './text-terms.js';
import { mergeSynonyms } from './wordnet-stems.js';

/**
 * Below this word relevance ({@link relevanceOf}) the context is taken to hold nothing about the
 * question when the sentence encoder is off. With the restrict text set, the answer is then exactly
 * that text (decisions.md § Chat and streaming). Chosen with server/bench/chat-quality.bench.ts on
 * SQuAD 2.0 (unanswerable against answerable questions).
 */
export const RESTRICT_RELEVANCE_THRESHOLD = 0.35;
/**
 * Share of a sentence's meaning a restricted chatbot discounts when its passage lacks the
 * question's names and numbers (in proportion to the share it lacks). Fresh questions about the visitor-questions sites: off-topic
 * refused 67% → 83% (first set), 58% → 58% (second), on-topic answers unchanged; the dev set
 * unchanged. Unrestricted chatbots do without it: there it turned useful answers into "not found".
 */
const MISSING_NAME_MEANING_PENALTY = 0.3;
/** Without the restrict text, weaker matches are still offered; below this the engine says it found nothing. */
export const ANSWER_RELEVANCE_THRESHOLD = 0.2;
/**
 * The same two thresholds on {@link meaningRelevanceOf}, when a sentence encoder ranks by meaning.
 * On the visitor-questions dev set, 0.64 kept 84% of on-topic and other-language questions and
 * refused every off-topic one (words alone at 0.35: 66% and 90%).
 */
export const RESTRICT_MEANING_THRESHOLD = 0.64;
export const ANSWER_MEANING_THRESHOLD = 0.5;
/** The answer body stays around two sentences. */
const MAX_BODY_CHARS = 450;

const NOT_FOUND: Record<NonNullable<AnswerPrompt['toneType']>, string> = LEXICON.replies.notFound.byTone;

/** What the local engine answers, and the passages (with the sentences) it drew on. */
export interface LocalAnswer {
  text: string;
  citations: Citation[];
  /** Set when the answer is the restrict text or the not-found reply: the knowledge held no answer. */
  declined?: true;
}

/**
 * Weight of a word telling the visitor's situation against a word of what they ask ({@link askOf}).
 * Fresh set D (four sites never seen): restricted useful 0.40 → 0.41, open 0.55 → 0.57 at 0.5
 * (0.25 turned a refusal into a wrong answer); the dev set unchanged.
 */
const SITUATION_WEIGHT = 0.5;

/** The question's subject words; a follow-up ("and its price?") borrows the previous question's at half weight. */
export function termsOf(prompt: AnswerPrompt): Map<string, number> {
  const terms = questionTerms(prompt.question);
  // Words telling the visitor's situation ("we're driving down with two toddlers, …") say less of
  // what the answer holds than the words of the ask.
  const ask = askOf(prompt.question);
  if (ask !== undefined) {
    const asked = questionTerms(ask);
    for (const [term, w] of terms) if (!asked.has(term)) terms.set(term, w * SITUATION_WEIGHT);
  }
  const previous = prompt.messages.slice(0, -1).reverse().find((message) => message.role === 'user');
  if (previous && isFollowUp(prompt.question)) {
    for (const [term, w] of questionTerms(previous.content)) if (!terms.has(term)) terms.set(term, w / 2);
  }
  return terms;
}

/**
 * Other ways the knowledge may write a question's word: a place by its regions ("Germany" by "the
 * EU"), a version by its number ("v1" by "version 1").
 */
export function termAlternatives(question: string): Alternatives {
  const alternatives: Alternatives = new Map();
  for (const token of tokenize(question)) {
    const regions = regionsOf(token);
    if (regions) alternatives.set(stem(token), [...new Set(contentStems(regions))]);
    const version = /^v(\d+)$/.exec(token);
    if (version) alternatives.set(token, [version[1]!]);
  }
  return alternatives;
}

/** A sentence joining the best one shares the question's words (its heading's do not count), unless the best shares none either. */
const sharesWords = (s: ScoredSentence, best: ScoredSentence) => s.ownCoverage > 0 || best.ownCoverage === 0;
/** The sentence after a short best one joins when it shares the question's words or holds the kind of answer the best lacks ("a crime." → "£400"). */
const addsMissingPiece = (next: ScoredSentence, best: ScoredSentence) => sharesWords(next, best) || (next.answersType && !best.answersType);

/** A sentence opening with a pronoun needs the one before it; "There are two chargers" does not ("there" + a form of "be"). */
const PRONOUN_START = patternOf(LEXICON.answerCues.pronounStart);

/** A sentence this close to the best one's score answers as well: it joins the answer. */
const CLOSE_CALL = 0.8;
/**
 * A sentence closer in meaning to the question than the best one joins the answer when it scores
 * at least this share of the best one's score. Fresh set F (four sites never seen): useful answers
 * restricted 0.51 → 0.53, open 0.66 → 0.68 (0.6 did as well and changed more answers, 0.8 gained
 * nothing); the held-out set G 0.60 → 0.61 and 0.66 → 0.68; the dev set unchanged.
 */
const MEANING_CALL = 0.7;
/**
 * The sentence right after the best one in its paragraph joins the answer when it shares a word of
 * the question and scores at least this share of the best one's score. Fresh set F: useful answers
 * restricted 0.53 → 0.54, open 0.68 → 0.69 (0.7 gained less); the held-out set G and the dev set
 * unchanged.
 */
const NEXT_CALL = 0.6;
/** Sentences in one answer at most. */
const MAX_SENTENCES = 3;
/**
 * The parts of a question asking two or more things ("is it vegan or gluten-free?", "what does the
 * class cost, and is there parking?"), each with subject words of its own; empty for a question asking one thing.
 */
export function questionParts(question: string): QuestionPart[] {
  const parts = question.split(/\b(?:and|or)\b|[,;?]/i).map((text) => text.trim()).filter((text) => questionTerms(text).size > 0);
  if (parts.length < 2) return [];
  return parts.map((text, index) => (index > 0 && ASKS.test(text) && REFERS_BACK.test(text) && questionTerms(text).size <= MAX_POINTING_TERMS ? { text, before: parts[index - 1] } : { text }));
}

/** One part of a question asking two things; `before` is the part it points back to ("…and what's the fee for doing that?"). */
export interface QuestionPart {
  text: string;
  before?: string;
}

/** How many subject words of its own a part pointing back may have: more, and it says what it asks about ("you've had them since Monday. How long until the money is back?"). */
const MAX_POINTING_TERMS = 2;
/** A part that asks ("what does that cost"), not one telling the visitor's situation ("you have had them since Monday"). */
const ASKS = patternOf(LEXICON.answerCues.asks);
/** A part pointing back to the part before it. */
const REFERS_BACK = patternOf(LEXICON.answerCues.refersBack);

/** What a part is read as by meaning: with the part it points back to. */
export const partMeaningText = (part: QuestionPart) => (part.before === undefined ? part.text : `${part.before} ${part.text}`);

/** A part's subject words; a part pointing back borrows the words of the part before it at half weight, as a follow-up does. */
function partTerms(part: QuestionPart): Map<string, number> {
  const terms = questionTerms(part.text);
  if (part.before !== undefined) for (const [term, w] of questionTerms(part.before)) if (!terms.has(term)) terms.set(term, w / 2);
  return terms;
}


/**
 * The best sentence first; then the sentence naming the subject of a leading pronoun, the item of
 * the list an introducing sentence ("…depends on your plan:") leads to that fits the question best,
 * the sentence after an introducing one, or the one after a short best sentence when it
 * adds the missing piece; then sentences scoring nearly as well (a
 * close call, or the other part of a two-part question), up to three sentences and ~450 characters.
 */
/** The list items or table rows right after an introducing sentence ("…depends on your plan:"), best-ranked first. */
function listAfter(ranked: readonly ScoredSentence[], intro: ScoredSentence): ScoredSentence[] {
  const byPosition = new Map(ranked.filter((s) => s.passage === intro.passage).map((s) => [s.position, s]));
  const list = new Set<ScoredSentence>();
  for (let position = intro.position + 1; byPosition.get(position)?.kind === 'item' || byPosition.get(position)?.kind === 'row'; position++) list.add(byPosition.get(position)!);
  return ranked.filter((s) => list.has(s));
}

/** How many sentences after the best one a missing price, time or number is looked for in its paragraph. */
const FOLLOWING_REACH = 2;
/** A sentence completing the best one scores at least this share of its score. */
const COMPLETION_FLOOR = 0.6;

/**
 * For each subject word of the question the best sentence lacks, the best-ranked sentence of the
 * best one's paragraph that holds it: "an afternoon tea for coeliacs?" is answered by "Afternoon
 * tea is served…" and, further on in the paragraph, "Vegan and gluten-free versions are available".
 */
function completions(ranked: readonly ScoredSentence[], holds: (s: ScoredSentence, term: string) => boolean, terms: readonly string[]): ScoredSentence[] {
  const [best] = ranked;
  if (!best) return [];
  // A sentence asking a question ("Need more seats?") introduces, it does not answer.
  const paragraph = ranked.filter((s) => s !== best && s.passage === best.passage && s.block === best.block && s.score >= COMPLETION_FLOOR * best.score
    && !s.text.endsWith('?'));
  const forTerms = terms.filter((term) => !holds(best, term)).flatMap((term) => paragraph.find((s) => holds(s, term)) ?? []);
  // A question wanting a price, a time or a number ("what does it cost to…?") whose best sentence has
  // none gets the paragraph's first sentence that has one: the rule ("A subscription costs £49 a
  // year") comes before its variants ("A second green bin costs £35").
  // Failing that, the sentence right after it that has one, however few of the question's words it
  // repeats: "…a two-hour session where you design your own scent. Tickets cost £60."
  const typed = !best.answersType && ranked.some((s) => s.answersType)
    ? paragraph.filter((s) => s.answersType).sort((a, b) => a.position - b.position)[0]
      ?? ranked.find((s) => s.answersType && s.passage === best.passage && s.block === best.block && s.position > best.position && s.position <= best.position + FOLLOWING_REACH)
    : undefined;
  return typed ? [typed, ...forTerms] : forTerms;
}

/** A sentence stating a case ("If your room is ready, …", "Unless you…") rather than the rule. */
const CASE_START = patternOf(LEXICON.answerCues.caseStart);
/** The case a question states ("what if our room is ready early?"), up to the next comma or question mark. */
const QUESTION_CASE = patternOf(LEXICON.answerCues.questionCase);

/**
 * Whether the question states the case the sentence states: "what if our room is ready early?"
 * does "If your room is ready, …"; "if something comes up, how late can we cancel?" does not state
 * "If you cancel between 13 days and 72 hours before arrival, …".
 */
function statesCase(question: string, sentence: string): boolean {
  const asked = QUESTION_CASE.exec(question)?.[1];
  if (asked === undefined) return false;
  const stated = new Set(contentStems(sentence.split(',')[0]!));
  return contentStems(asked).some((s) => stated.has(s));
}

/** The rule leading a case scores at least this share of the case's score. */
const RULE_FLOOR = 0.6;

/** A section's place: its headings but the last. Sibling sections ("Check-in and check-out", "Arriving early") share it. */
const parentOf = (s: ScoredSentence) => s.section.slice(0, -1).join('\n');

/**
 * When the best sentence states a case the question did not ("If your room is ready, you can check
 * in from 1pm for £20" for "when can we check in?"), the rule stated before it in its
 * section or a sibling section ("Check-in is from 3pm to 9pm."): a sentence of a paragraph (not a
 * list item or a table row) that holds a question word the case holds, holds the kind of answer
 * the case holds, and scores nearly as well. It leads; the case follows.
 */
function ruleOf(ranked: readonly ScoredSentence[], question: string, holds: (s: ScoredSentence, term: string) => boolean, terms: readonly string[]): ScoredSentence | undefined {
  const [best] = ranked;
  if (!best || !CASE_START.test(best.text) || statesCase(question, best.text)) return undefined;
  const bestTerms = terms.filter((term) => holds(best, term));
  return ranked.find((s) => s.kind === 'paragraph' && s.passage === best.passage && s.position < best.position && parentOf(s) === parentOf(best) && s.score >= RULE_FLOOR * best.score
    && bestTerms.some((term) => holds(s, term)) && (s.answersType || !best.answersType)
    && !CASE_START.test(s.text) && !s.text.endsWith('?') && !s.text.endsWith(':'));
}

function pickSentences(ranked: readonly ScoredSentence[], partAnswers: readonly string[], completing: readonly ScoredSentence[] = []): ScoredSentence[] {
  const [best] = ranked;
  if (!best) return [];
  const sameBlock = (s: ScoredSentence) => s.passage === best.passage && s.block === best.block;
  const next = ranked.find((s) => sameBlock(s) && s.position === best.position + 1);
  const previous = ranked.find((s) => sameBlock(s) && s.position === best.position - 1);
  const chosen = [best];
  let chars = best.text.length;
  const add = (s: ScoredSentence | undefined) => {
    if (!s || chosen.includes(s) || chosen.length >= MAX_SENTENCES || chars + s.text.length > MAX_BODY_CHARS) return;
    chosen.push(s);
    chars += s.text.length;
  };
  const list = best.text.endsWith(':') ? listAfter(ranked, best) : [];
  if (previous && PRONOUN_START.test(best.text)) add(previous);
  else if (list.length > 0) add(list[0]);
  else if (next && (best.text.endsWith(':') || (best.text.split(/\s+/).length < 8 && addsMissingPiece(next, best)))) add(next);
  // Each part of a multi-part question gets its own best sentence, before sentences that say more
  // about a part already answered.
  for (const text of partAnswers) add(ranked.find((s) => s.text === text));
  for (const s of completing) add(s);
  // Meaning alone ties every sentence of a section written in a language the encoder does not know.
  for (const s of ranked.slice(1, MAX_SENTENCES)) if (s.score >= CLOSE_CALL * best.score && sharesWords(s, best)) add(s);
  // The sentence after the best one in its paragraph joins when it shares the question's words and
  // scores nearly as well: a paragraph goes on with what the visitor needs next ("If the fire alarm
  // sounds, leave by the nearest exit." → "Fire marshals meet everyone at the assembly point.").
  if (next && next.score >= NEXT_CALL * best.score && sharesWords(next, best) && !next.text.endsWith('?')) add(next);
  // The sentence closest in meaning joins a best one chosen mostly by its words when it scores
  // nearly as well: on knowledge the thesaurus was not written for, the words of a paraphrase
  // ("is it fine for a complete novice?") miss the sentence that answers ("No experience is needed").
  const closest = ranked.slice(1).reduce<ScoredSentence | undefined>((top, s) => (top === undefined || s.meaning > top.meaning ? s : top), undefined);
  if (closest && closest.meaning > best.meaning && closest.score >= MEANING_CALL * best.score) add(closest);
  // A pronoun's subject reads before it; otherwise the best sentence leads.
  return previous && chosen[1] === previous ? [previous, best, ...chosen.slice(2)] : chosen;
}

/** Scripts a knowledge base's headings are commonly written in. */
const SCRIPTS = LEXICON.answerCues.scripts.names.map((name) => ({ name, letters: new RegExp(`\\p{Script=${name}}`, 'gu') }));

/** The script most of a text's letters are written in (undefined without letters of these scripts). */
function scriptOf(text: string): string | undefined {
  let best: string | undefined, most = 0;
  for (const { name, letters } of SCRIPTS) {
    const count = text.match(letters)?.length ?? 0;
    if (count > most) [best, most] = [name, count];
  }
  return best;
}

/**
 * Without the restrict text and without a match: say so, and name what the knowledge does cover.
 * The reply is in English, so it names headings in Latin script or in the question's own: an
 * English visitor is not offered a section written in Hebrew.
 */
function notFound(prompt: AnswerPrompt, ranked: readonly ScoredSentence[]): string {
  const readable = new Set(['Latin', scriptOf(prompt.question)]);
  const named = (topic: string | undefined): topic is string => {
    if (!topic) return false;
    const script = scriptOf(topic);
    return script === undefined || readable.has(script);
  };
  const topics = [...new Set(ranked.slice(0, 12).map((s) => s.section.at(-1)).filter(named))].slice(0, 3);
  const base = NOT_FOUND[prompt.toneType ?? 'FRIENDLY'];
  return topics.length === 0 ? `${base} Could you rephrase your question?`
    : `${base} I can help with questions such as ${topics.join(', ')}. Could you rephrase your question?`;
}

/**
 * Share of the restrict threshold a follow-up of a question the chatbot answered must reach: it
 * is about what was just answered ("could I make it land in my mum's inbox on her birthday
 * instead?" after "Do you sell gift cards?"), and its few words say less of it by themselves.
 */
const FOLLOW_UP_RESTRICT_SHARE = 0.85;

/** Whether the question follows up one the chatbot answered (not with its restrict text). */
function followsAnAnswer(prompt: AnswerPrompt): boolean {
  const earlier = prompt.messages.slice(0, -1);
  const answer = earlier.findLast((message) => message.role === 'assistant');
  return answer !== undefined && earlier.some((message) => message.role === 'user') && answer.content.trim() !== prompt.restrictResponse?.trim()
    && isFollowUp(prompt.question);
}

/**
 * Share of its score a sentence keeps when the chatbot's last answer already said it: the visitor
 * has read it, and asks on ("and how do I fix that myself?") for what comes next.
 */
const REPEAT_SHARE = 0.5;

/** Whitespace-folded lower case, to find a sentence inside an earlier answer. */
const folded = (text: string) => text.toLowerCase().replace(/\s+/g, ' ').trim();

/**
 * The ranking with the sentences of the chatbot's last answer lowered ({@link REPEAT_SHARE}),
 * unless one holds a word of the new question itself: "and on Sundays?" may be answered by the
 * opening hours just given.
 */
function notRepeating(ranked: readonly ScoredSentence[], messages: AnswerPrompt['messages'], asksOwn: (s: ScoredSentence) => boolean): readonly ScoredSentence[] {
  const said = messages.slice(0, -1).findLast((message) => message.role === 'assistant');
  if (!said) return ranked;
  const text = folded(said.content);
  const repeats = (s: ScoredSentence) => text.includes(folded(s.text)) && !asksOwn(s);
  if (!ranked.some(repeats)) return ranked;
  return ranked.map((s) => (repeats(s) ? { ...s, score: s.score * REPEAT_SHARE } : s))
    .sort((a, b) => b.score - a.score || a.passage - b.passage || a.position - b.position);
}

/**
 * The local engine's whole answer: the context sentences that best answer the question (their
 * sources are returned as citations, not written into the text); the restrict text when the
 * context is not relevant enough and the chatbot is restricted; a short reply of its own for
 * conversation, or when nothing was found.
 */
export function composeLocalAnswer(
  prompt: AnswerPrompt, meaningOf?: MeaningOf, partMeanings: readonly (MeaningOf | undefined)[] = [], lexicon: ReadonlyMap<string, string[]> = new Map(),
): LocalAnswer {
  if (prompt.turn) return { text: conversationalReply(prompt.turn, prompt.question, prompt.toneType), citations: [] };
  const terms = termsOf(prompt);
  const alternatives = termAlternatives(prompt.question);
  const ownSynonyms = synonymStems(prompt.question);
  const synonyms = mergeSynonyms(ownSynonyms, lexicon);
  const rank = (withSynonyms: Alternatives) => (terms.size === 0 && !meaningOf ? [] : rankSentences(prompt.question, terms, prompt.passages, meaningOf, alternatives, withSynonyms));
  const ranked = rank(synonyms);
  // WordNet's synonyms choose among sentences; whether the knowledge answers at all is judged
  // without them: a general thesaurus also links an off-topic question to the site ("motorbike"
  // is a "bike") and let questions through whose answer it then got wrong.
  const judged = lexicon.size === 0 ? ranked : rank(ownSynonyms);
  const [relevanceIn, restrictAt, answerAt] = meaningOf
    ? [meaningRelevanceOf, RESTRICT_MEANING_THRESHOLD, ANSWER_MEANING_THRESHOLD]
    : [relevanceOf, RESTRICT_RELEVANCE_THRESHOLD, ANSWER_RELEVANCE_THRESHOLD];
  // The restrict decision is the whole question's. Judged part by part, short parts passed it far
  // more easily: 63% of Python FAQ questions refused by a Wikipedia chatbot, against 71%.
  const relevance = relevanceIn(judged);
  // A restricted chatbot also weighs the names the question holds and the context lacks: an
  // off-topic question sharing the site's words ("how long is the drive from Cornwall to
  // Glasgow?") has a sentence of like meaning ("From London the drive takes about 5 hours").
  const restrictRelevance = meaningOf ? meaningRelevanceOf(judged, MISSING_NAME_MEANING_PENALTY) : relevance;
  const refusal = restrictRelevance < (followsAnAnswer(prompt) ? FOLLOW_UP_RESTRICT_SHARE * restrictAt : restrictAt) ? prompt.restrictResponse : undefined;
  if (refusal !== undefined || relevance < answerAt) {
    // Conversation in more words than a greeting ("can I just speak to someone at reception instead?") gets its reply.
    const fallback = conversationalFallback(prompt.question);
    if (fallback) return { text: conversationalReply(fallback, prompt.question, prompt.toneType), citations: [] };
    return { text: refusal ?? notFound(prompt, ranked), citations: [], declined: true };
  }
  // Each part of a question asking two things is ranked as a question of its own, and gets its best
  // sentence when the words or the meaning find it answered (the encoder knows no brand, "do you
  // take Klarna?"; the words know no paraphrase).
  const partAnswers = questionParts(prompt.question).flatMap((part, index) => {
    const partRanked = rankSentences(part.text, partTerms(part), prompt.passages, partMeanings[index], termAlternatives(part.text), mergeSynonyms(synonymStems(partMeaningText(part)), lexicon));
    const answered = relevanceIn(partRanked) >= answerAt || relevanceOf(partRanked) >= ANSWER_RELEVANCE_THRESHOLD;
    return answered && partRanked[0] ? [partRanked[0].text] : [];
  });
  // Held: the word itself, an alternative or a synonym, not a shared prefix.
  const match = termMatcher(alternatives, synonyms);
  const holds = (s: ScoredSentence, term: string) => match(term, s.stems) >= SYNONYM_CREDIT;
  const ownTerms = [...terms].filter(([, weight]) => weight === 1).map(([term]) => term);
  const questionOwn = [...questionTerms(prompt.question).keys()];
  const picking = notRepeating(ranked, prompt.messages, (s) => questionOwn.some((term) => holds(s, term)));
  let chosen = pickSentences(picking, partAnswers, completions(picking, holds, ownTerms));
  const rule = ruleOf(picking, prompt.question, holds, ownTerms);
  if (rule) chosen = [rule, ...chosen.filter((s) => s !== rule)].slice(0, MAX_SENTENCES);
  const citations = new Map<number, string[]>();
  for (const sentence of chosen) citations.set(sentence.passage, [...(citations.get(sentence.passage) ?? []), sentence.text]);
  return {
    text: chosen.map((s) => s.text).join(' '),
    citations: [...citations].map(([passage, sentences]) => ({ passage, snippet: sentences.join(' ') })),
  };
}
