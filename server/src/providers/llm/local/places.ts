/**
 * A small gazetteer: the regions a place belongs to, as knowledge bases name them ("We ship to the
 * EU", "UK delivery"), so "Do you deliver to Germany?" finds the EU sentence. Countries, their
 * adjectives and a few large cities; the words added to a question are the regions' own.
 */
const EU = ['eu', 'europe', 'european union'];
const REGIONS: [string[], string[]][] = [
  [[
    'austria', 'austrian', 'belgium', 'belgian', 'bulgaria', 'bulgarian', 'croatia', 'croatian', 'cyprus', 'cypriot', 'czechia',
    'czech republic', 'czech', 'denmark', 'danish', 'estonia', 'estonian', 'finland', 'finnish', 'france', 'french', 'germany',
    'german', 'greece', 'greek', 'hungary', 'hungarian', 'ireland', 'irish', 'italy', 'italian', 'latvia', 'latvian', 'lithuania',
    'lithuanian', 'luxembourg', 'malta', 'maltese', 'netherlands', 'holland', 'dutch', 'poland', 'polish', 'portugal', 'portuguese',
    'romania', 'romanian', 'slovakia', 'slovak', 'slovenia', 'slovenian', 'spain', 'spanish', 'sweden', 'swedish', 'paris', 'berlin',
    'madrid', 'rome', 'amsterdam', 'dublin', 'munich', 'vienna', 'brussels', 'lisbon', 'barcelona', 'milan', 'stockholm',
    'copenhagen', 'warsaw', 'prague', 'athens', 'hamburg',
  ], EU],
  [['switzerland', 'swiss', 'norway', 'norwegian', 'iceland', 'zurich', 'geneva', 'oslo'], ['europe', 'outside the eu']],
  [['england', 'english', 'scotland', 'scottish', 'wales', 'welsh', 'northern ireland', 'britain', 'british', 'london', 'manchester',
    'birmingham', 'edinburgh', 'glasgow', 'cardiff', 'belfast', 'liverpool', 'leeds'], ['uk', 'united kingdom']],
  [['usa', 'america', 'american', 'new york', 'california', 'texas', 'florida', 'los angeles', 'chicago', 'boston', 'seattle',
    'san francisco'], ['united states', 'us']],
  [['toronto', 'vancouver', 'montreal', 'canadian'], ['canada']],
  [['sydney', 'melbourne', 'brisbane', 'perth', 'australian'], ['australia']],
  [['auckland', 'wellington', 'kiwi'], ['new zealand']],
  [['saudi arabia', 'saudi', 'uae', 'dubai', 'abu dhabi', 'qatar', 'kuwait', 'bahrain', 'oman'], ['gulf', 'middle east']],
];

const PATTERNS = REGIONS.map(([places, regions]) => [new RegExp(`\\b(?:${places.join('|')})\\b`, 'i'), regions] as const);

/** The regions the places a text names belong to ("Germany" → "eu europe european union"), or ''. */
export function regionsOf(text: string): string {
  const regions = new Set<string>();
  for (const [pattern, names] of PATTERNS) if (pattern.test(text)) for (const name of names) regions.add(name);
  return [...regions].join(' ');
}
