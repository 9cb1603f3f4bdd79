import type { ToneType } from '@parley/shared';

/** A visitor message that is conversation, not a question for the knowledge. */
export type TurnKind = 'greeting' | 'thanks' | 'goodbye' | 'identity' | 'acknowledgement' | 'handoff' | 'complaint';

type Language = 'en' | 'de' | 'fr' | 'es' | 'ar' | 'he';

const words = (list: string) => new Set(list.trim().split(/\s+/));

/** An identity question is about "you" or a machine: "who is the manager?" is not one. */
const YOU = words(`you your u you're youre`);
const MACHINE = words(`bot robot ai chatbot machine-talk`);

/**
 * Per kind, the words that make a message that kind (triggers) and the words it may also hold.
 * A message is conversational only when every word of it is one of these or common filler, so
 * "hi, do you ship to Germany?" stays a question: "ship" and "Germany" are neither.
 */
const KINDS: { kind: TurnKind; triggers: Set<string>; allowed: Set<string>; test?: (tokens: string[]) => boolean }[] = [
  {
    kind: 'handoff',
    triggers: words(`human humans person people someone somebody agent agents operator representative rep staff manager supervisor
      team advisor adviser menschen mitarbeiter humain personne conseiller conseillère persona humano alguien شخص موظف إنسان נציג אדם`),
    allowed: words(`speak talk chat connect transfer put through get contact reach call want wanna need like would rather prefer i i'd can could
      may let me to with a an the some one real actual live member of customer service support please pls now right away is there
      possible how do i ich möchte mit einem einer sprechen je veux parler à un une puedo quiero hablar con una التحدث مع إلى
      أريد לדבר עם אפשר רוצה בן`),
    test: (tokens) => tokens.length <= 12,
  },
  {
    kind: 'complaint',
    triggers: words(`useless rubbish pointless stupid terrible awful hopeless annoying unhelpful dumb waste worst rubbish bad nonsense
      ridiculous frustrating frustrated not-helpful wrong wrong-answer`),
    allowed: words(`this that that's thats you you're youre your are is was it the a an of time chatbot bot thing totally completely really so very
      such just absolutely at all not helpful help doesn't didn't answer answering my question questions working work me still`),
  },
  {
    kind: 'identity',
    triggers: words(`who bot robot ai chatbot assistant name real human person wer bist qui êtes es tu quién eres من أنت מי אתה
      who-are-you what-can-you-do machine-talk`),
    allowed: words(`are r you u you're youre aren't arent what a an real human person is your am i talking to with can do help me what's whats exactly
      actually this it just`),
    test: (tokens) => tokens.some((token) => YOU.has(token) || MACHINE.has(token)) || !/^[a-z']+$/.test(tokens.join('')),
  },
  {
    kind: 'thanks',
    triggers: words(`thanks thank thx thanx thnx thanku tysm tyvm ty ta cheers appreciate appreciated helpful that-helps danke merci gracias شكرا شكراً תודה`),
    allowed: words(`you u ya so very much many lot a for your the help helpful info information that's thats that was is it great perfect
      you've been
      brilliant brill fab ace lovely awesome cool nice super really again mate kind of all ok okay good useful stuff schön beaucoup muchas جزيلا רבה`),
  },
  {
    kind: 'goodbye',
    triggers: words(`bye goodbye byebye cya later tschüss wiedersehen revoir adiós adios luego السلامة להתראות that's-all see-you
      take-care talk-soon have-a-nice-day goodnight night ciao no-thanks`),
    allowed: words(`see you ya soon for now have a nice good great lovely day evening weekend one take care then thanks thank
      catch talk to i needed no
      ok okay all it nothing else auf au hasta مع`),
  },
  {
    kind: 'greeting',
    triggers: words(`hi hiya hey heya hello hallo helo howdy yo morning afternoon evening greetings guten bonjour bonsoir salut
      hola buenos buenas مرحبا السلام أهلا שלום היי how-are-you whats-up anyone-there have-a-question can-you-help need-help`),
    allowed: words(`good there all everyone team how are you doing today it's going is things tag morgen abend días tardes عليكم`),
  },
  {
    kind: 'acknowledgement',
    triggers: words(`ok okay k kk okey alright sure fine understood noted gotcha yes yeah yep no nope hmm right d'accord vale gut
      verstanden got see cool great perfect nice lovely good brilliant brill fab ace awesome lol haha`),
    allowed: words(`i it that's thats makes sense fair enough all right then one you're youre`),
  },
];

const kindOf = (kind: TurnKind) => KINDS.find((k) => k.kind === kind)!;

/** Words any conversational message may hold. */
const FILLER = words('oh ah um umm erm ugh hmm well so and just please pls then mate guys really very x xx xxx');

/**
 * Phrases that make a message conversational, as one word each ("that's all" → "that's-all"):
 * none of their words would on its own ("what can you do?" is not a question for the knowledge).
 */
const PHRASES: [RegExp, string][] = [
  [/\bthat(?:'?s| is) (all|it|everything)\b|\bnothing else\b/g, "that's-all"],
  // "see you", "see you in June", "see you on Friday then".
  [/\bsee (you|ya|u)\b( (in|on|at|next|this|tomorrow|soon|then|later|there)\b( [\p{L}\d]+){0,2})?/gu, 'see-you'], [/\btake care\b/g, 'take-care'], [/\b(talk|speak) soon\b/g, 'talk-soon'],
  [/\bhave a (nice|good|great|lovely) (day|evening|weekend|one)\b/g, 'have-a-nice-day'], [/\bno,? thanks?( you)?\b/g, 'no-thanks'],
  [/\bhow are (you|u)\b|\bhow'?s it going\b/g, 'how-are-you'], [/\bwhat'?s up\b|\bwhats up\b/g, 'whats-up'],
  [/\b(are you|is any(one|body)|any(one|body)) (there|around)\b/g, 'anyone-there'],
  [/\bwhat (can|do) (you|u) (do|help (me )?with)\b/g, 'what-can-you-do'], [/\bwho am i (talking|speaking|chatting) (to|with)\b/g, 'who-are-you'],
  [/\bi (have|got|'ve got) a (quick )?question\b/g, 'have-a-question'], [/\bcan (you|u) help( me)?\b/g, 'can-you-help'],
  [/\bi need (some )?help\b|^\W*help( me)?\W*$/g, 'need-help'], [/\bthat help(s|ed)\b/g, 'that-helps'],
  [/\bnot what i (asked|meant|wanted)\b/g, 'not-helpful'], [/\bnot (very |really |that |much |at all |overly )?helpful\b/g, 'not-helpful'],
  // Pleasantries that open a conversation: "hope you're well", "hope you're keeping well".
  [/\bhope (you'?re|you are|u r|ur|you'?ve been|all is|all'?s|everyone'?s|things are)( all| keeping| doing| been| having a)? ?(well|good|ok|okay|fine|great|good day|nice day|lovely day)\b/g, 'how-are-you'],
  [/\b(not|isn'?t|aren'?t|doesn'?t|don'?t|never) (understand(ing|s)?|help(ing|s)?|get(ting)? it)\b/g, 'not-helpful'],
  [/\bwhat (are|r) (you|u)( exactly| actually)?\W*$/g, 'who-are-you'],
  // A machine by another name, said of the chat itself: "is this automated", "am I talking to a computer" (not "my program").
  [/\b(are (you|u)|r u|is this|am i (talking|chatting|speaking) (to|with))( just| only)?( an?)? (automated|automatic|machine|computer|program|programme|virtual assistant)\b/g, 'machine-talk'],
  // Frustration in the visitor's own words: "going round in circles", "getting nowhere", "fed up".
  [/\b(going|go|gone|went|been|running|run) (round|around) in circles\b|\bgetting nowhere\b|\bfed up\b|\bsick of (this|it)\b|\bi give up\b|\bhad enough\b/g, 'frustrating'],
  [/\b(wrong|incorrect|inaccurate|conflicting|contradictory) (info|information|answers?|details|replies|reply|responses?)\b/g, 'wrong-answer'],
  // "put me through to someone", "pass me on to your team".
  [/\b(put|pass|hand|transfer) (me|us) (through|over|on)\b/g, 'connect'],
];

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
const COMPLAINT_WORDS = new Set([...kindOf('complaint').triggers].filter((word) => !['wrong', 'bad', 'waste'].includes(word)));
const CONTACT_VERBS = words(`speak talk chat connect transfer call ring phone contact reach`);
const PEOPLE = new Set([...kindOf('handoff').triggers, 'reception', 'receptionist', 'desk']);
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
  return undefined;
}

/** The language of a short message, from its script and a few function words (English when unsure). */
export function languageOf(text: string): Language {
  if (/\p{Script=Arabic}/u.test(text)) return 'ar';
  if (/\p{Script=Hebrew}/u.test(text)) return 'he';
  const t = ` ${text.toLowerCase()} `;
  if (/\b(danke|hallo|guten|tschüss|wer|bist|sprechen|ich|und|nicht|mit)\b|ß/.test(t)) return 'de';
  if (/\b(merci|bonjour|bonsoir|salut|qui|êtes|vous|parler|au revoir|je|une)\b/.test(t)) return 'fr';
  if (/\b(gracias|hola|buenos|buenas|adiós|adios|quién|eres|hablar|persona|con|vale)\b|[¿¡ñ]/.test(t)) return 'es';
  return 'en';
}

type Replies = Record<TurnKind, string>;

const REPLIES: Record<Language, { friendly: Replies; formal?: Partial<Replies> }> = {
  en: {
    friendly: {
      greeting: 'Hi! What would you like to know?',
      thanks: "You're welcome! Anything else I can help with?",
      goodbye: 'Goodbye, and thanks for stopping by!',
      identity: "I'm the virtual assistant here: ask me anything about what this site covers and I'll answer from its information.",
      acknowledgement: 'Is there anything else you would like to know?',
      handoff: "I can't connect you to a person directly, but if you leave your contact details, someone from the team will get back to you.",
      complaint: "Sorry that wasn't helpful. Could you tell me a bit more about what you need? You can also leave your contact details for the team.",
    },
    formal: {
      greeting: 'Good day. How may I help you?',
      thanks: 'You are welcome. Is there anything else I can help you with?',
      goodbye: 'Thank you for your visit. Goodbye.',
    },
  },
  de: {
    friendly: {
      greeting: 'Hallo! Was möchten Sie wissen?', thanks: 'Gern geschehen! Kann ich sonst noch helfen?', goodbye: 'Auf Wiedersehen und danke für Ihren Besuch!',
      identity: 'Ich bin der virtuelle Assistent dieser Website und beantworte Fragen mit ihren Informationen.',
      acknowledgement: 'Möchten Sie noch etwas wissen?',
      handoff: 'Ich kann Sie nicht direkt mit einer Person verbinden, aber wenn Sie Ihre Kontaktdaten hinterlassen, meldet sich das Team bei Ihnen.',
      complaint: 'Entschuldigung, das hat nicht geholfen. Was genau suchen Sie? Sie können dem Team auch Ihre Kontaktdaten hinterlassen.',
    },
  },
  fr: {
    friendly: {
      greeting: 'Bonjour ! Que souhaitez-vous savoir ?', thanks: 'Avec plaisir ! Puis-je vous aider pour autre chose ?', goodbye: 'Au revoir et merci de votre visite !',
      identity: "Je suis l'assistant virtuel de ce site : je réponds à vos questions à partir de ses informations.",
      acknowledgement: 'Souhaitez-vous savoir autre chose ?',
      handoff: "Je ne peux pas vous mettre en relation directement avec une personne, mais si vous laissez vos coordonnées, l'équipe vous recontactera.",
      complaint: "Désolé, cela ne vous a pas aidé. Pouvez-vous préciser votre demande ? Vous pouvez aussi laisser vos coordonnées à l'équipe.",
    },
  },
  es: {
    friendly: {
      greeting: '¡Hola! ¿Qué le gustaría saber?', thanks: '¡De nada! ¿Puedo ayudarle en algo más?', goodbye: '¡Adiós y gracias por su visita!',
      identity: 'Soy el asistente virtual de este sitio: respondo a sus preguntas con su información.',
      acknowledgement: '¿Hay algo más que quiera saber?',
      handoff: 'No puedo ponerle en contacto directamente con una persona, pero si deja sus datos de contacto, el equipo se pondrá en contacto con usted.',
      complaint: 'Siento que no le haya servido. ¿Puede contarme un poco más? También puede dejar sus datos de contacto al equipo.',
    },
  },
  ar: {
    friendly: {
      greeting: 'مرحبًا! كيف يمكنني مساعدتك؟', thanks: 'على الرحب والسعة! هل هناك شيء آخر يمكنني مساعدتك به؟', goodbye: 'مع السلامة، وشكرًا لزيارتك!',
      identity: 'أنا المساعد الافتراضي لهذا الموقع، وأجيب عن أسئلتك من معلوماته.',
      acknowledgement: 'هل هناك شيء آخر تود معرفته؟',
      handoff: 'لا يمكنني تحويلك إلى شخص مباشرةً، لكن إذا تركت بيانات التواصل الخاصة بك فسيتواصل معك الفريق.',
      complaint: 'آسف لأن ذلك لم يكن مفيدًا. هل يمكنك توضيح ما تحتاجه؟ يمكنك أيضًا ترك بيانات التواصل للفريق.',
    },
  },
  he: {
    friendly: {
      greeting: 'שלום! במה אפשר לעזור?', thanks: 'בשמחה! יש עוד משהו שאפשר לעזור בו?', goodbye: 'להתראות ותודה שביקרת!',
      identity: 'אני העוזר הווירטואלי של האתר ועונה על שאלות מתוך המידע שבו.',
      acknowledgement: 'יש עוד משהו שתרצה לדעת?',
      handoff: 'אין לי אפשרות להעביר אותך ישירות לנציג, אבל אם תשאיר פרטי קשר, הצוות יחזור אליך.',
      complaint: 'מצטער שזה לא עזר. אפשר לפרט מה אתה מחפש? אפשר גם להשאיר פרטי קשר לצוות.',
    },
  },
};

/** A short reply to a conversational turn, in the visitor's language and the chatbot's tone. */
export function conversationalReply(kind: TurnKind, message: string, tone: ToneType | undefined): string {
  const replies = REPLIES[languageOf(message)];
  return (tone === 'FORMAL' ? replies.formal?.[kind] : undefined) ?? replies.friendly[kind];
}
