import { performance } from 'node:perf_hooks';
import { pino } from 'pino';
import { loadConfig } from '../src/config.js';
import { newId } from '../src/db/ids.js';
import { insertChunkedResource } from '../src/features/chat/chat-test-fixtures.js';
import { createServices } from '../src/services.js';
import { benchDatabase } from './bench-database.js';
import { fmt, type Benchmark } from './bench-kit.js';

/** Pairs of the saved-answers resource, and knowledge gaps listed (each a distinct unanswered question). */
const PAIRS = 200;
const GAPS = 60;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/**
 * The per-chat read of saved answers (for a chatbot without a QA resource and for one with
 * {@link PAIRS} pairs) and the knowledge-gap listing ({@link GAPS} gaps): database queries per
 * call, counted on the connection, and the median time of a call. Synthetic rows, no ingestion.
 */
export const benchmark: Benchmark = {
  name: 'saved answers per chat and knowledge-gap listing',
  databases: ['pglite', 'postgres'],
  async run(ctx) {
    const database = await benchDatabase(ctx.database);
    const services = createServices(loadConfig({ DATA_DIR: database.dataDir, LOG_LEVEL: 'silent', LOCAL_SENTENCE_ENCODER: 'false' }), database, pino({ level: 'silent' }));
    const org = await services.organisations.createOrganisation({ name: 'Bench' });
    const auth = (await services.organisations.authenticate(org.apiKey))!;
    const { db } = database;
    const text = await insertChunkedResource(db, org.organisationId, 'bench', 'shop.txt',
      Array.from({ length: 40 }, (_, i) => `Section ${i}. Parcels of size ${i} ship within ${i % 5 + 1} working days from our warehouse.`));
    // A saved-answers resource as ingestion leaves it: the pairs, and a chunk per pair carrying its id.
    const qa = newId();
    await db('resources').insert({ id: qa, organisation_id: org.organisationId, creator: 'bench', file_name: 'Saved answers', type: 'QA', created_at: Date.now(), ai_processing_status: 'DONE', tags: [] });
    const pairs = Array.from({ length: PAIRS }, (_, i) => ({ id: newId(), questions: [`Do you stock product number ${i}?`, `Is item ${i} available?`], answer: `Yes, item ${i} is in stock.` }));
    await db.batchInsert('resource_qa_pairs', pairs.map((pair, position) => ({
      id: pair.id, organisation_id: org.organisationId, resource_id: qa, position, questions: JSON.stringify(pair.questions), answer: pair.answer,
    })), 200);
    await db.batchInsert('resource_chunks', pairs.map((pair, ordinal) => ({
      resource_id: qa, organisation_id: org.organisationId, ordinal, content: `${pair.questions.join('\n')}\n\n${pair.answer}`, provenance: JSON.stringify({ pairId: pair.id }),
    })), 200);

    let queries = 0;
    db.on('query', () => { queries += 1; });
    const measure = async (label: string, call: () => Promise<unknown>, calls: number) => {
      await call();
      const times: number[] = [];
      const before = queries;
      for (let i = 0; i < calls; i++) {
        const t = performance.now();
        await call();
        times.push(performance.now() - t);
      }
      ctx.report(label, { 'queries/call': fmt((queries - before) / calls, 1), 'median ms': fmt(median(times), 3) });
    };
    const calls = ctx.full ? 400 : 100;
    await measure('saved answers, chatbot without a QA resource', () => services.resources.matchSavedAnswer(org.organisationId, [text], 'Do you ship to Spain?'), calls);
    await measure(`saved answers, chatbot with ${PAIRS} pairs`, () => services.resources.matchSavedAnswer(org.organisationId, [text, qa], 'Is item 7 available?'), calls);

    const chatbot = await services.chatbots.create(auth, {
      name: 'Bench bot', resourceIds: [text], showBadge: false, model: 'alpha-4o-mini', accessLevel: 'PUBLIC', welcomeMessage: 'Hi',
      chatbotMessageColor: '#F6F7F8', userMessageColor: '#E0EEFA', conversationBackgroundColor: '#FFFFFF', secondaryBackgroundColor: '#F6F7F8',
      enabledEmoji: false, personalityType: 'ASSISTANT', toneType: 'FRIENDLY', tags: [],
    });
    const now = Date.now();
    for (let i = 0; i < GAPS; i++) {
      const at = now - (i + 1) * 60_000;
      const question = i % 2 === 0 ? `How long does a parcel of size ${i} take to reach island number ${i}?` : `Can I book table ${i} for a birthday lunch?`;
      const analysis = { summary: 's', customExtractedData: {}, unansweredQuestions: [question], extractedData: { keyPoints: [], nextSteps: [], sentimentAnalysis: 'neutral', intentClassification: 'other' } };
      await db('conversations').insert({
        id: newId(at), organisation_id: org.organisationId, chatbot_id: chatbot.id, created_at: at, updated_at: at + 1000,
        messages: JSON.stringify([{ text: question, fromUser: true }, { text: 'Sorry.', fromUser: false }]),
        source_type: 'website', source: JSON.stringify({ type: 'website' }), analysis_status: 'DONE', analysis_result: JSON.stringify(analysis),
      });
    }
    await measure(`knowledge gaps listed (${GAPS} gaps)`, () => services.knowledgeGaps.list(auth, chatbot.id, {}), ctx.full ? 40 : 10);
    await database.close();
  },
};
