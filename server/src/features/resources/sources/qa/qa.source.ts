import type { QaPair, QaResourceCreate } from '@parley/shared';
import { newId } from '../../../../db/ids.js';
import type { SourceSection } from '../../ingestion/ingestion-types.js';
import type { CreatableSource } from '../source-module.js';
import { pairBytes, QaPairsRepository } from './qa-pairs.repository.js';
import { QaSourceSchema } from './qa-source.schema.js';

/**
 * A pair as indexed: one section, its questions as the heading and its answer as the text. The
 * heading makes the questions searchable and names the passage's section, but is never quoted as
 * an answer sentence; the pair's id in the provenance lets chat find the pairs that are indexed.
 */
export function toQaSection(pair: QaPair): SourceSection {
  const heading = pair.questions.map((question) => question.replace(/\s+/g, ' ')).join(' / ');
  return { provenance: { pairId: pair.id }, units: [{ text: `# ${heading}\n\n${pair.answer}` }] };
}

/** Saved answers given in the request (`POST /v1/resource/qa`), edited through `/v1/resource/qa/{id}`. */
export const qaSource: CreatableSource<'QA', QaResourceCreate> = {
  type: 'QA',
  schema: QaSourceSchema,
  syncs: false,
  editable: false,
  async create(body) {
    const pairs = body.pairs.map((pair) => ({ id: newId(), ...pair }));
    return {
      type: 'QA', fileName: body.name, tags: body.tags, source: {},
      storedBytes: pairs.reduce((sum, pair) => sum + pairBytes(pair), 0),
      write: (trx, resource) => new QaPairsRepository(trx).append(trx, resource.organisationId, resource.id, pairs),
    };
  },
  // A resource whose pairs were all deleted is indexed as empty (DONE), so the last pair stops answering.
  async read(ctx, resource) {
    const pairs = await new QaPairsRepository(ctx.db).list(resource.organisationId, resource.id);
    return { sections: pairs.map(toQaSection) };
  },
  toResponse: () => ({}),
};
