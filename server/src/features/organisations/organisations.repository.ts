import type { Knex } from 'knex';
import type { Model } from '@parley/shared';
import type { PlanLimits } from '../../config.js';

export interface OrganisationRow {
  id: string; name: string; created_at: number; plan_custom: boolean;
  plan_monthly_messages: number | null; plan_max_resources: number | null;
  plan_max_storage_bytes: number | null; plan_models: string[] | null;
}

export interface ApiKeyRow {
  id: string; organisation_id: string; user_id: string; name: string; key_hash: string;
  key_prefix: string; created_at: number; revoked_at: number | null;
}

/** A plan as stored; `null` means "the environment's default plan". */
export function toPlanColumns(plan: PlanLimits | null): Partial<OrganisationRow> {
  if (plan === null) {
    return { plan_custom: false, plan_monthly_messages: null, plan_max_resources: null, plan_max_storage_bytes: null, plan_models: null };
  }
  return {
    plan_custom: true,
    plan_monthly_messages: plan.monthlyMessages ?? null,
    plan_max_resources: plan.maxResources ?? null,
    plan_max_storage_bytes: plan.maxStorageBytes ?? null,
    plan_models: plan.models ?? null,
  };
}

export function toPlan(row: OrganisationRow): PlanLimits {
  return {
    monthlyMessages: row.plan_monthly_messages ?? undefined,
    maxResources: row.plan_max_resources ?? undefined,
    maxStorageBytes: row.plan_max_storage_bytes ?? undefined,
    models: (row.plan_models as Model[] | null) ?? undefined,
  };
}

export class OrganisationsRepository {
  constructor(private readonly db: Knex) {}

  async insertOrganisation(trx: Knex, row: OrganisationRow): Promise<void> {
    await trx('organisations').insert(row);
  }

  async insertUser(trx: Knex, row: { id: string; organisation_id: string; name: string; created_at: number }): Promise<void> {
    await trx('users').insert(row);
  }

  async insertApiKey(trx: Knex, row: ApiKeyRow): Promise<void> {
    await trx('api_keys').insert(row);
  }

  findOrganisation(id: string): Promise<OrganisationRow | undefined> {
    return this.db('organisations').where({ id }).first();
  }

  findOrganisationsByName(name: string): Promise<OrganisationRow[]> {
    return this.db('organisations').where({ name }).orderBy('created_at');
  }

  listOrganisations(): Promise<OrganisationRow[]> {
    return this.db('organisations').orderBy('created_at');
  }

  async updatePlan(id: string, plan: PlanLimits | null): Promise<boolean> {
    return (await this.db('organisations').where({ id }).update(toPlanColumns(plan))) > 0;
  }

  /** The active key with this hash, with its organisation's plan columns. */
  findActiveKeyByHash(keyHash: string): Promise<(ApiKeyRow & OrganisationRow & { key_id: string }) | undefined> {
    return this.db('api_keys')
      .join('organisations', 'organisations.id', 'api_keys.organisation_id')
      .where({ 'api_keys.key_hash': keyHash })
      .whereNull('api_keys.revoked_at')
      .first('api_keys.id as key_id', 'api_keys.user_id', 'api_keys.organisation_id', 'organisations.*');
  }

  listKeys(organisationId?: string): Promise<(ApiKeyRow & { organisation_name: string })[]> {
    const query = this.db('api_keys')
      .join('organisations', 'organisations.id', 'api_keys.organisation_id')
      .select('api_keys.*', 'organisations.name as organisation_name')
      .orderBy('api_keys.created_at');
    return organisationId ? query.where('api_keys.organisation_id', organisationId) : query;
  }

  /** Marks a key revoked; returns its hash, or undefined when no active key has this id. */
  async revokeKey(id: string, now: number): Promise<string | undefined> {
    const rows: { key_hash: string }[] = await this.db('api_keys').where({ id }).whereNull('revoked_at')
      .update({ revoked_at: now }, ['key_hash']);
    return rows[0]?.key_hash;
  }

  async countActiveKeys(trx: Knex = this.db): Promise<number> {
    const row = await trx('api_keys').whereNull('revoked_at').count<{ count: number }[]>({ count: '*' }).first();
    return Number(row?.count ?? 0);
  }

  async keyHashExists(keyHash: string): Promise<boolean> {
    return (await this.db('api_keys').where({ key_hash: keyHash }).first('id')) !== undefined;
  }

  /** Claims a one-time setting; true for exactly one caller across every instance. */
  async claimSetting(trx: Knex, key: string, value: string): Promise<boolean> {
    const rows = await trx('settings').insert({ key, value }).onConflict('key').ignore().returning('key');
    return rows.length > 0;
  }

  async getSetting(key: string): Promise<string | undefined> {
    return (await this.db('settings').where({ key }).first('value'))?.value;
  }
}
