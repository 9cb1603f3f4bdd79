import type { Knex } from 'knex';
import { newId } from '../db/ids.js';

/** Inserts a finished TEXT resource row directly (for tests that only need one to exist). */
export async function insertTextResource(db: Knex, organisationId: string, creator: string, fileName = 'notes.txt'): Promise<string> {
  const id = newId();
  await db('resources').insert({
    id, organisation_id: organisationId, creator, file_name: fileName, type: 'TEXT', created_at: Date.now(),
    ai_processing_status: 'DONE', tags: [],
  });
  return id;
}

/** A valid 1×1 PNG. */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAwS2OUAAAAABJRU5ErkJggg==', 'base64',
);

/** A syntactically valid id that no test ever creates. */
export const ABSENT_ID = 'ffffffffffffffffffffffff';
