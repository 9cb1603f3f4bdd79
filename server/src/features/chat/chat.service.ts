import type { ChatbotChatBody, ChatMessage, Model, ResourceChatBody } from '@parley/shared';
import type { AdmissionKey, FairAdmission } from '../../admission/fair-admission.js';
import type { PlanLimits } from '../../config.js';
import type { ModelRegistry } from '../../providers/llm/model-registry.js';
import type { ChatbotRecord } from '../chatbots/chatbots.repository.js';
import type { ChatbotsService } from '../chatbots/chatbots.service.js';
import type { AuthContext } from '../organisations/organisations.service.js';
import type { ResourcesService } from '../resources/resources.service.js';
import type { UsageService } from '../usage/usage.service.js';
import { buildPrompt, retrievalQuery, toOwnerAnswerPassage, toPassages, type AnswerSettings } from './build-prompt.js';
import { synonymsOf } from '../../providers/llm/local/synonyms.js';
import { classifyTurn, conversationalFallback } from '../../language/conversational-turn.js';
import { otherLanguageNotice } from '../../language/visitor-language.js';
import { fixedAnswer, modelAnswer, ownerAnswer, type PreparedAnswer } from './prepared-answer.js';

export type { PreparedAnswer } from './prepared-answer.js';

export interface ChatServiceOptions {
  /** Passages retrieved per question. */
  contextChunks: number;
  /** The model of `/v1/resource/chat*`, which has no chatbot to take one from. */
  resourceChatModel: Model;
  /** Bounds how many answers are prepared at once, fairly across organisations and chatbots. */
  admission?: FairAdmission;
}

/** A resource chat answers as a plain assistant, unrestricted. */
const RESOURCE_CHAT_SETTINGS: AnswerSettings = {
  personalityType: 'ASSISTANT', toneType: 'FRIENDLY', customSystemPrompt: null, restrictAnswersToResourcesContentResponse: null,
};

/**
 * The answer engine: finds the chatbot or resource, counts the message against the plan,
 * retrieves context, builds the prompt and hands back a {@link PreparedAnswer} that the routes
 * send as JSON or stream as SSE. Everything that can fail with 4xx fails here, before any byte.
 */
export class ChatService {
  constructor(
    private readonly resources: ResourcesService,
    private readonly chatbots: ChatbotsService,
    private readonly usage: UsageService,
    private readonly models: ModelRegistry,
    private readonly options: ChatServiceOptions,
  ) {}

  /**
   * Prepares the answer of a chatbot of the caller's organisation.
   * @throws 404 when the chatbot is absent or another organisation's; 402 when the month's messages are spent.
   */
  async prepareChatbotChat(auth: AuthContext, body: ChatbotChatBody): Promise<PreparedAnswer> {
    const chatbot = await this.chatbots.getRecord(auth, body.chatbotId);
    return this.prepareForChatbot(auth.organisationId, auth.plan, chatbot, body.conversation);
  }

  /**
   * Prepares the answer of a chatbot already loaded and authorised by the caller, for example the
   * public embed API serving a visitor of a chatbot found by its public id. Counts one message
   * against `plan`, retrieves from the chatbot's resources and applies its personality, tone,
   * custom prompt and restrict rule. A conversational turn (greeting, thanks, a request for a
   * person) is answered as such, never with the restrict text. A question that one of its saved
   * answers (QA resources) matches is answered with it, never with the restrict text. When the
   * chatbot is restricted and retrieval finds no passage, the answer is exactly its restrict text
   * and no model is called; otherwise the model decides whether the passages answer the question.
   *
   * Stream the result with `streamAnswer(res, answer)` (chat/stream-answer.ts) or await `answer.text()`.
   * @param conversation 1..100 messages, the last one from the user (validated by the caller's schema).
   * @throws 402 when the month's messages are spent.
   */
  async prepareForChatbot(organisationId: string, plan: PlanLimits, chatbot: ChatbotRecord, conversation: readonly ChatMessage[]): Promise<PreparedAnswer> {
    return this.admitted({ organisationId, chatbotId: chatbot.id }, () => this.counted(organisationId, plan,
      () => this.prepare(organisationId, chatbot.resourceIds, conversation, chatbot, chatbot.model)));
  }

  /**
   * Prepares the answer of one resource of the caller's organisation (a plain, unrestricted assistant).
   * @throws 404 when the resource is absent or another organisation's; 402 when the month's messages are spent.
   */
  async prepareResourceChat(auth: AuthContext, body: ResourceChatBody): Promise<PreparedAnswer> {
    const resource = await this.resources.getResource(auth, body.resourceId);
    return this.admitted({ organisationId: auth.organisationId, chatbotId: `resource:${resource.id}` }, () => this.counted(auth.organisationId, auth.plan,
      () => this.prepare(auth.organisationId, [resource.id], body.conversation, RESOURCE_CHAT_SETTINGS, this.options.resourceChatModel)));
  }

  /**
   * Counting and preparing an answer (retrieval is most of a question's cost) wait their turn in
   * the fair admission queue, so a burst at one chatbot does not make everyone wait.
   * @throws 503 with `Retry-After` when the wait would be too long.
   */
  private admitted(key: AdmissionKey, prepare: () => Promise<PreparedAnswer>): Promise<PreparedAnswer> {
    return this.options.admission ? this.options.admission.run(key, prepare) : prepare();
  }

  /**
   * Counts the message against the plan while the answer is prepared: the two wait on the
   * database independently, so a question inside admission waits for two round trips instead of
   * three (under a burst each round trip waits a whole turn of a busy event loop). Nothing is sent
   * before both are done: a spent month is still a 402 before any byte, and its preparation is
   * dropped.
   * @throws 402 when the month's messages are spent.
   */
  private async counted(organisationId: string, plan: PlanLimits, prepare: () => Promise<PreparedAnswer>): Promise<PreparedAnswer> {
    const counting = this.usage.consumeMessage(organisationId, plan);
    const preparing = prepare();
    // Settled either way before returning, so neither failure is left unhandled.
    const [count, answer] = await Promise.allSettled([counting, preparing]);
    if (count.status === 'rejected') throw count.reason;
    if (answer.status === 'rejected') throw answer.reason;
    return answer.value;
  }

  private async prepare(
    organisationId: string, resourceIds: readonly string[], conversation: readonly ChatMessage[], settings: AnswerSettings, model: Model,
  ): Promise<PreparedAnswer> {
    // A greeting, thanks or a request for a person is conversation: never refused, never searched.
    const turn = classifyTurn(conversation.at(-1)?.text ?? '');
    const query = retrievalQuery(conversation);
    // "send it back" also searches "returns": the visitor's words are not always the knowledge's.
    const [chunks, saved] = turn ? [[], undefined] : await Promise.all([
      this.resources.retrieve(organisationId, resourceIds, query, this.options.contextChunks, synonymsOf(query)),
      this.resources.matchSavedAnswer(organisationId, resourceIds, conversation.at(-1)?.text ?? ''),
    ]);
    // A saved answer the question matches is the answer: the local engine gives it as written, a
    // provider model gets it first, marked as the owner's. Either way it is never refused.
    const owner = saved && toOwnerAnswerPassage(saved);
    if (owner && this.models.resolve(model).kind === 'local') return ownerAnswer(owner);
    const passages = toPassages(owner ? chunks.filter((chunk) => chunk.provenance.pairId !== owner.citation?.pairId) : chunks);
    const prompt = buildPrompt(settings, conversation, owner ? [owner, ...passages] : passages, turn);
    const stored = this.resources.storedSentenceVectors(organisationId, chunks);
    if (stored) prompt.storedSentenceVectors = stored;
    // decisions.md § Chat and streaming: restricted and nothing relevant → exactly the restrict text.
    // Only an empty retrieval is decided here; otherwise the model judges the passages (the local
    // engine by its own relevance measure, a provider model by the rule in its system prompt).
    if (prompt.restrictResponse !== undefined && !turn && prompt.passages.length === 0) {
      // Conversation in more words than a greeting ("I'd rather speak to a person") is not off-topic.
      const fallback = conversationalFallback(conversation.at(-1)?.text ?? '');
      // A visitor writing in another language than the owner's restrict text is told so in theirs.
      if (!fallback) return fixedAnswer(otherLanguageNotice(prompt.question, [prompt.restrictResponse]) ?? prompt.restrictResponse);
      prompt.turn = fallback;
    }
    return modelAnswer(this.models.answerModel(model), prompt);
  }
}
