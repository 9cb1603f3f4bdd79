import {
  MAX_GAP_EXAMPLES, MAX_GAP_PHRASINGS, type GapDismissal, type KnowledgeGapGroup, type KnowledgeGapList, type TimeRangeQuery,
} from '@parley/shared';
import type { SentenceEncoder } from '../../providers/llm/local/sentence-encoder.js';
import type { ChatbotsService } from '../chatbots/chatbots.service.js';
import { resolveListingRange } from '../conversations/listing-range.js';
import type { AuthContext } from '../organisations/organisations.service.js';
import { groupGaps, phrasings, type GapGroup } from './group-gaps.js';
import type { KnowledgeGapsRepository } from './knowledge-gaps.repository.js';

/** Gaps listed, at most. */
const MAX_GAPS = 100;

/** A group is closed when one of its word groups was closed after every conversation of it started. */
function isClosed(group: GapGroup, closures: ReadonlyMap<string, number>): boolean {
  const closedAt = Math.max(...group.memberIds.map((id) => closures.get(id) ?? -1));
  return closedAt >= 0 && group.occurrences.every((occurrence) => occurrence.conversationCreatedAt <= closedAt);
}

/** The knowledge gaps of a chatbot as a work queue: grouped, dismissed or answered (extension). */
export class KnowledgeGapsService {
  constructor(
    private readonly repository: KnowledgeGapsRepository,
    private readonly chatbots: Pick<ChatbotsService, 'getRecord'>,
    private readonly encoder?: SentenceEncoder,
  ) {}

  /**
   * `GET /v1/chatbot/{id}/gaps`: the open gaps of the chatbot's conversations in the range.
   * @throws 400 for a bad range; 404 when the chatbot is not the organisation's.
   */
  async list(auth: AuthContext, chatbotId: string, query: TimeRangeQuery): Promise<KnowledgeGapList> {
    const range = resolveListingRange(query);
    const chatbot = await this.chatbots.getRecord(auth, chatbotId);
    const [occurrences, closures] = await Promise.all([
      this.repository.occurrences(chatbot.id, range.start, range.end), this.repository.closures(chatbot.id),
    ]);
    const open = (await groupGaps(chatbot.id, occurrences, this.encoder)).filter((group) => !isClosed(group, closures)).slice(0, MAX_GAPS);
    const questions = open.map((group) => phrasings(group.occurrences));
    // One full-text query for every gap, as retrieval ranks: a vector search always finds some nearest passage.
    const related = await this.repository.relatedQuestions(chatbot.organisationId, chatbot.resourceIds, questions.map((phrasing) => phrasing[0]!));
    const gaps: KnowledgeGapGroup[] = open.map((group, index) => {
      const newest = [...group.occurrences].sort((a, b) => b.askedAt - a.askedAt);
      const asked = questions[index]!;
      return {
        id: group.id, question: asked[0]!, questions: asked.slice(0, MAX_GAP_PHRASINGS), count: group.occurrences.length,
        lastAskedAt: newest[0]!.askedAt, conversationIds: [...new Set(newest.map((o) => o.conversationId))].slice(0, MAX_GAP_EXAMPLES),
        offTopic: !related[index],
      };
    });
    gaps.sort((a, b) => Number(a.offTopic) - Number(b.offTopic) || b.count - a.count || b.lastAskedAt - a.lastAskedAt);
    return { grouping: this.encoder ? 'meaning' : 'words', gaps };
  }

  /**
   * `POST /v1/chatbot/{id}/gaps/{gapId}/dismiss`: hides the gap until a conversation started later asks it.
   * @throws 404 when the chatbot is not the organisation's.
   */
  async dismiss(auth: AuthContext, chatbotId: string, gapId: string): Promise<GapDismissal> {
    const chatbot = await this.chatbots.getRecord(auth, chatbotId);
    const dismissedAt = Date.now();
    await this.repository.close(chatbot.id, gapId, 'DISMISSED', dismissedAt);
    return { id: gapId, dismissedAt };
  }
}
