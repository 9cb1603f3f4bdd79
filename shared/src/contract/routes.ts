import { chatbotContract } from './chatbots.contract.js';
import { conversationContract, leadContract } from './conversations.contract.js';
import { embedContract, systemContract } from './embed.contract.js';
import { feedbackContract } from './feedback.contract.js';
import { handoffContract } from './handoff.contract.js';
import { insightsContract } from './insights.contract.js';
import { knowledgeGapsContract } from './knowledge-gaps.contract.js';
import { apiKeyContract, auditContract, memberContract } from './members.contract.js';
import { modelsContract } from './models.contract.js';
import { notificationSettingsContract, webhookContract } from './notifications.contract.js';
import { resourceContract } from './resources.contract.js';
import type { RouteContract } from './route-contract.js';
import { sessionContract } from './session.contract.js';

export {
  chatbotContract, conversationContract, embedContract, feedbackContract, handoffContract, insightsContract, knowledgeGapsContract, leadContract,
  modelsContract, notificationSettingsContract, resourceContract, sessionContract, systemContract, webhookContract, memberContract, apiKeyContract,
  auditContract,
};

/** Every operation of the service, in documentation order. */
export const ALL_ROUTES: readonly RouteContract[] = [
  ...Object.values(chatbotContract),
  ...Object.values(modelsContract),
  ...Object.values(resourceContract),
  ...Object.values(conversationContract),
  ...Object.values(handoffContract),
  ...Object.values(leadContract),
  ...Object.values(feedbackContract),
  ...Object.values(insightsContract),
  ...Object.values(knowledgeGapsContract),
  ...Object.values(webhookContract),
  ...Object.values(notificationSettingsContract),
  ...Object.values(embedContract),
  ...Object.values(systemContract),
  ...Object.values(sessionContract),
  ...Object.values(memberContract),
  ...Object.values(apiKeyContract),
  ...Object.values(auditContract),
];
