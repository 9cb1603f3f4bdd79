import { describe, expect, it } from 'vitest';
import type { AnswerPrompt, ContextPassage } from '../answer-model.js';
import { composeLocalAnswer, questionParts } from './compose-answer.js';
import { LocalAnswerModel } from './local-answer-model.js';
import { WorkerSentenceEncoder } from './sentence-encoder.js';
import { rankSentences } from './rank-sentences.js';
import { questionTerms, stem } from './text-terms.js';

const PASSAGES: ContextPassage[] = [
  {
    source: 'shipping.pdf, page 2',
    content: 'Our warehouse is in Leeds. Standard parcels ship within 2 working days of the order. '
      + 'Express delivery costs 9 euros and arrives the next day. Returns are free for 30 days.',
  },
  {
    source: 'about.txt',
    content: 'Parley Ltd. was founded in 2014 by Dr. Ada Byrne in Dublin. The company employs 40 people.',
  },
];

const composeAnswer = (p: AnswerPrompt) => composeLocalAnswer(p).text;

function prompt(question: string, extra: Partial<AnswerPrompt> = {}): AnswerPrompt {
  return { system: '', messages: [{ role: 'user', content: question }], question, passages: PASSAGES, ...extra };
}

async function deltasOf(p: AnswerPrompt, signal = new AbortController().signal): Promise<string[]> {
  const deltas: string[] = [];
  for await (const delta of new LocalAnswerModel().stream(p, signal)) deltas.push(delta);
  return deltas;
}

describe('stem', () => {
  it('maps inflections of a word to one stem', () => {
    expect(new Set(['ship', 'ships', 'shipped', 'shipping'].map(stem))).toEqual(new Set(['ship']));
    expect(stem('deliveries')).toBe(stem('delivery'));
    expect(new Set(['empty', 'empties', 'emptied'].map(stem))).toEqual(new Set(['empty']));
    expect(stem('dried')).toBe(stem('dry'));
    expect(stem('2014')).toBe('2014');
  });

  it('strips Arabic and Hebrew prefixes and endings lightly', () => {
    // "Do you ship (تشحنون)…" finds "we ship (نشحن)"; "to Israel (לישראל)" finds "Israel (ישראל)".
    expect(stem('تشحنون')).toBe(stem('نشحن'));
    expect(stem('بالشحن')).toBe(stem('الشحن'));
    expect(stem('לישראל')).toBe(stem('ישראל'));
    expect(stem('המשלוח')).toBe(stem('משלוח'));
    // Three letters stay: a short word is not cut to nothing.
    expect(stem('بيت').length).toBe(3);
  });
});

describe('composeAnswer', () => {
  it('answers with the sentence that answers the question, and cites its source', () => {
    expect(composeAnswer(prompt('How long does it take for standard parcels to ship?')))
      .toBe('Standard parcels ship within 2 working days of the order.');
    expect(composeAnswer(prompt('Who founded Parley?'))).toMatch(/^Parley Ltd\. was founded in 2014 by Dr\. Ada Byrne in Dublin\./);
    expect(composeAnswer(prompt('How much does express delivery cost?'))).toContain('Express delivery costs 9 euros');
  });

  it('finds a version written out: "v1" in the question, "Version 1" in the knowledge', () => {
    const passages = [{ source: 'help.md', content: '## API versions\nVersion 2 of the API launched in June 2025. Version 1 of the API is deprecated and will be switched off on 31 March 2027.' }];
    expect(composeAnswer({ ...prompt('Until when can we still call the v1 API?'), passages })).toMatch(/^Version 1 of the API is deprecated/);
  });

  it('finds the sentence that says the question in other words: "cracked" for "damaged", "send it back" for "returned"', () => {
    const passages = [{
      source: 'faq.md',
      content: '## Returns\nYou can return unused lamps within 30 days of delivery. Lamps that arrive damaged can be returned at any time.\n\n'
        + '## Shades\nThe linen shade comes in three colours. Paper shades come in every size for people who want a softer glow.',
    }];
    expect(composeAnswer({ ...prompt('My shade came cracked and I want a new colour anyway, can I send it back?'), passages })).toMatch(/^Lamps that arrive damaged can be returned at any time\./);
  });

  it('does not answer with a sentence about the document itself', () => {
    const passages = [{ source: 'security.pdf', content: '# Security overview\nThis document summarises how we host and protect customer data for security reviewers. '
      + 'It is written for security reviewers and procurement teams.\n## Certifications\nOur security is audited every year: we hold SOC 2 Type II and ISO 27001 certifications.' }];
    expect(composeAnswer({ ...prompt('Our procurement team wants to know which security certifications you hold.'), passages })).toMatch(/^Our security is audited every year/);
  });

  it('prefers the sentence holding the expected kind of answer (a year for "when")', () => {
    expect(composeAnswer(prompt('When was the company founded?'))).toContain('founded in 2014');
  });

  it('answers exactly the restrict text when the context holds nothing relevant', () => {
    const restrictResponse = 'Please ask about our shipping.';
    expect(composeAnswer(prompt('What is the boiling point of mercury?', { restrictResponse }))).toBe(restrictResponse);
    expect(composeAnswer(prompt('Is there a pool table in the office?', { restrictResponse, passages: [] }))).toBe(restrictResponse);
    expect(composeAnswer(prompt('How much does express delivery cost?', { restrictResponse }))).toContain('9 euros');
  });

  it('does not ask the knowledge to hold the numbers of a visitor\'s own situation (an age, a time), but does a name\'s number', () => {
    const climbing = [{ source: 'activities.html', content: 'Tor Climbing Centre runs two-hour climbing sessions for £30 per person; children must be 8 or older.' }];
    const missingKeys = (question: string) => rankSentences(question, questionTerms(question), climbing)[0]!.missingKeys;
    expect(missingKeys('What do climbing sessions cost? Is my 6 year old allowed?')).toBe(0);
    expect(missingKeys('Can my 6-year-old have climbing sessions?')).toBe(0);
    expect(missingKeys('Are climbing sessions on until 7pm?')).toBe(0);
    expect(missingKeys('Can 4 people share a climbing session?')).toBe(0);
    expect(missingKeys('How much are climbing sessions at Climbing Centre 12?')).toBeGreaterThan(0);
    expect(missingKeys('Were climbing sessions cheaper in 2019?')).toBe(1);
  });

  it('says it found nothing, in the chatbot\'s tone, when unrestricted and nothing matches', () => {
    expect(composeAnswer(prompt('What is the boiling point of mercury?', { toneType: 'FRIENDLY' }))).toMatch(/^Sorry, I couldn't find anything/);
    expect(composeAnswer(prompt('What is the boiling point of mercury?', { toneType: 'FORMAL' }))).toMatch(/^I could not find information/);
  });

  it('names the knowledge\'s topics in Latin script or in the question\'s own when it found nothing', () => {
    const passages: ContextPassage[] = [
      { source: 'faq.md', content: '# FAQ\n\n## Delivery and shipping\n\nWe ship within 2 working days.\n\n## מידע ללקוחות בעברית\n\nאנחנו שולחים תוך יומיים.' },
    ];
    const english = composeAnswer(prompt('What is the boiling point of mercury?', { passages }));
    expect(english).toContain('Delivery and shipping');
    expect(english).not.toContain('מידע');
    const hebrew = composeAnswer(prompt('מה נקודת הרתיחה של כספית?', { passages }));
    expect(hebrew).toContain('מידע ללקוחות בעברית');
  });

  it('replies to a conversational turn without citing anything, even when restricted', () => {
    expect(composeLocalAnswer(prompt('Hello!', { turn: 'greeting', restrictResponse: 'No.' }))).toEqual({ text: 'Hi! What would you like to know?', citations: [] });
    expect(composeAnswer(prompt('thanks', { turn: 'thanks', toneType: 'FORMAL' }))).toBe('You are welcome. Is there anything else I can help you with?');
  });

  it('cites the passage and the sentence it quoted', () => {
    expect(composeLocalAnswer(prompt('Who founded Parley?')).citations).toEqual([{ passage: 1, snippet: expect.stringMatching(/^Parley Ltd\. was founded/) }]);
  });

  it('never quotes a heading as sentence text', () => {
    const passages = [{ source: 'faq.md', content: '# FAQ\n## Opening hours\nThe Bristol shop is open Tuesday to Saturday from 10am to 6pm.' }];
    expect(composeAnswer({ ...prompt('When is the Bristol shop open?'), passages })).toBe('The Bristol shop is open Tuesday to Saturday from 10am to 6pm.');
  });

  it('adds the sentence naming the subject when the best one opens with a pronoun', () => {
    const passages = [{ source: 'tower.txt', content: 'The Eiffel Tower stands in Paris. It was completed in 1889 for the World Fair. Visitors climb it daily.' }];
    expect(composeAnswer({ ...prompt('When was the tower completed?'), passages }))
      .toBe('The Eiffel Tower stands in Paris. It was completed in 1889 for the World Fair.');
  });

  it('adds the sentence after a short best one only when it adds the missing piece', () => {
    const fine = [{ source: 'guide.md', content: '## Littering\nDropping litter is an offence. The fixed penalty is £150, reduced to £100 if paid within 10 days.' }];
    expect(composeAnswer({ ...prompt("What's the fine for dropping litter?"), passages: fine }))
      .toBe('Dropping litter is an offence. The fixed penalty is £150, reduced to £100 if paid within 10 days.');
    const shipping = [{ source: 'faq.md', content: '## Shipping\nWe do not ship to Israel. The shop is open Tuesday to Saturday.' }];
    expect(composeAnswer({ ...prompt('Do you ship to Israel?'), passages: shipping })).toBe('We do not ship to Israel.');
  });

  it('completes the best sentence from its paragraph with the sentence holding a question word it lacks', () => {
    const lunch = [{ source: 'menu.html', content: '## Sunday lunch\nSunday lunch is served in the dining room from 12pm to 3pm and costs £28 per person, with roast beef, '
      + 'seasonal vegetables and a pudding. Sunday lunch must be booked a week ahead. A Sunday lunch for two makes a lovely gift. '
      + 'Vegan and gluten-free versions are available at the same price.\n\n## Breakfast\nBreakfast is served from 8am.' }];
    // Without it, two more sentences about Sunday lunch outrank the one that answers "for coeliacs".
    expect(composeAnswer({ ...prompt('Is your Sunday lunch any good for coeliacs?'), passages: lunch })).toMatch(/^Sunday lunch is served[^.]+\. Vegan and gluten-free versions are available/);
    // A sentence asking a question introduces; it does not complete an answer.
    const seats = [{ source: 'help.md', content: '## Seats\nExtra seats cost $15 per seat per month. Need viewers on your plan? Viewers never count as seats.' }];
    expect(composeAnswer({ ...prompt('How much is an extra seat for a viewer?'), passages: seats })).not.toMatch(/Need viewers/);
  });

  it('completes an answer with no price for "how much…?" from the paragraph\'s first sentence that has one', () => {
    const garden = [{ source: 'council.md', content: '## Garden waste\nGarden waste is collected from green bins every two weeks by subscription. '
      + 'A subscription costs £49 a year per bin and runs from 1 April to 31 March. A second green bin costs £35 a year. '
      + 'There are no garden waste collections over Christmas.' }];
    const answer = composeAnswer({ ...prompt('how much would it be to get my garden waste collected'), passages: garden });
    expect(answer).toMatch(/^Garden waste is collected[^.]+\. A subscription costs £49/);
    expect(answer).not.toMatch(/£35/);
  });

  it('adds the sentence right after the best one that holds the price it lacks, though it repeats none of the question\'s words', () => {
    const events = [{ source: 'events.html', content: '## Events at the shop\nScent-blending evening: on 12 March our perfumer leads a two-hour session where you '
      + 'design your own scent and take home a candle. Tickets cost £60.\n\nThe shop is wheelchair accessible, and dogs are welcome inside.' }];
    expect(composeAnswer({ ...prompt('how much is the evening where you get to make your own fragrance?'), passages: events })).toMatch(/take home a candle\. Tickets cost £60\./);
  });

  it('leads with the rule when the best sentence states a case the question did not', () => {
    const arriving = [{ source: 'faq.md', content: '# Guest questions\n## Check-in and check-out\nCheck-in is from 3pm to 9pm. Check-out is by 10:30am.\n\n'
      + '## Arriving early\nIf your room is ready, you can check in to your room from 1pm for £20.' }];
    expect(composeAnswer({ ...prompt('What time can we arrive in our room?'), passages: arriving })).toMatch(/^Check-in is from 3pm to 9pm\. If your room is ready/);
    // A question stating the case itself is answered by the case; one stating another case is not.
    expect(composeAnswer({ ...prompt('What if our room is ready early, can we check in to it before 3pm?'), passages: arriving })).toMatch(/^If your room is ready/);
    expect(composeAnswer({ ...prompt('If our train is early, what time can we arrive in our room?'), passages: arriving })).toMatch(/^Check-in is from 3pm to 9pm\. If your room is ready/);
  });

  it('knows a question for a time or a price in French, Spanish or German, and times and prices as they write them', () => {
    const opening = [{ source: 'infos.md', content: 'Le restaurant ouvre le soir. Le bar sert des cocktails. Le restaurant ouvre à 19 h.' }];
    expect(composeAnswer({ ...prompt('À quelle heure ouvre le restaurant ?'), passages: opening })).toMatch(/^Le restaurant ouvre à 19 h\./);
    const dogs = [{ source: 'infos.md', content: 'Les chiens sont les bienvenus. Le bar sert des cocktails. Les chiens paient 18 £ par nuit.' }];
    expect(composeAnswer({ ...prompt('Combien coûtent les chiens ?'), passages: dogs })).toMatch(/^Les chiens paient 18 £ par nuit\./);
  });

  it('prefers a sentence naming something for "which company…?"', () => {
    const mail = [{ source: 'help.md', content: 'Survey emails are sent every week. Reports are ready each morning. Survey emails are sent by Postmark.' }];
    expect(composeAnswer({ ...prompt('Which company sends the survey emails?'), passages: mail })).toMatch(/^Survey emails are sent by Postmark\./);
  });

  it('follows an introducing sentence to the list item that fits the question', () => {
    const passages = [{ source: 'help.md', content: '## Data retention\nHow long responses are kept depends on your plan:\n- Free: 30 days.\n- Growth: 24 months.\n- Business: 36 months.\nResponses older than that are deleted.' }];
    expect(composeAnswer({ ...prompt('How long are responses kept on the Business plan?'), passages }))
      .toBe('How long responses are kept depends on your plan: Business: 36 months.');
  });

  it('does not answer a follow-up with the sentence it has just given, unless that holds the new question\'s words', () => {
    const passages = [{ source: 'help.md', content: '## Frozen pipes\nIf the kitchen tap gives no water on a frosty morning, the pipe under the floor may be frozen. '
      + 'Warm the pipe gently with a hairdryer and leave the tap open until the water flows again.\n## Opening hours\nThe shop opens 8am to 6pm on weekdays and 9am to 1pm on Sundays.' }];
    const conversation = (first: string, said: string, question: string) => ({
      ...prompt(question), passages,
      messages: [{ role: 'user' as const, content: first }, { role: 'assistant' as const, content: said }, { role: 'user' as const, content: question }],
    });
    expect(composeAnswer(conversation('no water from the kitchen tap this frosty morning', 'If the kitchen tap gives no water on a frosty morning, the pipe under the floor may be frozen.', 'ok so how do I get it going again?')))
      .toContain('Warm the pipe gently');
    expect(composeAnswer(conversation('when does the shop open?', 'The shop opens 8am to 6pm on weekdays and 9am to 1pm on Sundays.', 'and on Sundays?')))
      .toMatch(/^The shop opens 8am to 6pm on weekdays and 9am to 1pm on Sundays\./);
  });

  it('does not take "There are" for a pronoun: the answer leads with its own sentence', () => {
    const passages = [{ source: 'faq.md', content: 'If the car park is full, the village car park is 300 metres away and costs £9 for 24 hours. There are two electric car chargers in our car park, charged at 45p per kWh.' }];
    expect(composeAnswer({ ...prompt('Can I charge my electric car?'), passages })).toMatch(/^There are two electric car chargers/);
  });

  it('weighs the retrieval order less when it knows the sentences\' meaning', () => {
    const passages: ContextPassage[] = [
      { source: 'faq.md', content: 'Gift cards are sent by email straight away.' },
      { source: 'faq.md', content: 'You can schedule a gift card to arrive on a particular date.' },
    ];
    // The second passage's sentence means the question better, by less than the first passage's rank once counted.
    const meaningOf = (text: string) => (text.startsWith('You can schedule') ? 0.62 : 0.5);
    expect(composeLocalAnswer({ ...prompt('can it land on mums birthday?'), passages }, meaningOf).text).toMatch(/^You can schedule/);
  });

  it('ranks a sentence by the meaning of the heading it sits under as well as its own', () => {
    const passages: ContextPassage[] = [{
      source: 'faq.md',
      content: '# FAQ\n## Refills\nBring back any empty bottle and we refill it for less.\n## Damaged parcels\nSend us a photo within 7 days and we send a replacement.',
    }];
    // A stand-in encoder: the question means "broken parcel"; so does one heading, and both sentences half-match. The answer leads with the sentence under that heading.
    const meaning: Record<string, number> = { 'Damaged parcels': 0.9, Refills: 0.1, 'Send us a photo within 7 days and we send a replacement.': 0.55 };
    const meaningOf = (text: string) => meaning[text] ?? 0.4;
    const question = 'My bottle turned up cracked, what now?';
    expect(composeLocalAnswer({ ...prompt(question), passages }, meaningOf).text).toMatch(/^Send us a photo within 7 days/);
    expect(composeLocalAnswer({ ...prompt(question), passages }, (text) => (text.startsWith('Send') ? 0.55 : 0.4)).text).toMatch(/^Bring back any empty bottle/);
  });

  it('adds the sentence closest in meaning when the best one was chosen by its words and it scores nearly as well', () => {
    const passages: ContextPassage[] = [{
      source: 'classes.md',
      content: 'The pottery evening ends with tea in the garden.\n\nNo experience is needed: our tutors start everyone from scratch.\n\nThe shop opens early.',
    }];
    // A stand-in encoder: the question means what the second paragraph says, in none of its words.
    const meaningOf = (score: number) => (text: string) => (text.startsWith('No experience') ? score : 0.3);
    const question = 'does the pottery evening suit a complete novice?';
    const answer = composeLocalAnswer({ ...prompt(question), passages }, meaningOf(0.6)).text;
    expect(answer).toMatch(/^The pottery evening ends/);
    expect(answer).toContain('No experience is needed');
    // Further in meaning, it scores too far below the best sentence to join.
    expect(composeLocalAnswer({ ...prompt(question), passages }, meaningOf(0.4)).text).toBe('The pottery evening ends with tea in the garden.');
  });

  it('adds the sentence after the best one in its paragraph when it shares a word of the question and scores nearly as well', () => {
    const passages: ContextPassage[] = [{
      source: 'safety.md',
      content: 'If the fire alarm sounds, leave by the nearest exit. Fire marshals meet everyone at the assembly point in the car park. Our café serves hot drinks all day.',
    }];
    // A stand-in encoder: the second sentence is what the visitor needs next.
    const meaningOf = (next: number) => (text: string) => ({ 'If the fire alarm sounds, leave by the nearest exit.': 0.5, 'Fire marshals meet everyone at the assembly point in the car park.': next })[text] ?? 0.1;
    const question = 'what do I do when the fire alarm goes off?';
    expect(composeLocalAnswer({ ...prompt(question), passages }, meaningOf(0.4)).text)
      .toBe('If the fire alarm sounds, leave by the nearest exit. Fire marshals meet everyone at the assembly point in the car park.');
    expect(composeLocalAnswer({ ...prompt(question), passages }, meaningOf(0.2)).text).toBe('If the fire alarm sounds, leave by the nearest exit.');
  });

  it('weighs a heading that asks a question more than one that names a topic, and lets it carry the restrict decision', () => {
    const passages: ContextPassage[] = [{
      source: 'faq.md',
      content: '# Visiting\n## Opening hours\nThe studio opens at 10am every day except Monday.\n## Can I bring my dog?\nWell-behaved pets on a lead are welcome in the studio.',
    }];
    // A stand-in encoder: the question is a paraphrase of the FAQ's question heading; neither sentence alone means it enough to answer.
    const meaning: Record<string, number> = { 'Can I bring my dog?': 0.9, 'Opening hours': 0.2, 'The studio opens at 10am every day except Monday.': 0.6 };
    const meaningOf = (text: string) => meaning[text] ?? 0.3;
    const question = 'is my spaniel allowed in with me?';
    expect(composeLocalAnswer({ ...prompt(question), passages }, meaningOf).text).toMatch(/^Well-behaved pets/);
    // As a topic heading ("Dogs"), the same meaning weighs less: the other sentence's own meaning wins, and a restricted chatbot refuses.
    const topic = [{ ...passages[0]!, content: passages[0]!.content.replace('Can I bring my dog?', 'Dogs') }];
    expect(composeLocalAnswer({ ...prompt(question), passages: topic }, (text) => (text === 'Dogs' ? 0.9 : meaningOf(text))).text).toMatch(/^The studio opens/);
    // The restricted chatbot answers: the question heading's meaning counts in its decision.
    const restricted = composeLocalAnswer({ ...prompt(question, { restrictResponse: 'Only questions about the studio.' }), passages }, meaningOf);
    expect(restricted.text).toMatch(/^Well-behaved pets/);
    const withoutQuestion = composeLocalAnswer({ ...prompt(question, { restrictResponse: 'Only questions about the studio.' }), passages: topic }, (text) => (text === 'Dogs' ? 0.9 : meaningOf(text)));
    expect(withoutQuestion.text).toBe('Only questions about the studio.');
  });

  it('answers each part of a question asking two things, with the best sentence for the part the first leaves out', () => {
    const passages: ContextPassage[] = [{
      source: 'faq.md',
      content: '## Ingredients\nWe bake every loaf in Leeds. Our flour is organic and stoneground; we never use palm oil or soya. Our bread contains no dairy.',
    }];
    const question = 'Is there any palm oil or dairy in your bread?';
    const meaningOf = (text: string) => (text.includes('dairy') ? 0.75 : text.includes('palm oil') ? 0.35 : 0.3);
    const answer = composeLocalAnswer({ ...prompt(question), passages }, meaningOf).text;
    expect(answer).toContain('Our bread contains no dairy.');
    expect(answer).toContain('never use palm oil or soya');
    // A question asking one thing gets no sentence for a part it does not have.
    expect(composeLocalAnswer({ ...prompt('Does your bread contain dairy?'), passages }, meaningOf).text).toBe('Our bread contains no dairy.');
  });

  it('answers the other part of a two-part question when several sentences about the first part rank above it', () => {
    const passages: ContextPassage[] = [{
      source: 'faq.md',
      content: '## Delivery\nWe ship to Ireland and the rest of the EU for £9.50. UK delivery takes 2 to 4 working days. Next-day delivery takes one working day. We do not ship to Australia.\n## Packing\nWe pack every order by hand.\n## Payment\nWe accept Visa and Mastercard. You can pay in three instalments with Klarna on orders over £30.',
    }];
    const meaningOf = (text: string) => (text.includes('Ireland') ? 0.7 : text.includes('Klarna') ? 0.3 : 0.35);
    const parts = [(text: string) => (text.includes('Klarna') ? 0.7 : 0.2), (text: string) => (text.includes('Ireland') ? 0.7 : 0.3)];
    const answer = composeLocalAnswer({ ...prompt('do you take klarna, and do you ship to ireland?'), passages }, meaningOf, parts).text;
    expect(answer).toMatch(/^We ship to Ireland/);
    expect(answer).toContain('three instalments with Klarna');
  });

  it('reads a part that points back with the part before it ("…and what does that cost?")', () => {
    const passages: ContextPassage[] = [{
      source: 'council.md',
      content: '## Register Office\nA ceremony in the small room costs £57 on weekdays. Both of you must give notice at least 29 days before the ceremony. Giving notice costs £42 per person. A copy certificate costs £12.',
    }];
    expect(questionParts('How far ahead do we need to give notice, and what does that cost?')).toEqual([
      { text: 'How far ahead do we need to give notice' }, { text: 'what does that cost', before: 'How far ahead do we need to give notice' },
    ]);
    expect(composeAnswer({ ...prompt('How far ahead do we need to give notice, and what does that cost?'), passages })).toContain('Giving notice costs £42');
    // A part saying what it asks about keeps to its own words.
    expect(questionParts('I sent back two candles and you have had them since Monday, so when is my refund due?')[1]).not.toHaveProperty('before');
  });

  it('answers a question in another language from that language\'s sentences, without the ones that share only function words', () => {
    const passages: ContextPassage[] = [{
      source: 'guest-faq.md',
      content: '## Informations en français\nLe petit-déjeuner est servi de 8 h à 10 h et il est inclus dans le prix de toutes nos chambres. '
        + 'Les chiens sont acceptés dans les chambres côté jardin, pour 18 £ par chien et par nuit. Le parking de l\'hôtel est gratuit pour nos clients.',
    }];
    // An encoder that does not know French finds every sentence about as close: the words decide, and only they.
    const answer = composeLocalAnswer({ ...prompt('Combien ça coûte d\'amener mon chien ?'), passages }, () => 0.5);
    expect(answer.text).toBe('Les chiens sont acceptés dans les chambres côté jardin, pour 18 £ par chien et par nuit.');
  });

  it('understands a short follow-up through the previous question', () => {
    const followUp: AnswerPrompt = {
      ...prompt('And the express one?'),
      messages: [
        { role: 'user', content: 'How much does delivery cost?' },
        { role: 'assistant', content: 'It depends.' },
        { role: 'user', content: 'And the express one?' },
      ],
    };
    expect(composeAnswer(followUp)).toContain('Express delivery costs 9 euros');
  });

  it('answers a short question of its own without the previous question\'s words', () => {
    const passages = [{ source: 'faq.md', content: '## Dogs\nDogs are welcome in the bar, but they must not be left alone in the room at any time.\n## Leaving\nCheck-out is by 10:30am.' }];
    const standalone: AnswerPrompt = {
      ...prompt('What time is check-out?'), passages,
      messages: [{ role: 'user', content: 'Are dogs allowed in the rooms?' }, { role: 'assistant', content: 'Dogs are welcome.' }, { role: 'user', content: 'What time is check-out?' }],
    };
    expect(composeAnswer(standalone)).toMatch(/^Check-out is by 10:30am\./);
  });

  it('gives the encoder a follow-up together with the previous question, and a question of its own alone', async () => {
    const asked: string[] = [];
    const encoder = { embed: async (texts: readonly string[]) => { asked.push(...texts); return texts.map(() => Float32Array.from([1])); } };
    const conversation = (question: string): AnswerPrompt => ({
      ...prompt(question),
      messages: [{ role: 'user', content: 'Can I bring my dog?' }, { role: 'assistant', content: 'Dogs are welcome.' }, { role: 'user', content: question }],
    });
    await new LocalAnswerModel(encoder).answer(conversation('What time is check-out?'));
    await new LocalAnswerModel(encoder).answer(conversation('what does that cost?'));
    expect(asked).toContain('What time is check-out?');
    expect(asked).toContain('Can I bring my dog? what does that cost?');
    expect(asked).not.toContain('what does that cost?');
  });

  it('gives up the question\'s encoding when the knowledge\'s meaning index is still filling, and answers by words', async () => {
    const signals: (AbortSignal | undefined)[] = [];
    // An encoder whose worker is busy with other questions: this one's call waits until given up.
    const encoder = {
      embed: (texts: readonly string[], options?: { signal?: AbortSignal }) => new Promise<Float32Array[]>((_, reject) => {
        signals.push(options?.signal);
        options?.signal?.addEventListener('abort', () => reject(options.signal!.reason));
      }),
    };
    const sentences = Array.from({ length: 40 }, (_, i) => `Locker ${i + 1} takes a one-pound coin, returned when you open it.`);
    const filling = prompt('Do the lockers need a coin?', {
      passages: [{ source: 'lockers.md', content: sentences.join(' ') }],
      storedSentenceVectors: async () => new Map(),
    });
    const answer = await new LocalAnswerModel(encoder).answer(filling);
    expect(answer.text).toMatch(/one-pound coin/);
    expect(signals).toHaveLength(1);
    expect(signals[0]?.aborted).toBe(true);
  });

  it('reads the question asked alone as well when sentences about the visitor come before it', async () => {
    const passages: ContextPassage[] = [{ source: 'jobs.md', content: 'We pour every candle by hand in Bristol. We do not offer unpaid internships.' }];
    const question = "I'm a design student after some work experience this summer and I don't need paying. Do you take on interns?";
    // A stand-in encoder: the whole message means little like either sentence; the question asked alone means the internships one.
    const vectorOf = (text: string) => (text.startsWith('Do you take on interns') || text.includes('internships') ? [1, 0] : text.startsWith("I'm a design") ? [0.5, 0.5] : [0, 1]);
    const encoder = { embed: async (texts: readonly string[]) => texts.map((text) => Float32Array.from(vectorOf(text))) };
    const answer = await new LocalAnswerModel(encoder).answer({ ...prompt(question), passages, restrictResponse: 'Sorry, I can only help with the shop.' });
    expect(answer.text).toContain('We do not offer unpaid internships.');
  });
});

describe('LocalAnswerModel', () => {
  it('streams the answer word by word; the deltas concatenate to the whole answer', async () => {
    const p = prompt('How much does express delivery cost?');
    const deltas = await deltasOf(p);
    expect(deltas.length).toBeGreaterThan(5);
    expect(deltas.join('')).toBe(composeAnswer(p));
  });

  it('stops when the signal aborts', async () => {
    const controller = new AbortController();
    const seen: string[] = [];
    await expect((async () => {
      for await (const delta of new LocalAnswerModel().stream(prompt('How much does express delivery cost?'), controller.signal)) {
        seen.push(delta);
        controller.abort(new Error('gone'));
      }
    })()).rejects.toThrow('gone');
    expect(seen).toHaveLength(1);
  });
});

describe('LocalAnswerModel with the sentence encoder', () => {
  const passages: ContextPassage[] = [{
    source: 'faq.md',
    content: '# FAQ\n## Delivery\nWe ship to every EU country within 5 working days.\n## Loyalty club\nJoin the loyalty club and earn one point for every pound you spend.\n## Care\nTrim the wick to 5 mm before every burn.',
  }];
  const model = new LocalAnswerModel(new WorkerSentenceEncoder());
  const ask = async (question: string, extra: Partial<AnswerPrompt> = {}) => (await model.answer({ ...prompt(question), passages, ...extra })).text;

  it('finds the answer to a paraphrased question that words alone refuse', async () => {
    const restricted = { restrictResponse: 'Ask about candles.' };
    expect(await new LocalAnswerModel().answer({ ...prompt('How far down should the wick be clipped?'), passages, ...restricted })).toMatchObject({ text: 'Ask about candles.' });
    expect(await ask('How far down should the wick be clipped?', restricted)).toBe('Trim the wick to 5 mm before every burn.');
  }, 30_000);

  it('answers a question put the way visitors chat ("do you guys…"), restricted', async () => {
    const refunds = [{
      source: 'faq.md',
      content: '# FAQ\n## Delivery\nWe ship to every EU country within 5 working days.\n## Payment\nWe accept Visa, Mastercard and American Express cards. We do not accept PayPal.\n'
        + '## Refunds\nMonthly plans are not refundable. Annual plans can be cancelled for a pro-rata refund within the first 30 days.\n## Care\nTrim the wick to 5 mm before every burn.',
    }];
    expect(await ask('do you guys offer refunds?', { restrictResponse: 'Ask about plans.', passages: refunds }))
      .toBe('Monthly plans are not refundable. Annual plans can be cancelled for a pro-rata refund within the first 30 days.');
  }, 30_000);

  it('answers a question that says "something" for its subject, restricted (words alone)', async () => {
    const returns = [{ source: 'faq.md', content: '# FAQ\n## Returns\nYou can return unused items within 30 days for a full refund.\n## Delivery\nWe ship to every EU country within 5 working days.' }];
    expect(await new LocalAnswerModel().answer({ ...prompt('can I return something I bought?'), passages: returns, restrictResponse: 'Ask about candles.' }))
      .toMatchObject({ text: 'You can return unused items within 30 days for a full refund.' });
  });

  it('refuses, restricted, a question whose names the knowledge lacks though a sentence means nearly the same', async () => {
    const travel = [{ source: 'getting-here.html', content: '# Getting here\n## By car\nFrom London the drive takes about 5 hours, and from Bristol about 3 hours. '
      + 'Our car park has 12 free spaces.\n## By train\nDirect trains run from London Paddington to Penmorrow in about 5 hours.' }];
    const restricted = { restrictResponse: 'Ask about your stay.', passages: travel };
    // Without the names' weight, this one passed on the meaning of "From London the drive takes about 5 hours".
    expect(await ask('how many hours is the drive from Manchester', restricted)).toBe('Ask about your stay.');
    expect(await ask('how many hours is the drive from Bristol', restricted)).toMatch(/from Bristol about 3 hours/);
    // Unrestricted, the sentence is still offered.
    expect(await ask('how many hours is the drive from Manchester', { passages: travel })).toMatch(/the drive takes about 5 hours/);
  }, 30_000);

  it('counts no day, month or figure of the visitor\'s own as a name the knowledge lacks, restricted', async () => {
    const travel = [{ source: 'getting-here.html', content: '# Getting here\n## By car\nFrom London the drive takes about 5 hours, and from Bristol about 3 hours. '
      + 'Our car park has 12 free spaces.\n## By train\nDirect trains run from London Paddington to Penmorrow in about 5 hours.' }];
    const restricted = { restrictResponse: 'Ask about your stay.', passages: travel };
    expect(await ask('We set off from Bristol at 9 on a Saturday in June. Roughly how many hours is the drive?', restricted)).toMatch(/from Bristol about 3 hours/);
    expect(await ask('how many hours is the drive from Manchester on a Saturday', restricted)).toBe('Ask about your stay.');
  }, 30_000);

  it('replies to conversation put in more words than a greeting instead of refusing it, restricted', async () => {
    const restricted = { restrictResponse: 'Ask about candles.' };
    expect(await ask("I've rung three times today and nobody ever picks up. Absolutely useless.", restricted)).toMatch(/^Sorry that wasn't helpful/);
    expect(await ask('can I just speak to someone at reception instead?', restricted)).toMatch(/^I can't connect you to a person directly/);
    // What the knowledge answers is answered, whatever words it shares with conversation.
    expect(await ask('Can I speak to someone about how short to trim the wick?', restricted)).toBe('Trim the wick to 5 mm before every burn.');
  }, 30_000);

  it('replies to conversation the word rules do not know, by its meaning, and still refuses questions put around it, restricted', async () => {
    const restricted = { restrictResponse: 'Ask about candles.' };
    expect(await ask("Morning! First time using this. What sort of things are you able to do for me?", restricted)).toBe('Hi! What would you like to know?');
    expect(await ask('Many thanks, that has cleared everything up for me.', restricted)).toBe("You're welcome! Anything else I can help with?");
    expect(await ask('Apologies, but is it a human being reading this, or software? Who exactly am I writing to?', restricted)).toMatch(/^I'm the virtual assistant/);
    // A question with a greeting, or told around a visit, stays a question: here off-topic.
    expect(await ask('Hi! How do I change my name by deed poll?', restricted)).toBe('Ask about candles.');
    expect(await ask("I was hoping to pop into your office in person on Wednesday morning. Will the staff canteen be serving lunch?", restricted)).toBe('Ask about candles.');
  }, 30_000);

  it('answers a misspelt question as the context spells it, restricted', async () => {
    const stay = [{ source: 'directory.pdf', content: '# Guest directory\n## Wi-Fi\nThe Wi-Fi password is printed on your key card holder.\n## Breakfast\nBreakfast is served from 8am to 10am in the dining room.' }];
    expect(await ask('whats the wifi pasword', { restrictResponse: 'Ask about your stay.', passages: stay })).toBe('The Wi-Fi password is printed on your key card holder.');
  }, 30_000);

  it('asks less of a follow-up to a question it answered, restricted', async () => {
    const shop = [{ source: 'faq.md', content: '# FAQ\n## Gift cards\nDigital gift cards are available from £10 to £200 and are emailed immediately. '
      + 'They are valid for 24 months and can be used online and in the Bristol shop. You can schedule a gift card to arrive on a particular date, such as a birthday.\n'
      + '## Delivery\nWe ship to every EU country within 5 working days.\n## Care\nTrim the wick to 5 mm before every burn.' }];
    const question = "could I make it land in my mum's inbox on her birthday instead of right now?";
    const after = (answer: string): Partial<AnswerPrompt> => ({
      restrictResponse: 'Ask about candles.', passages: shop,
      messages: [{ role: 'user', content: 'Do you sell gift cards?' }, { role: 'assistant', content: answer }, { role: 'user', content: question }],
    });
    expect(await ask(question, after('Yes, digital gift cards from £10 to £200.'))).toMatch(/schedule a gift card to arrive on a particular date/);
    // After a refusal there is nothing to follow up.
    expect(await ask(question, after('Ask about candles.'))).toBe('Ask about candles.');
  }, 30_000);

  it('still refuses what the knowledge does not cover', async () => {
    expect(await ask('Which river is the longest in Europe?', { restrictResponse: 'Ask about candles.' })).toBe('Ask about candles.');
  }, 30_000);
});

describe('a visitor writing in another language than the knowledge', () => {
  const restrictResponse = 'Please ask about our shipping.';

  it('is told in their language what the chatbot answers in, with the contact offer, and the answer counts as declined', async () => {
    const model = new LocalAnswerModel();
    const asked = prompt('Quelle est la température d\'ébullition du mercure ?', { restrictResponse });
    const text = (await model.answer(asked)).text;
    expect(text).toMatch(/^Je ne peux répondre qu'à partir d'informations en anglais\..*coordonnées/);
    expect(model.declined(asked, text)).toBe(true);
    expect(model.citations(asked, text)).toEqual([]);
  });

  it('gets the not-found reply in their language from an unrestricted chatbot too', async () => {
    const text = (await new LocalAnswerModel().answer(prompt('Wie hoch ist der Siedepunkt von Quecksilber?'))).text;
    expect(text).toMatch(/^Ich kann nur anhand von Informationen auf Englisch antworten/);
  });

  it('leaves the restrict text to a visitor writing in the knowledge\'s language, and an answer found to any visitor', async () => {
    const model = new LocalAnswerModel();
    const english = prompt('What is the boiling point of mercury?', { restrictResponse });
    expect((await model.answer(english)).text).toBe(restrictResponse);
    expect(model.declined(english, restrictResponse)).toBe(true);
    const found = prompt('How much does express delivery cost?', { restrictResponse });
    const answer = (await model.answer(found)).text;
    expect(answer).toContain('9 euros');
    expect(model.declined(found, answer)).toBe(false);
  });
});
