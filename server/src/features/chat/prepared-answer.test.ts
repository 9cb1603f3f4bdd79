import { describe, expect, it } from 'vitest';
import type { AnswerModel, AnswerPrompt, ContextPassage } from '../../providers/llm/answer-model.js';
import { conversationalReply } from '../../language/conversational-turn.js';
import { fixedAnswer, markerCitations, modelAnswer, ownerAnswer, sourcesOf } from './prepared-answer.js';

const FAQ_ID = 'aaaaaaaaaaaaaaaaaaaaaaaa';
const GUIDE_ID = 'bbbbbbbbbbbbbbbbbbbbbbbb';

/** A chunk of a Markdown FAQ spanning two sections, as the chunker writes it (its provenance names the first). */
const FAQ: ContextPassage = {
  content: '# FAQ\n## Delivery\nWe post parcels to every EU country. Orders reach Germany within 3 days.\n## Returns\nRefunds are paid within 5 days.',
  source: 'Shop FAQ › FAQ › Delivery',
  citation: { resourceId: FAQ_ID, title: 'Shop FAQ', section: 'FAQ › Delivery' },
};
const GUIDE: ContextPassage = {
  content: 'Never leave a burning candle unattended.',
  source: 'care-guide.pdf, page 2',
  citation: { resourceId: GUIDE_ID, title: 'care-guide.pdf', page: 2 },
};
const SAME_PAGE: ContextPassage = { ...GUIDE, content: 'Keep candles away from pets.' };
const NO_CITATION: ContextPassage = { content: 'Uncited text.', source: 'legacy' };

const promptOf = (passages: ContextPassage[], extra: Partial<AnswerPrompt> = {}): AnswerPrompt => ({
  system: 'system', messages: [{ role: 'user', content: 'q' }], question: 'q', passages, ...extra,
});

describe('markerCitations', () => {
  it('reads [n] and [n, m] markers as passage indexes, in order of first mention, once each', () => {
    expect(markerCitations('Yes [2]. Also [1, 2] and [3; 1].', 3)).toEqual([{ passage: 1 }, { passage: 0 }, { passage: 2 }]);
  });

  it('ignores numbers outside the passages and brackets that are not markers', () => {
    expect(markerCitations('See [0], [4] and [12] [a] [1-2] (1).', 3)).toEqual([]);
    expect(markerCitations('No marker at all.', 3)).toEqual([]);
  });
});

describe('sourcesOf', () => {
  it('cites each passage with its provenance and a snippet; headings never appear in the snippet', () => {
    expect(sourcesOf(promptOf([GUIDE, FAQ]), [{ passage: 0 }, { passage: 1 }])).toEqual([
      { resourceId: GUIDE_ID, title: 'care-guide.pdf', page: 2, snippet: 'Never leave a burning candle unattended.' },
      {
        resourceId: FAQ_ID, title: 'Shop FAQ', section: 'FAQ › Delivery',
        snippet: 'We post parcels to every EU country. Orders reach Germany within 3 days. Refunds are paid within 5 days.',
      },
    ]);
  });

  it('names the section of the quoted sentence, not only the chunk\'s first one', () => {
    expect(sourcesOf(promptOf([FAQ]), [{ passage: 0, snippet: 'Refunds are paid within 5 days.' }])).toEqual([
      { resourceId: FAQ_ID, title: 'Shop FAQ', section: 'FAQ › Returns', snippet: 'Refunds are paid within 5 days.' },
    ]);
    expect(sourcesOf(promptOf([FAQ]), [{ passage: 0, snippet: 'Orders reach Germany within 3 days. Refunds are paid within 5 days.' }])[0]!.section)
      .toBe('FAQ › Delivery');
    // A snippet that is not the passage's own sentence keeps the passage's provenance.
    expect(sourcesOf(promptOf([FAQ]), [{ passage: 0, snippet: 'Refunds' }])[0]!.section).toBe('FAQ › Delivery');
  });

  it('cites one place once, and skips passages without provenance or out of range', () => {
    expect(sourcesOf(promptOf([GUIDE, SAME_PAGE, NO_CITATION]), [{ passage: 0 }, { passage: 1 }, { passage: 2 }, { passage: 7 }]))
      .toEqual([{ resourceId: GUIDE_ID, title: 'care-guide.pdf', page: 2, snippet: 'Never leave a burning candle unattended.' }]);
  });

  it('clips a long snippet at a word boundary, and text without spaces at the limit', () => {
    const words = 'word '.repeat(100).trim();
    const [clipped] = sourcesOf(promptOf([{ ...GUIDE, content: words }]), [{ passage: 0 }]);
    expect(clipped!.snippet.length).toBeLessThanOrEqual(240);
    expect(clipped!.snippet).toMatch(/^(word )+word…$/);
    const [cjk] = sourcesOf(promptOf([{ ...GUIDE, content: '蜡烛'.repeat(200) }]), [{ passage: 0 }]);
    expect(cjk!.snippet).toHaveLength(240);
    expect(cjk!.snippet.endsWith('…')).toBe(true);
  });
});

/** A provider-like model (no citations of its own) answering with fixed deltas. */
function providerSaying(deltas: string[]): AnswerModel & { calls: number } {
  const model = {
    calls: 0,
    async *stream() {
      model.calls++;
      for (const delta of deltas) yield delta;
    },
  };
  return model;
}

async function join(deltas: AsyncIterable<string>): Promise<string> {
  let text = '';
  for await (const delta of deltas) text += delta;
  return text;
}

describe('modelAnswer', () => {
  const RESTRICT = 'Ask me about candles.';

  it('maps a provider answer\'s markers to sources; text and deltas agree', async () => {
    const answer = modelAnswer(providerSaying(['Never', ' leave it alone [2].']), promptOf([FAQ, GUIDE], { restrictResponse: RESTRICT }));
    const text = await answer.text();
    expect(text).toBe('Never leave it alone [2].');
    expect(await join(answer.deltas())).toBe(text);
    expect(answer.meta(text)).toEqual({ sources: [{ resourceId: GUIDE_ID, title: 'care-guide.pdf', page: 2, snippet: GUIDE.content }] });
  });

  it('normalises the restrict text with decoration to exactly the text, and marks it refused', async () => {
    const answer = modelAnswer(providerSaying(['"**Ask me', ' about candles.**', ' [1]"']), promptOf([GUIDE], { restrictResponse: RESTRICT }));
    const text = await answer.text();
    expect(text).toBe(RESTRICT);
    expect(answer.meta(text)).toEqual({ sources: [], refused: true });
  });

  it('leaves decoration alone without a restrict text', async () => {
    const answer = modelAnswer(providerSaying(['"**Ask me about candles.**"']), promptOf([GUIDE]));
    expect(await answer.text()).toBe('"**Ask me about candles.**"');
    expect(answer.meta('"**Ask me about candles.**"')).toEqual({ sources: [] });
  });

  it('flags a handoff request, refused or not', () => {
    const model = providerSaying([]);
    expect(modelAnswer(model, promptOf([], { turn: 'handoff' })).meta('The team will call you.')).toEqual({ sources: [], handoff: true });
    expect(modelAnswer(model, promptOf([], { turn: 'greeting' })).meta('Hello!')).toEqual({ sources: [] });
    expect(modelAnswer(model, promptOf([], { turn: 'handoff', restrictResponse: RESTRICT })).meta(RESTRICT)).toEqual({ sources: [], refused: true, handoff: true });
    // The local engine's handoff reply to a request it read as one only after searching the knowledge.
    const asked = promptOf([FAQ], { question: 'can I just speak to someone at reception instead?', toneType: 'FRIENDLY' });
    expect(modelAnswer(model, asked).meta(conversationalReply('handoff', asked.question, 'FRIENDLY'))).toEqual({ sources: [], handoff: true });
  });

  it('takes the citations of a model that reports them (the local engine) over markers, without holding its deltas', async () => {
    const local: AnswerModel = {
      async *stream() { yield 'Refunds are paid within 5 days. [1]'; },
      citations: (_prompt, text) => (text.startsWith('Refunds') ? [{ passage: 1, snippet: 'Refunds are paid within 5 days.' }] : []),
    };
    const answer = modelAnswer(local, promptOf([GUIDE, FAQ], { restrictResponse: RESTRICT }));
    const text = await answer.text();
    expect(answer.meta(text)).toEqual({ sources: [{ resourceId: FAQ_ID, title: 'Shop FAQ', section: 'FAQ › Returns', snippet: 'Refunds are paid within 5 days.' }] });
  });
});

describe('fixedAnswer', () => {
  it('is the text as one delta, refused, without sources', async () => {
    const answer = fixedAnswer('Ask me about candles.');
    expect(await join(answer.deltas())).toBe('Ask me about candles.');
    expect(await answer.text()).toBe('Ask me about candles.');
    expect(answer.meta('Ask me about candles.')).toEqual({ sources: [], refused: true });
    expect(answer.prompt).toBeUndefined();
  });
});

describe('saved answers', () => {
  const PAIR_ID = 'cccccccccccccccccccccccc';
  const OWNER: ContextPassage = {
    content: 'Yes, a lift by the side door.', source: 'Visitor questions › Is there a lift?', ownerAnswer: true,
    citation: { resourceId: FAQ_ID, title: 'Visitor questions', section: 'Is there a lift?', pairId: PAIR_ID },
  };
  const OWNER_SOURCE = { resourceId: FAQ_ID, title: 'Visitor questions', section: 'Is there a lift?', pairId: PAIR_ID, snippet: 'Yes, a lift by the side door.' };

  it('gives the local engine\'s answer as the owner wrote it, citing the pair, never refused', async () => {
    const answer = ownerAnswer(OWNER);
    expect(await answer.text()).toBe('Yes, a lift by the side door.');
    expect(answer.meta('Yes, a lift by the side door.')).toEqual({ sources: [OWNER_SOURCE] });
  });

  it('cites the pair of a provider\'s answer first even when the model did not mark it', async () => {
    const model: AnswerModel = { async *stream() { yield 'There is a lift by the side door. Candles are never left burning [2].'; } };
    const answer = modelAnswer(model, promptOf([OWNER, GUIDE]));
    const meta = answer.meta(await answer.text());
    expect(meta.sources.map((source) => source.pairId ?? source.resourceId)).toEqual([PAIR_ID, GUIDE_ID]);
  });
});
