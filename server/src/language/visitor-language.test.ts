import { describe, expect, it } from 'vitest';
import { knowledgeLanguagesOf, languageOfText, otherLanguageNotice, visitorLanguageOf, type VisitorLanguage } from './visitor-language.js';

const FERRY = [
  'The ferry leaves the harbour every hour from 7am. Bicycles travel free on the lower deck; tell the crew when you board.',
  'Tickets can be bought on board or at the kiosk by the pier. Children under five travel free.',
];

/** A question about taking a bicycle on the ferry, in each language the widget speaks. */
const BIKE_QUESTION: Record<VisitorLanguage, string> = {
  en: 'Can I take my bicycle on the ferry?',
  ar: 'هل يمكنني أخذ دراجتي على العبّارة؟',
  de: 'Darf ich mein Fahrrad auf die Fähre mitnehmen?',
  es: '¿Puedo llevar mi bicicleta en el ferry?',
  fa: 'آیا می‌توانم دوچرخه‌ام را به کشتی بیاورم؟',
  fr: 'Est-ce que je peux prendre mon vélo sur le bateau ?',
  he: 'אפשר לקחת את האופניים שלי למעבורת?',
  it: 'Posso portare la mia bicicletta sul traghetto?',
  ja: '自転車をフェリーに持ち込めますか？',
  nl: 'Mag ik mijn fiets meenemen op de veerboot?',
  pt: 'Posso levar a minha bicicleta no barco?',
  zh: '我可以把自行车带上渡轮吗？',
};

describe('visitor language', () => {
  it.each(Object.entries(BIKE_QUESTION))('tells a question in %s', (language, question) => {
    expect(visitorLanguageOf(question)).toBe(language);
  });

  it('names the knowledge\'s languages, the most used first', () => {
    expect(knowledgeLanguagesOf(FERRY)).toEqual(['en']);
    expect(knowledgeLanguagesOf([...FERRY, 'Le bac part du port toutes les heures à partir de 7 heures. Les vélos voyagent gratuitement.'])).toEqual(['en', 'fr']);
    expect(knowledgeLanguagesOf([])).toEqual([]);
  });

  it.each(Object.entries(BIKE_QUESTION).filter(([language]) => language !== 'en'))('tells a visitor writing in %s, in that language, what the chatbot answers in', (language, question) => {
    const notice = otherLanguageNotice(question, FERRY);
    const english = new Intl.DisplayNames([language], { type: 'language' }).of('en')!;
    expect(notice).toContain(english);
    expect(languageOfText(notice!)).toBe(language);
  });

  it('says nothing when the visitor writes in a language of the knowledge, or the language cannot be told', () => {
    expect(otherLanguageNotice(BIKE_QUESTION.en, FERRY)).toBeUndefined();
    expect(otherLanguageNotice(BIKE_QUESTION.fr, [...FERRY, 'Le bac part du port toutes les heures à partir de 7 heures.'])).toBeUndefined();
    expect(otherLanguageNotice('?!', FERRY)).toBeUndefined();
    // The detector hesitates between English and Berber: no notice rather than one in the wrong language.
    expect(visitorLanguageOf('tell me a joke')).toBeUndefined();
    expect(otherLanguageNotice(BIKE_QUESTION.fr, [])).toBeUndefined();
  });

  it('names every language the knowledge is written in, in the visitor\'s words, with the contact offer', () => {
    const knowledge = ['Die Fähre fährt jede Stunde ab 7 Uhr. Fahrräder fahren kostenlos auf dem unteren Deck mit.', ...FERRY];
    expect(otherLanguageNotice(BIKE_QUESTION.fr, knowledge)).toBe(
      'Je ne peux répondre qu\'à partir d\'informations en anglais ou allemand. Vous pouvez reposer votre question en anglais ou allemand, '
      + 'ou laisser vos coordonnées : l\'équipe vous recontactera.',
    );
  });
});
