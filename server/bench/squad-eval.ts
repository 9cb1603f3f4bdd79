import fs from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { queueMissingSentenceVectors } from '../src/features/resources/ingestion/sentence-vectors-job.js';
import type { Services } from '../src/services.js';
import { drainJobs } from './bench-ingestion.js';
import type { ChatbotRecord } from '../src/features/chatbots/chatbots.repository.js';
import { insertChunkedResource } from '../src/features/chat/chat-test-fixtures.js';
import { retrieveChunks } from '../src/features/resources/retrieve-chunks.js';

/** The evaluation data beside the repository (../shared/data), or where BENCH_DATA_DIR says. */
export const DATA_DIR = process.env.BENCH_DATA_DIR ?? fileURLToPath(new URL('../../../shared/data/', import.meta.url));
export const SQUAD_V1 = `${DATA_DIR}/squad-v1.1/dev-v1.1.json`;
export const SQUAD_V2 = `${DATA_DIR}/squad-v2.0-cs224n/cs224n-dev-v2.0.json`;
export const PYTHON_FAQ = `${DATA_DIR}/python311-faq/python311-faq.jsonl`;

interface SquadFile {
  data: { title: string; paragraphs: { context: string; qas: { question: string; answers: { text: string }[]; is_impossible?: boolean }[] }[] }[];
}

export interface SquadQuestion { question: string; answers: string[]; impossible: boolean; paragraph: string }

/** SQuAD's answer normalisation: lower case, no punctuation, no articles, single spaces. */
export function normalise(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}\s]/gu, ' ').replace(/\b(a|an|the)\b/g, ' ').replace(/\s+/g, ' ').trim();
}

/** The answer without its trailing "Source(s): …" line: gold answers are looked for in the text proper. */
export function answerBody(answer: string): string {
  return answer.replace(/\n\nSources?: [^\n]*$/, '');
}

/**
 * Loads a SQuAD file into the database: one TEXT resource per article (named by its title) with
 * one chunk per paragraph, and one chatbot over all of them. Returns the chatbot and every
 * question, in file order. The chatbot is asked as it answers once its knowledge's meaning index
 * is complete, unless `meaningIndex` is false: then as right after ingestion, while it fills
 * (answers rank by words alone).
 */
export async function loadSquad(services: Services, file: string, restrict?: string, meaningIndex = true): Promise<{ chatbot: ChatbotRecord; questions: SquadQuestion[] }> {
  const squad = JSON.parse(await fs.readFile(file, 'utf8')) as SquadFile;
  const org = await services.organisations.createOrganisation({ name: `SQuAD ${file}` });
  const auth = (await services.organisations.authenticate(org.apiKey))!;
  const resourceIds: string[] = [];
  const questions: SquadQuestion[] = [];
  for (const article of squad.data) {
    const title = article.title.replace(/_/g, ' ');
    resourceIds.push(await insertChunkedResource(services.database.db, org.organisationId, org.userId, title, article.paragraphs.map((p) => p.context)));
    for (const paragraph of article.paragraphs) {
      for (const qa of paragraph.qas) {
        questions.push({ question: qa.question, answers: qa.answers.map((a) => a.text), impossible: qa.is_impossible === true, paragraph: paragraph.context });
      }
    }
  }
  // Filled before the chatbot exists, as after ingestion's background job (answers until then rank by words alone).
  if (meaningIndex) await fillMeaningIndex(services, org.organisationId, resourceIds);
  const created = await services.chatbots.create(auth, {
    name: 'SQuAD', resourceIds, showBadge: false, model: 'alpha-4o-mini', accessLevel: 'PUBLIC', welcomeMessage: 'Hi',
    chatbotMessageColor: '#F6F7F8', userMessageColor: '#E0EEFA', conversationBackgroundColor: '#FFFFFF',
    secondaryBackgroundColor: '#F6F7F8', enabledEmoji: false, personalityType: 'ASSISTANT', toneType: 'FRIENDLY', tags: [],
    restrictAnswersToResourcesContentResponse: restrict,
  });
  return { chatbot: await services.chatbots.getRecord(auth, created.id), questions };
}

/** Runs the job that follows ingestion and stores the resources' sentence vectors, until it is done. */
async function fillMeaningIndex(services: Services, organisationId: string, resourceIds: string[]): Promise<void> {
  if (await queueMissingSentenceVectors(services.database.db, services.jobs, { organisationId, resourceIds }) > 0) {
    services.worker.start();
    await drainJobs(services, performance.now());
    await services.worker.stop();
  }
}

/** Every `step`-th question, so a quick run still spans all articles. */
export function sample<T>(items: readonly T[], size: number): T[] {
  if (size >= items.length) return [...items];
  const step = items.length / size;
  return Array.from({ length: size }, (_, i) => items[Math.floor(i * step)]!);
}

/** Asks the chatbot one question through the chat service, as the API does. */
export async function ask(services: Services, chatbot: ChatbotRecord, question: string): Promise<string> {
  const answer = await services.chat.prepareForChatbot(chatbot.organisationId, {}, chatbot, [{ text: question, fromUser: true }]);
  return answer.text();
}

/** Whether the paragraph a question was written from is among the passages retrieval returns. */
export async function retrievalHit(services: Services, chatbot: ChatbotRecord, q: SquadQuestion, k: number): Promise<boolean> {
  const chunks = await retrieveChunks(services.database.db, chatbot.organisationId, chatbot.resourceIds, q.question, k);
  return chunks.some((chunk) => chunk.content === q.paragraph);
}
