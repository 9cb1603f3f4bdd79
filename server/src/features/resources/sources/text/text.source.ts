import type { TextResourceCreate } from '@parley/shared';
import type { CreatableSource } from '../source-module.js';
import { TextSourceSchema } from './text-source.schema.js';

/** Text given in the request (`POST /v1/resource/text`), editable afterwards. */
export const textSource: CreatableSource<'TEXT', TextResourceCreate> = {
  type: 'TEXT',
  schema: TextSourceSchema,
  syncs: false,
  editable: true,
  async create(body) {
    return { type: 'TEXT', fileName: body.name, tags: body.tags, source: {}, textContent: body.content, storedBytes: Buffer.byteLength(body.content) };
  },
  async read(_ctx, resource) {
    return { sections: [{ provenance: {}, units: [{ text: resource.textContent ?? '' }] }] };
  },
  toResponse: () => ({}),
};
