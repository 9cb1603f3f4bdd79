import { describe, expect, it } from 'vitest';
import { correctSpelling } from './spelling.js';

const context = (content: string) => [{ source: 'faq.md', content }];

describe('correctSpelling', () => {
  const hotel = context('The Wi-Fi password is printed on your key card holder. Cancel your subscription under Settings. '
    + 'We back up the database every 4 hours. Reed diffusers last about three months. Staff can recommend often-missed walks.');

  it('writes a misspelt word as the context writes it: one edit, or two keeping a long word\'s first letters', () => {
    expect(correctSpelling('whats the wifi pasword', hotel)).toBe('whats the wifi password');
    expect(correctSpelling('where do I cancel my subscripton??', hotel)).toBe('where do I cancel my subscription??');
    expect(correctSpelling('how often do u back up the databse', hotel)).toBe('how often do u back up the database');
    expect(correctSpelling('my reed difuser has stopped smelling', hotel)).toBe('my reed diffusers has stopped smelling');
    // A word of the thesaurus, whose synonyms then find the context's own ("workshops"); a letter left out before one changed.
    expect(correctSpelling('wen are ur candle making clases on?', hotel)).toBe('wen are ur candle making classes on?');
  });

  it('leaves English words, names, short words and other languages as they are', () => {
    // "passport" is two edits from "password", but an English word of its own.
    expect(correctSpelling('Where do I show my passport?', hotel)).toBe('Where do I show my passport?');
    expect(correctSpelling('Which schools have the best Ofsted ratings?', hotel)).toBe('Which schools have the best Ofsted ratings?');
    expect(correctSpelling('wat abt the pasw', hotel)).toBe('wat abt the pasw');
    expect(correctSpelling('Welche Sprachen gibt es, wenn wir pasword nutzen?', hotel)).toBe('Welche Sprachen gibt es, wenn wir pasword nutzen?');
    expect(correctSpelling('Où est le pasword ?', hotel)).toBe('Où est le pasword ?');
    // Two edits that change a long word's start are not a misspelling: "midnite" is not "minute".
    expect(correctSpelling('its past midnite', context('Breakfast is served until ten minutes to ten.'))).toBe('its past midnite');
  });
});
