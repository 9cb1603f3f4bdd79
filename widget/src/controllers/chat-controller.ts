import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { ChatMessage } from '@parley/shared';
import type { EmbedApi } from '../api/embed-client.js';
import { EmbedError } from '../api/embed-error.js';
import { storage } from '../internal/storage.js';

/** What survives a reload: the visitor's messages and the saved conversation's secret. */
interface StoredConversation {
  messages: ChatMessage[];
  conversationId?: string;
  visitorToken?: string;
}

export type ChatStatus = 'idle' | 'streaming' | 'error';

// The chat endpoints take at most 100 messages (decisions.md § Chat and streaming).
const MAX_CONTEXT = 100;

/**
 * The visitor's conversation: asks with streaming, stops, retries, keeps the messages in
 * localStorage and saves them to the service after every answer.
 */
export class ChatController implements ReactiveController {
  messages: ChatMessage[] = [];
  status: ChatStatus = 'idle';
  /** The last failure, shown with a retry button. */
  error: EmbedError | undefined;
  private abort: AbortController | undefined;
  private conversationId: string | undefined;
  private visitorToken: string | undefined;
  private saving: Promise<void> = Promise.resolve();

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly api: () => EmbedApi,
    private readonly storageKey: () => string,
    private readonly onError: (error: EmbedError) => void,
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    window.addEventListener('storage', this.onStorage);
  }

  hostDisconnected(): void {
    window.removeEventListener('storage', this.onStorage);
    this.abort?.abort();
  }

  /** Another tab of the same site saved the conversation: show it here too (unless answering). */
  private readonly onStorage = (event: StorageEvent): void => {
    if (event.key === this.storageKey() && this.status !== 'streaming') this.restore();
  };

  /** Loads the stored conversation of this chatbot (call when the chatbot id is known). */
  restore(): void {
    const stored = storage.read<StoredConversation>(this.storageKey());
    const valid = stored && Array.isArray(stored.messages)
      && stored.messages.every((m) => typeof m?.text === 'string' && typeof m.fromUser === 'boolean');
    this.messages = valid ? stored.messages : [];
    this.conversationId = valid ? stored.conversationId : undefined;
    this.visitorToken = valid ? stored.visitorToken : undefined;
    this.host.requestUpdate();
  }

  /** Sends a question and streams the answer into a new message. */
  async ask(text: string): Promise<void> {
    const question = text.trim();
    if (!question || this.status === 'streaming') return;
    this.messages = [...this.messages, { text: question, fromUser: true }];
    await this.answer();
  }

  /** Asks again after a failure, with the same conversation. */
  async retry(): Promise<void> {
    if (this.status !== 'error' || this.messages.at(-1)?.fromUser !== true) return;
    await this.answer();
  }

  /** Stops the answer being streamed; the text received so far stays. */
  stop(): void {
    this.abort?.abort();
  }

  /** Forgets the conversation (a new chat). */
  reset(): void {
    this.stop();
    this.messages = [];
    this.conversationId = undefined;
    this.visitorToken = undefined;
    this.status = 'idle';
    this.error = undefined;
    storage.remove(this.storageKey());
    this.host.requestUpdate();
  }

  private async answer(): Promise<void> {
    const abort = (this.abort = new AbortController());
    const context = this.messages.slice(-MAX_CONTEXT);
    const reply: ChatMessage = { text: '', fromUser: false };
    this.messages = [...this.messages, reply];
    this.status = 'streaming';
    this.error = undefined;
    this.persist();
    // Show the question and the typing indicator now, not when the first words arrive.
    this.host.requestUpdate();
    try {
      await this.api().streamChat(context, (delta) => {
        reply.text += delta;
        this.messages = [...this.messages];
        this.host.requestUpdate();
      }, abort.signal);
      this.status = 'idle';
    } catch (err) {
      this.status = 'error';
      this.error = err instanceof EmbedError ? err : new EmbedError(0, []);
      this.onError(this.error);
    }
    if (!reply.text) this.messages = this.messages.filter((m) => m !== reply);
    this.abort = undefined;
    this.persist();
    this.host.requestUpdate();
    if (this.status === 'idle') void this.save();
  }

  private persist(): void {
    storage.write(this.storageKey(), {
      messages: this.messages.filter((m) => m.fromUser || m.text), conversationId: this.conversationId, visitorToken: this.visitorToken,
    } satisfies StoredConversation);
  }

  /** Saves the whole conversation; saves are serialised so the first one's id is reused. */
  private save(): Promise<void> {
    this.saving = this.saving.then(async () => {
      try {
        await this.saveOnce();
      } catch (err) {
        // The owner deleted the stored conversation (or its token no longer matches): start a new one.
        const stale = err instanceof EmbedError && err.status === 404 && this.conversationId !== undefined;
        if (stale) {
          this.conversationId = undefined;
          this.visitorToken = undefined;
        }
        try {
          if (stale) await this.saveOnce();
          else throw err;
        } catch (again) {
          // The visitor's chat goes on; a failed save is reported to the page, not shown as an error.
          if (again instanceof EmbedError) this.onError(again);
        }
      }
    });
    return this.saving;
  }

  private async saveOnce(): Promise<void> {
    const saved = await this.api().saveConversation({
      messages: this.messages,
      ...(this.conversationId && this.visitorToken ? { conversationId: this.conversationId, visitorToken: this.visitorToken } : {}),
    });
    this.conversationId = saved.id;
    this.visitorToken = saved.visitorToken;
    this.persist();
  }

  /** Resolves when pending saves are done (tests and page unload). */
  settled(): Promise<void> {
    return this.saving;
  }
}
