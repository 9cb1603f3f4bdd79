import { describe, expect, it } from 'vitest';
import { generatePages } from '../../../../../bench/large-site.js';
import { extractPageTextMutating } from '../fixtures/extract-page-text-mutating.js';
import { extractPageText, type ExtractOptions } from './extract-page-text.js';
import { Random } from '../../../../test/fuzz/hostile-values.js';

/*
 * Issue 38: the page reader writes a page's text in one walk of the tree instead of mutating it
 * once per block element. The same HTML must give the same title, units and links as before
 * (the previous reader, kept in fixtures/), over real-shaped pages, hand-made corner cases and
 * seeded random markup (malformed too: what a browser's parser repairs, both read the same way).
 */

const same = (html: string, options: ExtractOptions = {}, linksFrom?: string) => {
  expect(extractPageText(html, options, linksFrom), html).toEqual(extractPageTextMutating(html, options, linksFrom));
};

const CORNERS = [
  '<h2>Title<br>with a break</h2><p>a<br>b</p>',
  '<h1>Outer <h2>inner</h2> tail</h1><p>after</p>',
  '<h2><span>Heading</span> <a href="#x">with link</a></h2>',
  '<ul><li>one<ul><li>nested</li></ul></li><li><p>para in item</p></li></ul>',
  '<table><tr><td>a | b</td><td><ul><li>x</li><li>y</li></ul></td></tr><tr><th><h3>head in cell</h3></th><td>z<br>w</td></tr></table>',
  '<table><tr><td>outer<table><tr><td>inner1</td><td>inner2</td></tr></table></td></tr></table>',
  '<table><tr></tr><tr><td></td></tr><caption>Cap</caption></table>',
  '<table><td>no row</td><p>fostered</p></table>',
  '<body><h2><main>main in heading</main></h2><p>body text</p></body>',
  '<table><tr><td><article>article in a cell</article></td></tr></table><p>rest</p>',
  '<main><p>one</p><main><p>nested main</p></main></main><article>second root</article>',
  '<div role="main"><p>role main</p></div><p>outside</p>',
  '<p>unclosed <p>second <div>block in p</div> tail',
  '<pre>line one\n  line two\n\nline four</pre><blockquote>quote</blockquote>',
  '<dl><dt>term</dt><dd>definition</dd></dl><figure><img><figcaption>caption</figcaption></figure>',
  '<p>entities &amp; &lt;tags&gt; &nbsp; &#169; &copy</p>',
  '<p>a<!-- comment -->b</p><!-- top comment -->',
  '<body><template><p>templated</p><li>t</li></template><p>shown</p></body>',
  '<body><noscript><p>no script</p></noscript><script>var x = "<p>";</script><style>p{}</style><p>text</p></body>',
  '<body><svg><title>svg title</title><text>svg text</text></svg><math><mi>x</mi></math><p>after</p></body>',
  '<body><div hidden>hidden</div><div aria-hidden="true">aria</div><div class="cookie-banner">cookies</div><p>kept</p></body>',
  '<body><h3>   spaced    heading   </h3>\n\n<p>   spaced\n\n   paragraph </p></body>',
  '<body><li>stray item</li><tr><td>stray row</td></tr><td>stray cell</td></body>',
  '<body><h4></h4><li></li><table><tr><td></td><td></td></tr></table><p></p></body>',
  '<body><span>inline</span><span>run</span><b>bold</b><i>it</i></body>',
  '<ol><li><h2>heading in item</h2></li><li><table><tr><td>table in item</td></tr></table></li></ol>',
  '<h2><table><tr><td>table in heading</td></tr></table></h2>',
  '<table><tr><td><h2>a <br> b</h2><li>item<br>broken</li></td></tr></table>',
  '<html><head><title>Only head</title></head></html>',
  '',
  'plain text, no tags',
  '<frameset><frame src="a"></frameset>',
  '<select><option>opt</option></select><button>btn</button><form><p>in form</p></form><p>out</p>',
];

const TARGETS: ExtractOptions[] = [
  {}, { removeSelectors: ['.ad', 'table'] }, { targetSelectors: ['li'] }, { targetSelectors: ['p', 'td'] }, { targetSelectors: ['main', 'article'] },
  { targetSelectors: ['h2'] }, { targetSelectors: ['table'] }, { targetSelectors: ['br'] }, { targetSelectors: ['div', 'div p'] }, { targetSelectors: ['body'] },
  { removeSelectors: ['body'] }, { targetSelectors: ['.c'], removeSelectors: ['h2'] }, { targetSelectors: ['template', 'svg'] },
];

const TAGS = ['p', 'div', 'section', 'article', 'main', 'li', 'ul', 'ol', 'dt', 'dd', 'h1', 'h2', 'h3', 'h6', 'pre', 'blockquote', 'table', 'tr', 'td', 'th',
  'tbody', 'thead', 'figcaption', 'span', 'b', 'a', 'nav', 'footer', 'aside', 'template', 'script', 'br', 'hr', 'img', 'form', 'button', 'svg', 'title', 'header'];
const WORDS = ['tea', 'pipe | bar', 'kettle', '&amp;', ' ', '\n', '  ', 'leaf', '# hash', '- dash', 'x', '<!-- c -->', '&lt;p&gt;'];

/** Random nested markup, some of it left unclosed or closed out of order. */
function randomHtml(next: () => number, depth = 0): string {
  let html = '';
  const count = 1 + Math.floor(next() * 4);
  for (let i = 0; i < count; i++) {
    const roll = next();
    if (roll < 0.3 || depth > 5) {
      html += WORDS[Math.floor(next() * WORDS.length)]!;
      continue;
    }
    const tag = TAGS[Math.floor(next() * TAGS.length)]!;
    const attrs = next() < 0.2 ? ` class="${next() < 0.5 ? 'c' : 'ad'}"` : next() < 0.05 ? ' role="main"' : next() < 0.05 ? ' hidden' : '';
    const close = next() < 0.85 ? `</${tag}>` : '';
    html += `<${tag}${attrs}>${randomHtml(next, depth + 1)}${close}`;
  }
  return html;
}

describe('extractPageText: the same units as the previous reader', () => {
  it('on every page of the large-site benchmark (with their links)', () => {
    for (const section of generatePages(120, 7)) {
      for (const page of section.pages) same(page.html, {}, `http://127.0.0.1:8080${page.path}`);
    }
  });

  it('on corner cases of structure, with and without selectors', () => {
    for (const html of CORNERS) {
      for (const options of TARGETS) same(html, options, 'https://x.example/');
    }
  });

  it('on 600 pages of seeded random markup, malformed too, with and without selectors', () => {
    const generator = new Random(38);
    const next = () => generator.next();
    for (let i = 0; i < 600; i++) {
      const html = `<html><head><title>T${i}</title></head><body>${randomHtml(next)}</body></html>`;
      same(html, TARGETS[i % TARGETS.length]!);
    }
  });
});
