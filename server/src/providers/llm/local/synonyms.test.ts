import { describe, expect, it } from 'vitest';
import { synonymStems, synonymsOf } from './synonyms.js';
import { stem } from './text-terms.js';

describe('synonyms of a visitor\'s words', () => {
  it('gives the words the knowledge may use instead, for words and for phrases', () => {
    expect(synonymsOf('Can I send it back?').split(' ')).toEqual(expect.arrayContaining(['return', 'refund']));
    expect(synonymsOf('What time is arrival?').split(' ')).toContain('check-in');
    expect(synonymsOf('Are you open on a Saturday?').split(' ')).toContain('weekends');
    expect(synonymsOf('How long does the big one last?').split(' ')).toContain('large');
    expect(synonymsOf('Do you run a shuttle from the station?').split(' ')).toContain('transfer');
    expect(synonymsOf('I live on my own, can I pay less council tax?').split(' ')).toEqual(expect.arrayContaining(['single', 'discount']));
    expect(synonymsOf('how long do you take to answer emails').split(' ')).toContain('reply');
    expect(synonymsOf('what time do we have to be out of the room on our last day').split(' ')).toContain('check-out');
    expect(synonymsOf('do you take bitcoin').split(' ')).toContain('cryptocurrency');
    expect(synonymsOf('how long are gift cards good for').split(' ')).toContain('valid');
    expect(synonymsOf('what time do u shut on a saturday').split(' ')).toContain('open');
    expect(synonymsOf('our card got declined, what happens now?').split(' ')).toEqual(expect.arrayContaining(['failed', 'payment']));
    expect(synonymsOf('I think I found a security hole in your app').split(' ')).toContain('vulnerability');
    expect(synonymsOf('can we switch to pounds?').split(' ')).toContain('change');
    expect(synonymsOf('how long do people stay logged in?').split(' ')).toContain('sessions');
    expect(synonymsOf('and if we have to pull out a week before?').split(' ')).toContain('cancel');
    expect(synonymsOf('Could we hang on to the room until lunchtime?').split(' ')).toContain('check-out');
    expect(synonymsOf('My library books are overdue, what will I owe?').split(' ')).toContain('fine-free');
    expect(synonymsOf('how long have we got to change our minds?').split(' ')).toContain('restored');
    expect(synonymsOf('Where is the nearest place to take money out?').split(' ')).toContain('cashpoint');
  });

  it('gives the words of the same language for a question in French, Spanish, German, Arabic or Hebrew', () => {
    expect(synonymsOf('Quand faut-il quitter la chambre ?').split(' ')).toContain('départ');
    expect(synonymsOf('¿Dónde puedo aparcar?').split(' ')).toContain('aparcamiento');
    expect(synonymsOf('Kann ich per Bankeinzug bezahlen?').split(' ')).toContain('lastschrift');
    expect(synonymsOf('متى يفتح المتجر؟').split(' ')).toContain('مفتوح');
    expect(synonymsOf('אתם שולחים לגרמניה?').split(' ')).toContain('משלוח');
    // Each group is one language's: a French question gets no English words.
    expect(synonymsOf('Le parking est-il gratuit ?').split(' ')).not.toContain('free');
  });

  it('matches whole words and phrases only, and nothing in a question without them', () => {
    expect(synonymsOf('Is the binary file available?')).toBe('');
    expect(synonymsOf('What is the exchange rate for euros?')).toBe('');
    expect(synonymsOf('Where do quokkas live?')).toBe('');
    // "get" of "get a refund" is not "get in".
    expect(synonymsOf('How do I get a refund?').split(' ')).not.toContain('check-in');
    // A hyphenated word is one word: "pre-booking" is not "booking".
    expect(synonymsOf('Is pre-booking needed?')).toBe('');
  });

  it('matches whatever the case, hyphenated members, and a phrasal verb holding its object', () => {
    expect(synonymsOf('CAN I SEND IT BACK?').split(' ')).toContain('refund');
    expect(synonymsOf('When is Check-In?').split(' ')).toContain('arrival');
    expect(synonymsOf('Can you pick the sofa up?').split(' ')).toContain('collection');
  });

  it('maps the stems of the question\'s words to their synonyms\' telling stems, never to generic words of a phrase', () => {
    const stems = synonymStems('My lamp came cracked, can I send it back?');
    expect(stems.get(stem('cracked'))).toContain(stem('damaged'));
    expect(stems.get(stem('send'))).toEqual(expect.arrayContaining([stem('return'), stem('refund')]));
    expect(synonymStems('When is check-in?').get(stem('check'))).not.toContain('get');
    // "rewards scheme" is one name for a loyalty programme: each of its words stands for the others, none for a gift card.
    const scheme = synonymStems('Is there a reward scheme for regulars?');
    expect(scheme.get(stem('scheme'))).toEqual(expect.arrayContaining([stem('points'), stem('club')]));
    expect([...scheme.values()].flat()).not.toContain(stem('card'));
  });
});
