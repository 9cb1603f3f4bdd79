import type { ChatbotStats, KnowledgeGap } from '@parley/shared';
import type { ConversationFacts } from './insights.repository.js';

const TOP_INTENTS = 10;
const KNOWLEDGE_GAPS = 50;

function increment(counts: Map<string, number>, key: string, by = 1): void {
  counts.set(key, (counts.get(key) ?? 0) + by);
}

/** Sums up conversation facts (newest first) into the statistics' figures; days and hours are UTC. */
export function summariseConversations(facts: readonly ConversationFacts[]): Omit<ChatbotStats, 'chatbotName' | 'startInterval' | 'endInterval' | 'feedback' | 'feedbackDays'> {
  const conversationsPerDay = new Map<string, number>();
  const messagesPerDay = new Map<string, number>();
  const sentiment = new Map<string, number>();
  const intents = new Map<string, number>();
  const busiestHours = Array.from({ length: 24 }, () => 0);
  const knowledgeGaps: KnowledgeGap[] = [];
  let messages = 0;
  let asked = 0;
  let unanswered = 0;
  for (const fact of facts) {
    const date = new Date(fact.createdAt);
    const day = date.toISOString().slice(0, 10);
    increment(conversationsPerDay, day);
    increment(messagesPerDay, day, fact.messages);
    busiestHours[date.getUTCHours()]! += 1;
    if (fact.sentiment) increment(sentiment, fact.sentiment);
    if (fact.intent) increment(intents, fact.intent);
    messages += fact.messages;
    asked += fact.asked;
    unanswered += fact.unanswered.length;
    for (const question of fact.unanswered) {
      if (knowledgeGaps.length < KNOWLEDGE_GAPS) knowledgeGaps.push({ question, conversationId: fact.id, createdAt: fact.createdAt });
    }
  }
  return {
    conversations: facts.length,
    messages,
    days: [...conversationsPerDay.keys()].sort().map((date) => ({
      date, conversations: conversationsPerDay.get(date)!, messages: messagesPerDay.get(date)!,
    })),
    sentiment: Object.fromEntries(sentiment),
    topIntents: [...intents].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, TOP_INTENTS)
      .map(([intent, conversations]) => ({ intent, conversations })),
    // The analysis may count a question the visitor asked over two messages once; keep the share within 0..1.
    questions: { asked, unanswered, unansweredShare: asked === 0 ? 0 : Math.min(1, unanswered / asked) },
    busiestHours,
    knowledgeGaps,
  };
}
