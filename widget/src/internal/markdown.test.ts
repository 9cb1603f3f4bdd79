import { expect, fixture } from '@open-wc/testing';
import { html } from 'lit';
import { renderMarkdown, safeUrl } from './markdown.js';

async function render(markdown: string): Promise<HTMLElement> {
  return fixture(html`<div>${renderMarkdown(markdown)}</div>`);
}

describe('renderMarkdown', () => {
  it('renders paragraphs, emphasis, inline code, lists and code blocks', async () => {
    const el = await render('Hello **bold** and *italic* with `code`.\n\n- one\n- two\n\n1. first\n2. second\n\n```\nconst a = 1;\n```');
    expect(el.querySelector('p strong')!.textContent).to.equal('bold');
    expect(el.querySelector('p em')!.textContent).to.equal('italic');
    expect(el.querySelector('p code')!.textContent).to.equal('code');
    expect([...el.querySelectorAll('ul li')].map((li) => li.textContent)).to.deep.equal(['one', 'two']);
    expect([...el.querySelectorAll('ol li')].map((li) => li.textContent)).to.deep.equal(['first', 'second']);
    expect(el.querySelector('pre code')!.textContent).to.equal('const a = 1;');
  });

  it('keeps single line breaks and leaves snake_case words alone', async () => {
    const el = await render('line one\nline two with snake_case_name');
    expect(el.querySelectorAll('br').length).to.equal(1);
    expect(el.querySelector('em')).to.equal(null);
    expect(el.textContent).to.contain('snake_case_name');
  });

  it('renders http links that open in a new tab without the opener', async () => {
    const el = await render('See [our hours](https://example.com/hours) or https://example.com/faq.');
    const links = [...el.querySelectorAll('a')];
    expect(links.map((a) => a.href)).to.deep.equal(['https://example.com/hours', 'https://example.com/faq']);
    expect(links[0]!.rel).to.contain('noopener');
    expect(links[0]!.target).to.equal('_blank');
    expect(el.textContent).to.contain('faq.');
  });

  it('never turns javascript: or data: links into anchors', async () => {
    const el = await render('[click](javascript:alert(1)) [img](data:text/html,<script>alert(1)</script>)');
    expect(el.querySelector('a')).to.equal(null);
    expect(el.textContent).to.contain('click');
  });

  it('shows HTML in the text as text, never as markup', async () => {
    const el = await render('<img src=x onerror="window.__pwned = true"> <script>window.__pwned = true</script> **<b>x</b>**');
    expect(el.querySelector('img, script, b')).to.equal(null);
    expect(el.textContent).to.contain('<img src=x onerror="window.__pwned = true">');
    await new Promise((r) => setTimeout(r, 50));
    expect((window as { __pwned?: boolean }).__pwned).to.equal(undefined);
  });
});

describe('renderMarkdown tables and contact links', () => {
  it('renders pipe tables with a header row instead of raw pipes', async () => {
    const el = await render('Our hours:\n\n| Day | Opens | Closes |\n|---|:---:|---|\n| Monday | 9am | 6pm |\n| Saturday | **10am** | 4pm |\n\nSee you!');
    expect([...el.querySelectorAll('th')].map((th) => th.textContent)).to.deep.equal(['Day', 'Opens', 'Closes']);
    expect([...el.querySelectorAll('tbody tr')].map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)))
      .to.deep.equal([['Monday', '9am', '6pm'], ['Saturday', '10am', '4pm']]);
    expect(el.querySelector('td strong')!.textContent).to.equal('10am');
    expect(el.textContent).not.to.contain('|');
  });

  it('links e-mail addresses and phone numbers, and leaves times and years alone', async () => {
    const el = await render('Write to help@acme.example or call +44 20 7946 0958 or (555) 123-4567, 9am-5pm since 2019-2024.');
    expect([...el.querySelectorAll('a')].map((a) => a.getAttribute('href'))).to.deep.equal([
      'mailto:help@acme.example', 'tel:+442079460958', 'tel:5551234567',
    ]);
    expect(el.querySelector('a')!.textContent).to.equal('help@acme.example');
  });
});

describe('safeUrl', () => {
  it('accepts http, https, mailto and tel only', () => {
    expect(safeUrl('https://a.example/x')).to.equal('https://a.example/x');
    expect(safeUrl('mailto:a@example.com')).to.equal('mailto:a@example.com');
    expect(safeUrl('javascript:alert(1)')).to.equal(undefined);
    expect(safeUrl('JaVaScRiPt:alert(1)')).to.equal(undefined);
    expect(safeUrl('/relative')).to.equal(undefined);
  });
});
