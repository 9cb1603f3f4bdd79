import { describe, expect, it } from 'vitest';
import { summariseConversations } from './chatbot-stats.js';

const at = (iso: string) => Date.parse(iso);

describe('summariseConversations', () => {
  it('counts by UTC day and hour, and keeps the unanswered share within 0..1', () => {
    const summary = summariseConversations([
      { id: 'b', createdAt: at('2026-03-02T23:59:00Z'), messages: 2, asked: 1, sentiment: 'negative', intent: 'support', unanswered: ['Why?', 'How?'] },
      { id: 'a', createdAt: at('2026-03-01T00:00:00Z'), messages: 3, asked: 2, sentiment: null, intent: null, unanswered: [] },
    ]);
    expect(summary.days).toEqual([
      { date: '2026-03-01', conversations: 1, messages: 3 }, { date: '2026-03-02', conversations: 1, messages: 2 },
    ]);
    expect(summary.busiestHours[0]).toBe(1);
    expect(summary.busiestHours[23]).toBe(1);
    expect(summary.sentiment).toEqual({ negative: 1 });
    expect(summary.topIntents).toEqual([{ intent: 'support', conversations: 1 }]);
    expect(summary.questions).toEqual({ asked: 3, unanswered: 2, unansweredShare: 2 / 3 });
    expect(summary.knowledgeGaps.map((gap) => gap.question)).toEqual(['Why?', 'How?']);
  });

  it('answers zeros for no conversations', () => {
    expect(summariseConversations([])).toMatchObject({ conversations: 0, messages: 0, days: [], questions: { unansweredShare: 0 } });
  });
});
