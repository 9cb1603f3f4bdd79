import { describe, expect, it } from 'vitest';
import { extractPageText, isValidSelector } from './extract-page-text.js';

const HTML = `<html><head><title> Tea  shop </title></head><body>
<nav>Menu</nav><header>Banner</header>
<main><h1>Teas</h1><p>Sencha is <b>steamed</b>.<br>Hojicha is roasted.</p><ul><li>Matcha</li><li>Gyokuro</li></ul>
<div class="ad">Advert</div><article><p>Nested article.</p></article></main>
<footer>Footer</footer><script>track()</script></body></html>`;

describe('extractPageText', () => {
  it('keeps main content as one unit per block, headings and list items marked as in Markdown, without navigation, scripts or footers', () => {
    const { title, units } = extractPageText(HTML, { removeSelectors: ['.ad'] });
    expect(title).toBe('Tea shop');
    expect(units.map((unit) => unit.text)).toEqual(['# Teas', 'Sencha is steamed.', 'Hojicha is roasted.', '- Matcha', '- Gyokuro', 'Nested article.']);
  });

  it('keeps only target selectors when given', () => {
    expect(extractPageText(HTML, { targetSelectors: ['li'] }).units.map((unit) => unit.text)).toEqual(['- Matcha', '- Gyokuro']);
  });

  it('writes table rows as pipe rows', () => {
    const table = '<main><table><tr><th>Room</th><th>Price</th></tr><tr><td>Sea View</td><td>£180</td></tr></table></main>';
    expect(extractPageText(table).units.map((unit) => unit.text)).toEqual(['| Room | Price |', '| Sea View | £180 |']);
  });

  it('falls back to the body when there is no main or article', () => {
    expect(extractPageText('<body><nav>x</nav><p>Plain page.</p></body>').units).toEqual([{ text: 'Plain page.' }]);
  });

  it('recognises invalid selectors', () => {
    expect(isValidSelector('main .content > p')).toBe(true);
    expect(isValidSelector('a[')).toBe(false);
  });

  it('returns the page\'s links (navigation included) resolved against <base href>, without fragments, when asked', () => {
    const page = `<html><head><base href="https://x.example/docs/"></head><body><nav><a href="/">Home</a></nav>
      <main><a href="intro#top">Intro</a> <a href="mailto:a@b.c">Mail</a> <a href="https://other.example/p">Other</a> <a href="intro">Again</a></main></body></html>`;
    expect(extractPageText(page, {}, 'https://x.example/docs/index.html').links).toEqual(['https://x.example/', 'https://x.example/docs/intro', 'https://other.example/p']);
    expect(extractPageText(page, {}).links).toBeUndefined();
  });

  it('returns no links when the page says nofollow', () => {
    const page = '<html><head><META NAME="ROBOTS" CONTENT="noindex, NOFOLLOW"></head><body><a href="/a">A</a></body></html>';
    expect(extractPageText(page, {}, 'https://x.example/').links).toEqual([]);
  });
});
