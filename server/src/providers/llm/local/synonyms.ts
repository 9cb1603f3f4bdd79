/**
 * A small thesaurus of the words visitors use for what a site's knowledge says another way: "send
 * it back" for returns, "Saturday" for "weekends", "big" for "large", "2FA" for "two-factor".
 * General service vocabulary (shops, hotels, software, councils), not any knowledge base's, and no
 * phrasing of a benchmark question: each group is words or phrases that stand for one another in a
 * question.
 * Retrieval searches a question's synonyms beside its words, and the local engine's ranking credits
 * a sentence holding a synonym of a question word at {@link SYNONYM_CREDIT}.
 */
import { contentStems } from './text-terms.js';

const GROUPS: string[][] = [
  ['big', 'bigger', 'biggest', 'large', 'larger', 'largest', 'huge'],
  ['small', 'smaller', 'smallest', 'little', 'tiny', 'mini'],
  ['buy', 'bought', 'purchase', 'purchased'],
  ['send back', 'send it back', 'send them back', 'take back', 'take it back', 'return', 'returns', 'returned', 'refund', 'money back',
    'get my money', 'see my money'],
  ['strong', 'stronger', 'strongest', 'powerful', 'intense'],
  ['price', 'prices', 'cost', 'costs', 'fee', 'fees', 'charge', 'charges', 'charged'],
  ['phone', 'ring', 'call', 'telephone', 'phone number'],
  ['job', 'jobs', 'vacancy', 'vacancies', 'hiring', 'recruiting', 'career', 'careers', 'work for you'],
  ['reward', 'rewards', 'loyalty', 'loyalty scheme', 'loyalty programme', 'loyalty program', 'loyalty card', 'points',
    'rewards scheme', 'reward scheme', 'rewards programme', 'rewards program', 'rewards club', 'loyalty club'],
  ['weekend', 'weekends', 'saturday', 'saturdays', 'sunday', 'sundays'],
  ['weekday', 'weekdays', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday'],
  // The holidays by their dates: "open in the run-up to Christmas?" is answered by "in December…".
  ['christmas', 'xmas', 'festive season', 'december'],
  ['christmas day', 'xmas day', '25 december', 'december 25', '25th december'],
  ['boxing day', '26 december', 'december 26', '26th december'],
  ['new year', "new year's day", '1 january', 'january 1', '1st january'],
  ['arrive', 'arrival', 'arriving', 'check in', 'check-in', 'checkin'],
  ['depart', 'departure', 'check out', 'check-out', 'checkout', 'vacate', 'leave the room', 'out of the room', 'out of our room',
    'last day', 'day we leave', 'day you leave', 'leaving day'],
  ['kid', 'kids', 'child', 'children', 'son', 'daughter', 'toddler', 'teenager', 'little one', 'baby', 'babies', 'infant', 'infants'],
  ['birth', 'births', 'born', 'newborn', 'baby', 'babies'],
  ['dog', 'dogs', 'pet', 'pets', 'puppy', 'cat', 'cats'],
  ['wifi', 'wi-fi', 'internet', 'broadband'],
  ['parking', 'park the car', 'car park', 'parking space'],
  ['bitcoin', 'crypto', 'cryptocurrency', 'cryptocurrencies', 'ethereum'],
  ['valid', 'validity', 'expire', 'expires', 'expiry', 'expiry date', 'good for', 'run out'],
  ['instalment', 'instalments', 'installment', 'installments', 'pay later', 'pay monthly', 'monthly payments'],
  ['minimum', 'at least'],
  ['deliver', 'delivery', 'deliveries', 'ship', 'shipping', 'postage', 'dispatch', 'dispatched', 'courier'],
  ['broken', 'smashed', 'cracked', 'damaged', 'faulty', 'shattered', 'defective', 'snapped', 'split'],
  ['closed', 'shut'],
  ['close', 'closes', 'closing', 'shut', 'shuts', 'open until'],
  ['replacement', 'replacements', 'replace', 'new one', 'a new bin'],
  ['change', 'switch', 'swap'],
  ['bestseller', 'bestsellers', 'best seller', 'best sellers', 'best selling', 'best-selling', 'most popular', 'most people go for',
    'most people buy', 'most people choose'],
  ['discount', 'discounts', 'voucher', 'vouchers', 'coupon', 'promo code', 'promotion', 'money off', 'pay less', 'deals',
    'special offer', 'special offers'],
  ['book', 'booking', 'reserve', 'reservation', 'reservations'],
  ['free', 'complimentary', 'no charge', 'no extra cost'],
  ['trial', 'free trial', 'try it', 'try out', 'test drive'],
  ['password', 'log in', 'login', 'sign in'],
  ['bin', 'bins', 'rubbish', 'waste', 'trash', 'garbage'],
  ['collect', 'collected', 'collection', 'pick up', 'picked up', 'pickup'],
  ['coeliac', 'coeliacs', 'celiac', 'gluten', 'gluten-free'],
  ['allergy', 'allergies', 'allergic', 'allergen', 'allergens', 'intolerance', 'rash', 'reaction', 'reactions', 'sensitive skin'],
  ['wheelchair', 'accessible', 'accessibility', 'disabled', 'disability', 'disabilities', 'step-free', 'mobility'],
  ['cancel', 'cancelled', 'cancelling', 'cancellation', 'pull out', 'back out', 'call off', 'call it off'],
  ['turn up', 'just turn up', 'walk in', 'walk-in', 'drop in', 'appointment', 'appointments'],
  ['lost property', 'lost and found', 'left behind', 'left my', 'left it', 'left something'],
  ['moving home', 'move home', 'moving house', 'move house', 'moving to', 'moving out', 'moving in', 'move into', 'move out'],
  ['cheap', 'cheaper', 'cheapest', 'affordable'],
  ['contact', 'get in touch', 'speak to', 'talk to', 'get hold of'],
  ['reply', 'replies', 'respond', 'response', 'responses', 'answer', 'answers'],
  ['tell us', 'let you know', 'let us know', 'inform', 'notify', 'notification', 'report', 'who should i tell', 'who do i tell', 'give notice',
    'notice'],
  ['live alone', 'living alone', 'live on my own', 'on my own', 'by myself', 'single person', 'only adult', 'only person'],
  ['bike', 'bikes', 'bicycle', 'bicycles', 'cycling'],
  ['toilet', 'toilets', 'bathroom', 'loo', 'restroom'],
  ['taxi', 'taxis', 'cab', 'shuttle', 'transfer', 'transfers'],
  ['scent', 'scents', 'smell', 'smells', 'fragrance', 'fragrances', 'aroma'],
  ['out of hours', 'out-of-hours', 'after hours'],
  ['wedding', 'marry', 'married', 'marriage'],
  // Software: accounts, billing, security.
  ['seat', 'seats', 'user', 'users', 'licence', 'licences', 'license', 'licenses', 'teammate', 'teammates', 'team member', 'team members',
    'editor', 'editors', 'extra people', 'more people'],
  ['invoice', 'invoices', 'receipt', 'receipts'],
  ['delete', 'deleted', 'deletion', 'erase', 'erased', 'wipe', 'wiped'],
  ['export', 'exports', 'download', 'downloads'],
  ['outage', 'outages', 'downtime', 'goes down', 'went down', 'is down', 'offline', 'status page'],
  ['two-factor', '2fa', 'mfa', 'two-step', 'multi-factor', 'authenticator'],
  ['single sign-on', 'sso', 'saml'],
  ['oidc', 'openid connect', 'openid'],
  ['migrate', 'migrated', 'migrating', 'migration', 'moved', 'move it'],
  ['topic', 'topics', 'theme', 'themes', 'category', 'categories'],
  ['retention', 'retain', 'retained', 'keep my data', 'keep our data', 'kept', 'hang on to', 'hold on to', 'hold onto'],
  ['integration', 'integrations', 'integrate', 'connect to', 'sync with', 'plugin', 'plug-in'],
  ['leak', 'leaked', 'breach', 'breached', 'hacked'],
  ['vulnerability', 'vulnerabilities', 'security hole', 'security flaw', 'security bug', 'security issue', 'exploit'],
  ['declined', 'payment fails', 'payment failed', 'failed payment', 'failed payments', 'card fails', 'bounced', "didn't go through",
    'did not go through', 'card expired', 'expired card'],
  ['downgrade', 'downgrading', 'downgraded', 'move down', 'cheaper plan', 'lower plan'],
  ['upgrade', 'upgrading', 'upgraded', 'move up', 'higher plan'],
  ['sub-processor', 'sub-processors', 'subprocessor', 'subprocessors', 'third party', 'third parties', 'third-party', 'behind the scenes'],
  ['certification', 'certifications', 'certified', 'certificate', 'compliance', 'compliant', 'soc 2', 'iso 27001'],
  ['support staff', 'support people', 'support team', 'support agents'],
  ['restore', 'restored', 'undo', 'change our minds', 'change my mind', 'recover'],
  ['onboarding', 'onboard', 'walk us through', 'walk me through', 'get started', 'setting up', 'set everything up'],
  ['combine', 'combined', 'combining', 'stack', 'stacking', 'both discounts', 'together with'],
  ['session', 'sessions', 'stay logged in', 'stay signed in', 'logged out', 'signed out'],
  ['annual', 'annually', 'yearly', 'per year', 'a year'],
  ['monthly', 'per month', 'a month'],
  // Councils: waste, streets, permits, tax.
  ['fly-tipping', 'fly tipping', 'dumping', 'dumped'],
  ['kerb', 'kerbside', 'curb', 'curbside', 'pavement', 'roadside', 'to the road', 'edge of the road'],
  ['the tip', 'the dump', 'recycling centre', 'household recycling centre'],
  ['reduction', 'reductions', 'exemption', 'exemptions', 'exempt', 'single person discount'],
  ['street light', 'streetlight', 'street lamp', 'lamp post'],
  ['noise', 'noisy', 'loud', 'racket', 'banging'],
  ['overdue', 'late returns', 'returned late', 'fines', 'late fee', 'late fees', 'fine-free'],
  ['unfurnished', 'no furniture', 'without furniture'],
  ['permit', 'permits', 'parking pass'],
  ['penalty charge', 'parking fine', 'parking ticket', 'penalty'],
  ['renew', 'renewal', 'keep it longer', 'keep them longer', 'keep it a bit longer', 'extend the loan'],
  ['borrow', 'borrowing', 'take out', 'loan', 'loans', 'on loan'],
  ['planning permission', 'planning application', 'permission to build'],
  ['neighbour', 'neighbours', 'neighbor', 'neighbors', 'next door'],
  // Hotels: stays and meals.
  ['luggage', 'bags', 'suitcase', 'suitcases', 'baggage'],
  ['packed lunch', 'picnic'],
  ['towel', 'towels', 'bedding', 'sheets', 'linen'],
  ['cot', 'cots', 'crib', 'travel cot'],
  ['late check-out', 'late checkout', 'check out late', 'stay later', 'leave later', 'keep the room', 'hang on to the room'],
  ['chemist', 'chemists', 'pharmacy', 'pharmacies', 'drugstore'],
  ['cash machine', 'cashpoint', 'atm', 'take money out', 'take cash out', 'withdraw cash', 'get cash'],
  ['reception', 'front desk', 'the desk', 'receptionist'],
  ['spa', 'massage', 'massages', 'treatment', 'treatments'],
  // Shops: orders and gifts.
  ['gift wrap', 'gift wrapping', 'gift-wrap', 'gift-wrapped', 'wrapping'],
  ['gift card', 'gift cards', 'gift voucher', 'gift vouchers'],
  ['wholesale', 'trade', 'stockist', 'stockists', 'resell', 'retailer', 'bulk order'],
  ['exclusive', 'exclusivity', 'only stockist', 'only shop', 'only one selling', 'only ones selling'],
  ['rrp', 'recommended retail price', 'retail price', 'shelf price', 'price on the shelf'],
  ['ingredients', 'made of', 'made from'],
  ['workshop', 'workshops', 'class', 'classes', 'session', 'sessions', 'course', 'courses', 'lesson', 'lessons'],
  ['parcel', 'parcels', 'package', 'packages'],
  ['track', 'tracking', 'tracked'],
  // The same service vocabulary in the other languages visitors write in (French, Spanish, German,
  // Arabic, Hebrew), each group in one language: a question finds the wording of a knowledge base's
  // own section in that language, not an English sentence. No group for prices: "combien ça coûte"
  // asks for an amount (rank-sentences.ts), and "coûte" as a synonym of "prix" put a sentence that
  // merely mentions prices first.
  ['arrivée', 'arriver', 'arrivons', 'arrivez', 'enregistrement'],
  ['départ', 'partir', 'partons', 'quitter la chambre', 'libérer la chambre', 'rendre la chambre', "quitter l'hôtel"],
  ['gratuit', 'gratuite', 'gratuits', 'gratuites', 'offert', 'offerte', 'sans frais'],
  ['chien', 'chiens', 'animal', 'animaux', 'chat', 'chats'],
  ['parking', 'garer', 'me garer', 'nous garer', 'se garer', 'stationner', 'stationnement', 'place de parking'],
  ['petit-déjeuner', 'petit déjeuner', 'petits-déjeuners'],
  ['réserver', 'réservation', 'réservations'],
  ['annuler', 'annulation', 'annulations'],
  ['livraison', 'livrer', 'livrez', 'expédier', 'expédiez', 'expédition', 'envoyer', 'envoyez'],
  ['payer', 'paiement', 'régler', 'règlement'],
  ['enfant', 'enfants', 'bébé', 'bébés'],
  ['recoger', 'recogen', 'recoge', 'recogida', 'vaciar', 'vacían', 'vacía'],
  ['gratis', 'gratuito', 'gratuita', 'gratuitos', 'gratuitas', 'sin coste', 'sin costo', 'no cuesta nada'],
  ['cubo', 'cubos', 'contenedor', 'contenedores', 'basura'],
  ['carné', 'carnet', 'tarjeta'],
  ['aparcar', 'aparcamiento', 'estacionar', 'estacionamiento'],
  ['pagar', 'pago', 'pagos', 'abonar'],
  ['enviar', 'envío', 'envíos', 'envían', 'entrega', 'entregas'],
  ['bezahlen', 'zahlen', 'zahlung', 'bezahlung', 'abbuchung'],
  ['lastschrift', 'bankeinzug', 'sepa-lastschrift', 'einzug'],
  ['kostenlos', 'umsonst', 'kostenfrei', 'gratis'],
  ['kündigen', 'kündigung', 'abbestellen'],
  ['rechnung', 'rechnungen'],
  ['tarif', 'abo', 'abonnement', 'plan'],
  ['gespeichert', 'speichern', 'gehostet', 'rechenzentrum', 'rechenzentren'],
  ['liefern', 'lieferung', 'versenden', 'versand', 'verschicken'],
  ['ouvert', 'ouverte', 'ouverts', 'ouvrez', 'ouvre', "horaires d'ouverture", "heures d'ouverture"],
  ['abierto', 'abierta', 'abre', 'abren', 'horario', 'horarios'],
  ['geöffnet', 'öffnungszeiten', 'offen', 'öffnet', 'erreichbar', 'erreichen'],
  ['يفتح', 'تفتح', 'تفتحون', 'يفتحون', 'مفتوح', 'مفتوحة', 'ساعات العمل', 'أوقات العمل', 'أوقات الدوام'],
  ['פתוח', 'פתוחה', 'פתוחים', 'פותחים', 'פותחת', 'נפתחת', 'שעות פתיחה', 'שעות הפתיחה'],
  ['التواصل', 'تواصل', 'نتواصل', 'أتواصل', 'الاتصال', 'اتصل', 'أتصل', 'راسلونا', 'مراسلتكم', 'البريد الإلكتروني', 'الإيميل'],
  ['ליצור קשר', 'קשר', 'להתקשר', 'מייל', 'אימייל', 'לכתוב'],
  ['تشحنون', 'نشحن', 'شحن', 'الشحن', 'توصيل', 'التوصيل', 'ترسلون', 'ترسلوا'],
  ['שולחים', 'שולחות', 'משלוח', 'משלוחים', 'שליחה', 'לשלוח'],
];

/** The thesaurus's single words: the spelling check also reads a misspelt word as one of them ("clases" → "classes"). */
export const THESAURUS_WORDS: ReadonlySet<string> = new Set(GROUPS.flat().filter((member) => /^\p{L}+$/u.test(member)));

/** Credit of a sentence word that is a synonym of a question word, against the word itself. */
export const SYNONYM_CREDIT = 0.75;

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/**
 * A member as a pattern of whole words. A phrasal verb ending in "back" or "up" may hold its object
 * inside ("send my candle back", "pick the sofa up").
 */
function patternOf(member: string): RegExp {
  const particle = /^(\S+) (back|up)$/.exec(member);
  const body = particle ? `${escape(particle[1]!)}(?:\\s+[\\p{L}\\p{N}'-]+){0,2}\\s+${particle[2]}` : escape(member);
  return new RegExp(`(?<![\\p{L}\\p{N}-])${body}(?![\\p{L}\\p{N}-])`, 'iu');
}

/**
 * Each member's pattern, found by the member's first word. A pattern can match only where that word
 * is a whole word of the text, so a text runs only the patterns of its own words: V8 compiles a
 * pattern on its first two runs, and compiling all of them took over 200 ms of a busy event loop on
 * the first questions (issue 12), and looking at every member of every group for each question
 * cost 150 µs of a burst's busy loop per question.
 */
const BY_FIRST_WORD = new Map<string, { group: number; index: number; pattern: RegExp }[]>();
GROUPS.forEach((members, group) => members.forEach((member, index) => {
  const first = member.split(' ')[0]!;
  BY_FIRST_WORD.set(first, [...(BY_FIRST_WORD.get(first) ?? []), { group, index, pattern: patternOf(member) }]);
}));

/** What separates the whole words the patterns match: anything but letters, digits and hyphens. */
const SEPARATORS = /[^\p{L}\p{N}-]+/u;

/** The groups a text uses, in the thesaurus's order, each with the members it holds and the others, in the group's order. */
export function groupsIn(text: string): { used: string[]; others: string[] }[] {
  const normalised = text.normalize('NFKC').replace(/[‘’]/g, "'");
  // After NFKC, lower-casing folds every letter the patterns' case-insensitive match folds (the members are lower case, composed).
  const used = new Map<number, Set<number>>();
  for (const word of new Set(normalised.toLowerCase().split(SEPARATORS))) {
    for (const { group, index, pattern } of BY_FIRST_WORD.get(word) ?? []) {
      if (!pattern.test(normalised)) continue;
      let members = used.get(group);
      if (!members) used.set(group, (members = new Set()));
      members.add(index);
    }
  }
  return [...used.keys()].sort((a, b) => a - b).map((group) => {
    const members = GROUPS[group]!;
    const held = used.get(group)!;
    return { used: members.filter((_, index) => held.has(index)), others: members.filter((_, index) => !held.has(index)) };
  });
}

/**
 * The synonyms of a text's words and phrases, as words to search beside them ('' when none). Each
 * is a query term of its own, as in the usual query expansion: a chunk saying "returns" and
 * "refund" counts both (on the dev set, better than counting a group once, as its best member or
 * as one term of summed frequency).
 */
export function synonymsOf(text: string): string {
  return [...new Set(groupsIn(text).flatMap(({ others }) => others))].join(' ');
}

/** Words of the phrases above that say nothing on their own ("get" of "get in", "cost" of "spread the cost"). */
const GENERIC = new Set(['get', 'take', 'send', 'pay', 'try', 'out', 'speak', 'talk', 'hold', 'test', 'drive', 'work', 'money', 'car', 'room', 'space', 'extra', 'cost', 'promo', 'code', 'pick', 'little', 'leav', 'card', 'free', 'drop']);

/** The stems a member stands for: a word's own; a phrase's telling words ("check-in" → "check"). */
const stemsOf = (member: string) => {
  const stems = contentStems(member);
  return stems.length > 1 || /[\s-]/.test(member) ? stems.filter((stem) => !GENERIC.has(stem)) : stems;
};

/** For each stem of a question's words that has synonyms, the stems of those synonyms. */
export function synonymStems(question: string): Map<string, string[]> {
  const synonyms = new Map<string, string[]>();
  for (const { used, others } of groupsIn(question)) {
    const alternatives = [...new Set(others.flatMap(stemsOf))];
    for (const key of used.flatMap((member) => contentStems(member))) {
      const own = alternatives.filter((alternative) => alternative !== key);
      if (own.length > 0) synonyms.set(key, [...new Set([...(synonyms.get(key) ?? []), ...own])]);
    }
  }
  return synonyms;
}
