import { describe, expect, it } from 'vitest';
import { analysisWindow, WINDOW_CHARS, WINDOW_MESSAGE_CHARS, WINDOW_MESSAGES } from './analysis-window.js';

const message = (text: string, fromUser = true) => ({ text, fromUser });

describe('analysisWindow', () => {
  it('keeps a short conversation as it is', () => {
    const messages = [message('Do you open on Sundays?'), message('Yes, from 10 to 4.', false)];
    expect(analysisWindow(messages)).toEqual(messages);
  });

  it('reads the latest messages, in order, up to its message count', () => {
    const messages = Array.from({ length: WINDOW_MESSAGES + 10 }, (_, i) => message(`message ${i}`, i % 2 === 0));
    const window = analysisWindow(messages);
    expect(window).toHaveLength(WINDOW_MESSAGES);
    expect(window.at(-1)).toEqual(messages.at(-1));
    expect(window[0]).toEqual(messages[10]);
  });

  it('cuts each message and the whole to their bounds, however long the conversation', () => {
    const messages = Array.from({ length: 1000 }, (_, i) => message('a'.repeat(32_000), i % 2 === 0));
    const window = analysisWindow(messages);
    expect(window.every((m) => m.text.length <= WINDOW_MESSAGE_CHARS)).toBe(true);
    expect(window.reduce((sum, m) => sum + m.text.length, 0)).toBe(WINDOW_CHARS);
  });
});
