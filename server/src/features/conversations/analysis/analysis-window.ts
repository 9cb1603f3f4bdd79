import type { ChatMessage } from '@parley/shared';

/**
 * The part of a conversation its analysis reads: the latest messages, each cut to
 * {@link WINDOW_MESSAGE_CHARS}, up to {@link WINDOW_MESSAGES} of them and {@link WINDOW_CHARS} in
 * all. A conversation may hold 400,000 characters (`MAX_CONVERSATION_CHARS`), grown by anonymous
 * visitors; the analysis runs again after each save, so its cost must not grow with the
 * conversation. What a summary, key points and an intent need is in the latest turns.
 */
export const WINDOW_MESSAGES = 40;
export const WINDOW_MESSAGE_CHARS = 2_000;
export const WINDOW_CHARS = 12_000;

export function analysisWindow(messages: readonly ChatMessage[]): ChatMessage[] {
  const window: ChatMessage[] = [];
  let chars = 0;
  for (let i = messages.length - 1; i >= 0 && window.length < WINDOW_MESSAGES && chars < WINDOW_CHARS; i--) {
    const message = messages[i]!;
    const text = message.text.length > WINDOW_MESSAGE_CHARS ? message.text.slice(0, WINDOW_MESSAGE_CHARS) : message.text;
    const room = WINDOW_CHARS - chars;
    window.push({ ...message, text: text.length > room ? text.slice(0, room) : text });
    chars += Math.min(text.length, room);
  }
  return window.reverse();
}
