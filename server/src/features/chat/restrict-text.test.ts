import { describe, expect, it } from 'vitest';
import { holdRestrictText } from './restrict-text.js';

const RESTRICT = 'Sorry, I can only answer questions about Willow & Wick.';

async function* from(deltas: readonly string[]): AsyncIterable<string> {
  for (const delta of deltas) yield delta;
}

/** What holdRestrictText sends for these provider deltas, delta by delta. */
async function held(deltas: readonly string[], restrict = RESTRICT): Promise<string[]> {
  const out: string[] = [];
  for await (const delta of holdRestrictText(from(deltas), restrict)) out.push(delta);
  return out;
}

describe('holdRestrictText', () => {
  it.each([
    ['the text itself', [RESTRICT]],
    ['quotes, bold and a citation, across deltas', ['"**Sorry, I can', ' only answer questions', ' about Willow & Wick.**', ' [1]"']],
    ['curly quotes and italics', ['“_Sorry, I can only answer questions about Willow & Wick._”']],
    ['a block quote without the full stop', ['> Sorry, I can only answer questions about Willow & Wick']],
    ['other letter case and spacing', ['sorry,  I CAN only answer questions about Willow & Wick!']],
    ['several citations', [RESTRICT, ' [1, 2]', ' [3; 4]']],
    ['a Markdown heading', ['## Sorry, I can only answer questions about Willow & Wick.']],
    ['an emoji and a bracketed number', ['Sorry, I can only answer questions about Willow & Wick. 🙂', ' (1)']],
  ])('sends exactly the restrict text, once, for %s', async (_name, deltas) => {
    expect(await held(deltas)).toEqual([RESTRICT]);
  });

  it('streams an answer of its own unchanged, delta by delta, from the first one that departs', async () => {
    const deltas = ['Orders', ' reach Germany', ' within 3 working days [1].'];
    expect(await held(deltas)).toEqual(deltas);
  });

  it('holds a beginning like the restrict text, then sends it unchanged once the answer departs', async () => {
    const deltas = ['Sorry, I can', ' only answer questions about Willow & Wick.', ' But we do ship to Sydney: 12 euros, 8 days [1].', ' Anything else?'];
    const out = await held(deltas);
    expect(out.join('')).toBe(deltas.join(''));
    expect(out.at(-1)).toBe(' Anything else?');
  });

  it('keeps a short answer that follows the restrict text', async () => {
    expect(await held(['Ask me about shipping.', ' Yes, 9 euros.'], 'Ask me about shipping.')).toEqual(['Ask me about shipping. Yes, 9 euros.']);
    expect(await held(['No.', ' Only by post [1].'], 'No.')).toEqual(['No. Only by post [1].']);
  });

  it('keeps an answer cut short inside the restrict text as it is', async () => {
    expect(await held(['Sorry, I can only'])).toEqual(['Sorry, I can only']);
  });

  it('sends nothing for an empty answer', async () => {
    expect(await held([])).toEqual([]);
  });
});
