import type { PlanLimits } from '../../config.js';
import { usageLimitExceeded } from '../../errors/http-error.js';
import { MessageCounter } from './message-counter.js';
import type { UsageRepository } from './usage.repository.js';

/** The counting month of a moment, in UTC: "2026-11". */
export function usageMonth(at: number = Date.now()): string {
  return new Date(at).toISOString().slice(0, 7);
}

/** Plan quotas that are counted per month: chat messages (decisions.md § Resources and processing, 402). */
export class UsageService {
  private readonly counter: MessageCounter;

  constructor(private readonly repository: UsageRepository) {
    this.counter = new MessageCounter(repository);
  }

  /**
   * Counts one chat message against the organisation's monthly plan. Every chat request counts,
   * chatbot or resource, plain or streamed, API or embed.
   * @throws 402 when the month's messages are spent (the request is then not counted).
   */
  async consumeMessage(organisationId: string, plan: PlanLimits, at: number = Date.now()): Promise<void> {
    const limit = plan.monthlyMessages;
    if (limit !== undefined && limit <= 0) throw monthlyLimitReached(limit);
    if (!(await this.counter.count(organisationId, usageMonth(at), limit))) throw monthlyLimitReached(limit ?? 0);
  }

  /** Chat messages the organisation used this month. */
  messagesThisMonth(organisationId: string, at: number = Date.now()): Promise<number> {
    return this.repository.messages(organisationId, usageMonth(at));
  }
}

function monthlyLimitReached(limit: number) {
  return usageLimitExceeded(`the plan's monthly limit of ${limit} chat messages is reached`);
}
