import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Role } from '@parley/shared';
import type { Config, PlanLimits } from '../../config.js';
import { newId } from '../../db/ids.js';
import { displayPrefix, generateApiKey, hashApiKey } from './api-key.js';
import { OrganisationsRepository, toPlan, toPlanColumns, type OrganisationRow } from './organisations.repository.js';

/** A member signed in to the console, as routes see it. */
export interface SignedInMember {
  id: string;
  name: string;
  email: string;
  role: Role;
}

/** Who is calling: resolved from the `x-api-key` header or the console session on every /v1 call. */
export interface AuthContext {
  organisationId: string;
  /** The `users` row things made by the caller name (a member's own, or its key's). */
  userId: string;
  /** The key, or for a member's session `member:<id>` (what per-caller limits count by). */
  keyId: string;
  plan: PlanLimits;
  /** The member, when the caller signed in with e-mail and password; absent for API keys (full access). */
  member?: SignedInMember;
}

export interface CreatedOrganisation {
  organisationId: string;
  userId: string;
  keyId: string;
  /** The key in clear; it is never retrievable again. */
  apiKey: string;
}

export interface KeySummary {
  id: string; organisationId: string; organisationName: string; userId: string; name: string;
  prefix: string; createdAt: number; revokedAt?: number;
}

/** Authenticated keys are cached briefly, so most requests skip the key lookup. */
const AUTH_CACHE_TTL_MS = 5_000;
const AUTH_CACHE_MAX = 10_000;

/** Organisations, their users, API keys and plans. */
export class OrganisationsService {
  private readonly repository: OrganisationsRepository;
  private readonly authCache = new Map<string, { context: AuthContext; expiresAt: number }>();

  constructor(private readonly db: Knex, private readonly config: Config, private readonly logger: Logger) {
    this.repository = new OrganisationsRepository(db);
  }

  /** Creates an organisation with one user and one key. `plan: null` follows the environment's plan. */
  async createOrganisation(input: { name: string; plan?: PlanLimits | null; apiKey?: string }, trx: Knex = this.db): Promise<CreatedOrganisation> {
    const now = Date.now();
    const organisationId = newId(now);
    const userId = newId(now);
    const keyId = newId(now);
    const apiKey = input.apiKey ?? generateApiKey();
    await trx.transaction(async (t) => {
      await this.repository.insertOrganisation(t, {
        id: organisationId, name: input.name, created_at: now, ...toPlanColumns(input.plan ?? null),
      } as OrganisationRow);
      await this.repository.insertUser(t, { id: userId, organisation_id: organisationId, name: 'owner', created_at: now });
      await this.repository.insertApiKey(t, {
        id: keyId, organisation_id: organisationId, user_id: userId, name: 'default', key_hash: hashApiKey(apiKey),
        key_prefix: displayPrefix(apiKey), created_at: now, revoked_at: null,
      });
    });
    return { organisationId, userId, keyId, apiKey };
  }

  /** Adds a key to an existing organisation (owned by its first user). */
  async createKey(organisationId: string, name = 'default'): Promise<CreatedOrganisation | undefined> {
    const organisation = await this.repository.findOrganisation(organisationId);
    if (!organisation) return undefined;
    const user = await this.db('users').where({ organisation_id: organisationId }).orderBy('created_at').first('id');
    const apiKey = generateApiKey();
    const keyId = newId();
    await this.repository.insertApiKey(this.db, {
      id: keyId, organisation_id: organisationId, user_id: user.id, name, key_hash: hashApiKey(apiKey),
      key_prefix: displayPrefix(apiKey), created_at: Date.now(), revoked_at: null,
    });
    return { organisationId, userId: user.id, keyId, apiKey };
  }

  /** The caller of a key, or undefined when the key is unknown or revoked. */
  async authenticate(apiKey: string): Promise<AuthContext | undefined> {
    const keyHash = hashApiKey(apiKey);
    const cached = this.cachedAuth(keyHash);
    if (cached) return cached;
    const row = await this.repository.findActiveKeyByHash(keyHash);
    if (!row) {
      this.authCache.delete(keyHash);
      return undefined;
    }
    const context: AuthContext = {
      organisationId: row.organisation_id, userId: row.user_id, keyId: row.key_id, plan: this.planOf(row),
    };
    if (this.authCache.size >= AUTH_CACHE_MAX) this.authCache.clear();
    this.authCache.set(keyHash, { context, expiresAt: Date.now() + AUTH_CACHE_TTL_MS });
    return context;
  }

  /**
   * The caller of a key this instance authenticated in the last few seconds, without waiting for
   * anything; `undefined` when the key must be looked up (`authenticate`).
   */
  authenticateCached(apiKey: string): AuthContext | undefined {
    return this.cachedAuth(hashApiKey(apiKey));
  }

  private cachedAuth(keyHash: string): AuthContext | undefined {
    const cached = this.authCache.get(keyHash);
    return cached && cached.expiresAt > Date.now() ? cached.context : undefined;
  }

  /** The limits that apply to an organisation now. */
  planOf(row: OrganisationRow): PlanLimits {
    return row.plan_custom ? toPlan(row) : this.config.defaultPlan;
  }

  async findOrganisation(id: string): Promise<OrganisationRow | undefined> {
    return this.repository.findOrganisation(id);
  }

  /** Resolves an organisation given by id or by (unique) name. */
  async resolveOrganisation(idOrName: string): Promise<OrganisationRow | undefined> {
    const byId = /^[0-9a-f]{24}$/.test(idOrName) ? await this.repository.findOrganisation(idOrName) : undefined;
    if (byId) return byId;
    const byName = await this.repository.findOrganisationsByName(idOrName);
    if (byName.length > 1) throw new Error(`${byName.length} organisations are named "${idOrName}"; use the organisation id`);
    return byName[0];
  }

  listOrganisations(): Promise<OrganisationRow[]> {
    return this.repository.listOrganisations();
  }

  async listKeys(organisationId?: string): Promise<KeySummary[]> {
    const rows = await this.repository.listKeys(organisationId);
    return rows.map((row) => ({
      id: row.id, organisationId: row.organisation_id, organisationName: row.organisation_name, userId: row.user_id,
      name: row.name, prefix: row.key_prefix, createdAt: row.created_at, ...(row.revoked_at ? { revokedAt: row.revoked_at } : {}),
    }));
  }

  /** Revokes a key at once on this instance; other instances stop accepting it within 5 seconds. */
  async revokeKey(keyId: string): Promise<boolean> {
    const keyHash = await this.repository.revokeKey(keyId, Date.now());
    if (keyHash) this.authCache.delete(keyHash);
    return keyHash !== undefined;
  }

  /** Revokes one of an organisation's keys and returns it; undefined when it has no such active key. */
  async revokeOrganisationKey(organisationId: string, keyId: string): Promise<KeySummary | undefined> {
    const key = (await this.repository.listKeys(organisationId)).find((row) => row.id === keyId && row.revoked_at === null);
    if (!key || !await this.revokeKey(keyId)) return undefined;
    return (await this.listKeys(organisationId)).find((row) => row.id === keyId);
  }

  async setPlan(organisationId: string, plan: PlanLimits | null): Promise<boolean> {
    const updated = await this.repository.updatePlan(organisationId, plan);
    this.authCache.clear();
    return updated;
  }

  /**
   * On first start, creates an organisation and a key when none exists (the given bootstrap key, or
   * a new one) and returns it so it can be printed once. Safe when several instances start at once.
   */
  async bootstrap(): Promise<CreatedOrganisation | undefined> {
    const bootstrapKey = this.config.bootstrapApiKey;
    if (bootstrapKey && await this.repository.keyHashExists(hashApiKey(bootstrapKey))) return undefined;
    return this.db.transaction(async (trx) => {
      if (await this.repository.countActiveKeys(trx) > 0) {
        if (bootstrapKey) this.logger.warn('BOOTSTRAP_API_KEY is ignored: API keys already exist');
        return undefined;
      }
      if (!await this.repository.claimSetting(trx, 'bootstrap', String(Date.now()))) {
        if (!bootstrapKey) return undefined;
        await trx('settings').where({ key: 'bootstrap' }).delete();
      }
      return this.createOrganisation({ name: 'Default', plan: null, apiKey: bootstrapKey }, trx);
    });
  }
}
