import type {
  AnswerMeta, ChatMessage, EmbedConfig, EmbedConversation, EmbedFeedbackBody, EmbedSession, Feedback, Lead, LeadCapture,
} from '@parley/shared';
import type { ConversationSaveInput, EmbedApi, SavedConversation } from '../../api/embed-client.js';
import { EmbedError } from '../../api/embed-error.js';

/** A chatbot config with the service's defaults; override what a test needs. */
export function testConfig(overrides: Partial<EmbedConfig> = {}): EmbedConfig {
  return {
    id: 'aaaaaaaaaaaaaaaaaaaaaaaa', name: 'Test bot', welcomeMessage: 'Hi! How can I help you today?', accessLevel: 'PUBLIC',
    chatbotMessageColor: '#F6F7F8', userMessageColor: '#E0EEFA', conversationBackgroundColor: '#FFFFFF',
    secondaryBackgroundColor: '#F6F7F8', showBadge: false, enabledEmoji: false, bubbleAlignment: 'right',
    bubblePopupMessages: [], ...overrides,
  };
}

/** What the fake streams for the next question: text pieces, then an end or an error. */
export interface FakeAnswer {
  deltas: string[];
  error?: EmbedError;
  /** Resolves when the fake may finish (lets a test look at a half-streamed answer). */
  hold?: Promise<void>;
  /** Resolves when the first piece may arrive (lets a test look at the typing indicator). */
  before?: Promise<void>;
  /** The `streamEnd` data: sources, refused, handoff. */
  meta?: Partial<AnswerMeta>;
}

/**
 * An in-memory EmbedApi for component tests (house-style.md § Testing: embed-client is faked).
 * It records every call so tests can assert what the widget sent.
 */
export class FakeEmbedApi implements EmbedApi {
  token: string | undefined;
  readonly chatbotId: string;
  config: EmbedConfig;
  configError: EmbedError | undefined;
  password = 'Secret-123';
  answers: FakeAnswer[] = [];
  readonly asked: ChatMessage[][] = [];
  /** The saved conversation each question named, if any. */
  readonly askedIn: (SavedConversation | undefined)[] = [];
  readonly saves: ConversationSaveInput[] = [];
  readonly leads: LeadCapture[] = [];
  readonly feedback: EmbedFeedbackBody[] = [];
  leadError: EmbedError | undefined;
  /** Errors the next saves throw, in order. */
  saveErrors: EmbedError[] = [];
  private savedCount = 0;

  constructor(config: Partial<EmbedConfig> = {}) {
    this.config = testConfig(config);
    this.chatbotId = this.config.id;
  }

  async getConfig(): Promise<EmbedConfig> {
    if (this.configError) throw this.configError;
    return this.config;
  }

  async createSession(password: string): Promise<EmbedSession> {
    if (password !== this.password) throw new EmbedError(401, ['the password is wrong']);
    return { token: 'session-token', expiresAt: Date.now() + 60_000 };
  }

  async streamChat(
    conversation: ChatMessage[], onDelta: (text: string) => void, signal: AbortSignal, saved?: SavedConversation,
  ): Promise<Partial<AnswerMeta> | undefined> {
    this.asked.push(structuredClone(conversation));
    this.askedIn.push(saved && { ...saved });
    if (this.config.accessLevel === 'PRIVATE' && this.token !== 'session-token') throw new EmbedError(401, ['no session']);
    const answer = this.answers.shift() ?? { deltas: ['Hello ', 'there.'] };
    if (answer.before) await answer.before;
    for (const [i, delta] of answer.deltas.entries()) {
      if (signal.aborted) return undefined;
      onDelta(delta);
      if (i === 0 && answer.hold) await Promise.race([answer.hold, new Promise((r) => signal.addEventListener('abort', r))]);
      await new Promise((r) => setTimeout(r, 1));
    }
    if (answer.error) throw answer.error;
    return answer.meta;
  }

  async saveConversation(input: ConversationSaveInput): Promise<EmbedConversation> {
    this.saves.push(structuredClone(input));
    const error = this.saveErrors.shift();
    if (error) throw error;
    this.savedCount++;
    return {
      id: input.conversationId ?? `${this.savedCount}`.padStart(24, 'b'), chatbot: this.chatbotId, createdAt: 1, messages: input.messages,
      source: { type: 'website' }, visitorToken: input.visitorToken ?? 'visitor-token',
    };
  }

  async captureLead(lead: LeadCapture): Promise<Lead> {
    if (this.leadError) throw this.leadError;
    this.leads.push(lead);
    return { createdAt: 1, ...lead };
  }

  async giveFeedback(body: EmbedFeedbackBody): Promise<Feedback> {
    this.feedback.push(body);
    return { conversationId: body.conversationId, messageIndex: body.messageIndex, rating: body.rating, createdAt: 1 };
  }
}

/** Waits until `check` passes (for async UI updates), failing after `timeoutMs`. */
export async function until(check: () => boolean, timeoutMs = 2000): Promise<void> {
  const start = performance.now();
  while (!check()) {
    if (performance.now() - start > timeoutMs) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Follows a path of selectors through nested open shadow roots. */
export function deep<T extends Element = HTMLElement>(root: Element, ...selectors: string[]): T {
  let current: Element | null | undefined = root;
  for (const selector of selectors) {
    current = (current?.shadowRoot ?? current)?.querySelector(selector);
    if (!current) throw new Error(`no element at ${selectors.join(' >> ')}`);
  }
  return current as T;
}

/** Like {@link deep}, but `undefined` when absent. */
export function maybeDeep(root: Element, ...selectors: string[]): Element | undefined {
  try {
    return deep(root, ...selectors);
  } catch {
    return undefined;
  }
}

/** Waits for running finite animations (fade-ins would otherwise fail axe's contrast checks). */
export async function animationsDone(): Promise<void> {
  // A frame first, so animations started by the last render exist; then every finite animation,
  // inside open shadow roots too (document.getAnimations() does not reach into them).
  await new Promise((resolve) => requestAnimationFrame(resolve));
  const animations: Animation[] = [];
  const collect = (root: Document | ShadowRoot) => {
    animations.push(...root.getAnimations());
    for (const element of root.querySelectorAll('*')) if (element.shadowRoot) collect(element.shadowRoot);
  };
  collect(document);
  const finite = animations.filter((a) => a.effect?.getComputedTiming().iterations !== Infinity);
  await Promise.all(finite.map((a) => a.finished.catch(() => undefined)));
}
