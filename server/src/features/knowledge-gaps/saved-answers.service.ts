import type { ChatbotTextCreate, Resource, SavedAnswer, SavedAnswerCreate } from '@parley/shared';
import type { ChatbotsService } from '../chatbots/chatbots.service.js';
import type { AuthContext } from '../organisations/organisations.service.js';
import type { ResourcesService } from '../resources/resources.service.js';
import type { QaResourcesService } from '../resources/sources/qa/qa-resources.service.js';
import { gapIdOf, wordKey } from './group-gaps.js';
import type { KnowledgeGapsRepository } from './knowledge-gaps.repository.js';

/** "Answer it": a saved answer for one chatbot, in that chatbot's own saved-answers resource (extension). */
export class SavedAnswersService {
  constructor(
    private readonly repository: KnowledgeGapsRepository,
    private readonly chatbots: Pick<ChatbotsService, 'getRecord' | 'update'>,
    private readonly resources: Pick<ResourcesService, 'createQa' | 'createText' | 'get' | 'remove'>,
    private readonly qa: Pick<QaResourcesService, 'addPair' | 'get'>,
  ) {}

  /**
   * `POST /v1/chatbot/{id}/saved-answers`: adds the pair to the chatbot's saved-answers resource,
   * creating it and attaching it to the chatbot when needed; closes `gapId` if given, and the gaps
   * that ask one of the questions in the same words.
   * @throws 400 when the resource holds 1,000 pairs; 402 over the plan; 404 when the chatbot is not the organisation's.
   */
  async save(auth: AuthContext, chatbotId: string, body: SavedAnswerCreate): Promise<SavedAnswer> {
    const chatbot = await this.chatbots.getRecord(auth, chatbotId);
    const { gapId, ...pairInput } = body;
    let resourceId = await this.repository.savedAnswersResource(chatbot.id);
    let created = false;
    if (resourceId === undefined) {
      // A new resource is indexed with its first pair: no separate re-index for the pair.
      const resource = await this.resources.createQa(auth, { name: `${chatbot.name} — saved answers`.slice(0, 200), tags: ['saved-answers'], pairs: [pairInput] });
      resourceId = await this.repository.setSavedAnswersResource(chatbot.id, resource.id);
      created = resourceId === resource.id;
      // Two first answers at once: the one recorded first is the chatbot's; the other resource goes.
      if (!created) await this.resources.remove(auth, resource.id);
    }
    const pair = created ? (await this.qa.get(auth, resourceId)).pairs[0]! : await this.qa.addPair(auth, resourceId, pairInput);
    if (!chatbot.resourceIds.includes(resourceId)) await this.chatbots.update(auth, chatbot.id, { resourceIds: [...chatbot.resourceIds, resourceId] });
    // The gap, and every gap whose words one of the questions has (an answer saved from a conversation or the playground closes it too).
    const closedAt = Date.now();
    const answered = new Set([...(gapId ? [gapId] : []), ...pairInput.questions.map((question) => gapIdOf(chatbot.id, wordKey(question)))]);
    for (const id of answered) await this.repository.close(chatbot.id, id, 'ANSWERED', closedAt);
    return { pair, resource: await this.resources.get(auth, resourceId), resourceCreated: created };
  }

  /**
   * `POST /v1/chatbot/{id}/texts`: a text resource added to the chatbot's resources; closes `gapId`
   * if given, and the gap that asks the text's name (the gap's question, as the console fills it) in the same words.
   * @throws 400 for a bad body; 402 over the plan; 404 when the chatbot is not the organisation's.
   */
  async addText(auth: AuthContext, chatbotId: string, body: ChatbotTextCreate): Promise<Resource> {
    const chatbot = await this.chatbots.getRecord(auth, chatbotId);
    const { gapId, ...text } = body;
    const resource = await this.resources.createText(auth, text);
    try {
      await this.chatbots.update(auth, chatbot.id, { resourceIds: [...chatbot.resourceIds, resource.id] });
    } catch (err) {
      // A chatbot that cannot take it (deleted meanwhile, at its limit of resources) leaves no text behind.
      await this.resources.remove(auth, resource.id).catch(() => undefined);
      throw err;
    }
    const closedAt = Date.now();
    for (const id of new Set([...(gapId ? [gapId] : []), gapIdOf(chatbot.id, wordKey(text.name))])) await this.repository.close(chatbot.id, id, 'ANSWERED', closedAt);
    return resource;
  }
}
