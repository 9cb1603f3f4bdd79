import fs from 'node:fs/promises';
import type { Chatbot, ChatbotCreate, ChatbotUpdate, Model, WebsiteIntegration } from '@parley/shared';
import type { PlanLimits } from '../../config.js';
import { newId } from '../../db/ids.js';
import { badRequest, forbidden, notFound } from '../../errors/http-error.js';
import type { AuthContext } from '../organisations/organisations.service.js';
import { hashChatbotPassword } from './chatbot-password.js';
import { toChatbotResponse } from './chatbot-response.js';
import type { ChatbotRecord, ChatbotsRepository } from './chatbots.repository.js';
import { sniffImageType } from './sniff-image-type.js';

/** Avatars must be smaller than this (service-api.md § Limits). */
export const MAX_AVATAR_BYTES = 5 * 1024 * 1024;

/** @throws 403 when the plan does not include the model. */
export function assertModelInPlan(plan: PlanLimits, model: Model): void {
  if (plan.models && !plan.models.includes(model)) {
    throw forbidden(`model ${model} is not included in your plan (allowed: ${plan.models.join(', ') || 'none'})`);
  }
}

function mergeWebsiteIntegration(stored: WebsiteIntegration | null, update: NonNullable<ChatbotUpdate['websiteIntegration']>): WebsiteIntegration {
  const base: WebsiteIntegration = stored ?? { allowedDomains: [], bubbleAlignment: 'right', bubblePopupMessages: [] };
  const merged = { ...base };
  for (const [key, value] of Object.entries(update)) {
    // `null` removes an extension sub-field (its default applies again).
    if (value === null) delete (merged as Record<string, unknown>)[key];
    else if (value !== undefined) (merged as Record<string, unknown>)[key] = value;
  }
  return merged;
}

/** Told when a chatbot starts using resources or changes its model (the local engine's sentence vectors follow it). */
export type ChatbotResourcesListener = (organisationId: string, resourceIds: readonly string[], model: Model) => Promise<unknown>;

/** Chatbots: create, read, update, delete and avatar, all scoped to the caller's organisation. */
export class ChatbotsService {
  constructor(private readonly repository: ChatbotsRepository, private readonly publicUrl: string, private readonly onResources?: ChatbotResourcesListener) {}

  /** @throws 404 when the chatbot is absent or another organisation's. */
  async getRecord(auth: AuthContext, id: string): Promise<ChatbotRecord> {
    const record = await this.repository.find(auth.organisationId, id);
    if (!record) throw notFound(`chatbot ${id}`);
    return record;
  }

  /** @throws 404 when the chatbot is absent or another organisation's. */
  async get(auth: AuthContext, id: string): Promise<Chatbot> {
    return toChatbotResponse(await this.getRecord(auth, id), this.publicUrl);
  }

  async list(auth: AuthContext): Promise<Chatbot[]> {
    return (await this.repository.list(auth.organisationId)).map((record) => toChatbotResponse(record, this.publicUrl));
  }

  /** @throws 403 for a model outside the plan; 404 for a resource that is not the organisation's. */
  async create(auth: AuthContext, body: ChatbotCreate): Promise<Chatbot> {
    assertModelInPlan(auth.plan, body.model);
    await this.assertResourcesExist(auth, body.resourceIds);
    const now = Date.now();
    const record: Omit<ChatbotRecord, 'avatarUpdatedAt'> = {
      id: newId(now), organisationId: auth.organisationId, creator: auth.userId, name: body.name,
      welcomeMessage: body.welcomeMessage, createdAt: now,
      chatbotMessageColor: body.chatbotMessageColor, userMessageColor: body.userMessageColor,
      conversationBackgroundColor: body.conversationBackgroundColor, secondaryBackgroundColor: body.secondaryBackgroundColor,
      gradientColors: body.gradientColors ?? null, showBadge: body.showBadge, enabledEmoji: body.enabledEmoji,
      model: body.model, accessLevel: body.accessLevel, personalityType: body.personalityType, toneType: body.toneType,
      customSystemPrompt: body.customSystemPrompt ?? null,
      restrictAnswersToResourcesContentResponse: body.restrictAnswersToResourcesContentResponse || null,
      tags: body.tags, passwordHash: body.password ? await hashChatbotPassword(body.password) : null,
      websiteIntegration: body.websiteIntegration ?? null, resourceIds: [...new Set(body.resourceIds)],
    };
    await this.repository.insert(record);
    await this.onResources?.(auth.organisationId, record.resourceIds, record.model);
    return toChatbotResponse({ ...record, avatarUpdatedAt: null }, this.publicUrl);
  }

  /**
   * Applies the given fields; absent ones stay unchanged.
   * @throws 400 for a customSystemPrompt without CUSTOM personality and tone, or PRIVATE without a password; 403; 404.
   */
  async update(auth: AuthContext, id: string, body: ChatbotUpdate): Promise<Chatbot> {
    const stored = await this.getRecord(auth, id);
    if (body.model) assertModelInPlan(auth.plan, body.model);
    if (body.customSystemPrompt !== undefined && (stored.personalityType !== 'CUSTOM' || stored.toneType !== 'CUSTOM')) {
      throw badRequest('customSystemPrompt is allowed only when personalityType and toneType are both CUSTOM');
    }
    if (body.accessLevel === 'PRIVATE' && !body.password && !stored.passwordHash) {
      throw badRequest('password is required when accessLevel is PRIVATE');
    }
    if (body.resourceIds) await this.assertResourcesExist(auth, body.resourceIds);
    const { password, gradientColors, websiteIntegration, restrictAnswersToResourcesContentResponse, ...plain } = body;
    const fields: Partial<ChatbotRecord> = { ...plain };
    if (password !== undefined) fields.passwordHash = await hashChatbotPassword(password);
    if (gradientColors !== undefined) fields.gradientColors = gradientColors;
    if (restrictAnswersToResourcesContentResponse !== undefined) {
      fields.restrictAnswersToResourcesContentResponse = restrictAnswersToResourcesContentResponse || null;
    }
    if (websiteIntegration) fields.websiteIntegration = mergeWebsiteIntegration(stored.websiteIntegration, websiteIntegration);
    await this.repository.update(auth.organisationId, id, fields);
    const updated = await this.getRecord(auth, id);
    if (body.resourceIds || body.model) await this.onResources?.(auth.organisationId, updated.resourceIds, updated.model);
    return toChatbotResponse(updated, this.publicUrl);
  }

  /** Deletes the chatbot with its conversations, leads and avatar (cascade). @throws 404 */
  async remove(auth: AuthContext, id: string): Promise<Chatbot> {
    const chatbot = await this.get(auth, id);
    if (!await this.repository.delete(auth.organisationId, id)) throw notFound(`chatbot ${id}`);
    return chatbot;
  }

  /**
   * Stores an uploaded avatar after checking its type by content; the upload is removed either way.
   * @throws 400 for a missing file or a type other than PNG, JPEG, WebP or GIF; 404.
   */
  async setAvatar(auth: AuthContext, id: string, file: { path: string; size: number } | undefined): Promise<void> {
    try {
      await this.getRecord(auth, id);
      if (!file) throw badRequest('file is required (multipart part "file")');
      if (file.size >= MAX_AVATAR_BYTES) throw badRequest('file must be smaller than 5 MB');
      const data = await fs.readFile(file.path);
      const contentType = sniffImageType(data);
      if (!contentType) throw badRequest('file must be a PNG, JPEG, WebP or GIF image');
      await this.repository.saveAvatar(id, contentType, data, Date.now());
    } finally {
      if (file) await fs.rm(file.path, { force: true });
    }
  }

  /** @throws 404 naming the first id that is not one of the organisation's resources. */
  private async assertResourcesExist(auth: AuthContext, ids: readonly string[]): Promise<void> {
    const missing = await this.repository.missingResources(auth.organisationId, ids);
    if (missing.length > 0) throw notFound(`resource ${missing.join(', ')}`);
  }
}
