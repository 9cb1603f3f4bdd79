import type { Knex } from 'knex';

/** The fields of a resource a chat needs. */
export interface ChatResource {
  id: string;
  fileName: string;
}

/** Read-only lookups of the chat feature; every read filters by organisation. */
export class ChatRepository {
  constructor(private readonly db: Knex) {}

  async findResource(organisationId: string, id: string): Promise<ChatResource | undefined> {
    const row = await this.db('resources').where({ id, organisation_id: organisationId }).first('id', 'file_name');
    return row ? { id: row.id as string, fileName: row.file_name as string } : undefined;
  }
}
