import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { AnswerMeta, ChatMessage, FeedbackRating } from '@parley/shared';
import type { EmbedApi, SavedConversation } from '../api/embed-client.js';
import { EmbedError } from '../api/embed-error.js';
import { storage } from '../internal/storage.js';

/**
 * A message as the widget keeps it: the contract's text and sender, plus what only this browser
 * needs to redraw it after a reload (kept in localStorage, never sent to the server): the answer's
 * sources and flags, whether it was cut off, and the visitor's 👍/👎.
 */
export interface WidgetMessage extends ChatMessage {
  meta?: Partial<AnswerMeta>;
  interrupted?: boolean;
  rating?: FeedbackRating;
  /** A team member's reply (live handoff): their name, or the neutral label. */
  by?: string;
}

/** What survives a reload: the visitor's messages and the saved conversation's secret. */
interface StoredConversation {
  messages: WidgetMessage[];
  conversationId?: string;
  visitorToken?: string;
  /** The visitor left a lead or declined the offer: it is not offered again in this conversation. */
  leadOfferDone?: boolean;
  /** The team was asked for: the last live event received (0 before the first), to reconnect after a reload. */
  live?: number;
}

export type ChatStatus = 'idle' | 'streaming' | 'error';

// The chat endpoints take at most 100 messages (decisions.md § Chat and streaming).
const MAX_CONTEXT = 100;

/**
 * The visitor's conversation: asks with streaming, stops, retries, keeps the messages in
 * localStorage and saves them to the service after every answer.
 */
export class ChatController implements ReactiveController {
  messages: WidgetMessage[] = [];
  /** The visitor left a lead or declined the offer in this conversation. */
  leadOfferDone = false;
  status: ChatStatus = 'idle';
  /** The last failure, shown with a retry button. */
  error: EmbedError | undefined;
  /** See {@link StoredConversation.live}. */
  live: number | undefined;
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
    this.leadOfferDone = valid ? stored.leadOfferDone === true : false;
    this.live = valid ? stored.live : undefined;
    this.host.requestUpdate();
  }

  /** The saved conversation's id, once the first answer is saved (leads are linked to it). */
  get savedConversationId(): string | undefined {
    return this.conversationId;
  }

  /** Marks the lead offer as answered (a lead left, or declined). */
  closeLeadOffer(): void {
    this.leadOfferDone = true;
    this.persist();
    this.host.requestUpdate();
  }

  /**
   * Rates the answer at `index` 👍 or 👎 (with an optional comment), once the conversation is saved.
   * @throws EmbedError when the service refuses it.
   */
  async rate(index: number, rating: FeedbackRating, comment?: string): Promise<void> {
    const message = this.messages[index];
    if (!message || message.fromUser) return;
    message.rating = rating;
    this.messages = [...this.messages];
    this.persist();
    this.host.requestUpdate();
    await this.settled();
    const saved = this.saved();
    if (!saved) throw new EmbedError(0, ['the conversation is not saved yet']);
    await this.api().giveFeedback({ ...saved, messageIndex: index, rating, ...(comment ? { comment } : {}) });
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
    this.leadOfferDone = false;
    this.live = undefined;
    this.status = 'idle';
    this.error = undefined;
    storage.remove(this.storageKey());
    this.host.requestUpdate();
  }

  private async answer(): Promise<void> {
    const abort = (this.abort = new AbortController());
    const context = this.messages.slice(-MAX_CONTEXT).map(({ text, fromUser }) => ({ text, fromUser }));
    const reply: WidgetMessage = { text: '', fromUser: false };
    this.messages = [...this.messages, reply];
    this.status = 'streaming';
    this.error = undefined;
    this.persist();
    // Show the question and the typing indicator now, not when the first words arrive.
    this.host.requestUpdate();
    let held = false;
    try {
      // A saved conversation is named, so the chatbot's limits for all visitors spare it.
      const saved = this.saved();
      const meta = await this.api().streamChat(context, (delta) => {
        reply.text += delta;
        this.messages = [...this.messages];
        this.host.requestUpdate();
      }, abort.signal, saved);
      if (meta && (meta.sources?.length || meta.refused || meta.handoff)) reply.meta = meta;
      held = !!(meta as { state?: string } | undefined)?.state;
      this.status = 'idle';
    } catch (err) {
      this.status = 'error';
      this.error = err instanceof EmbedError ? err : new EmbedError(0, []);
      this.onError(this.error);
    }
    // Stopped or cut off after some words: the text stays, visibly marked as incomplete.
    if (reply.text && (abort.signal.aborted || this.status === 'error')) reply.interrupted = true;
    if (!reply.text) this.messages = this.messages.filter((m) => m !== reply);
    this.abort = undefined;
    this.persist();
    this.host.requestUpdate();
    // While the team has the conversation the service keeps its messages: nothing to save.
    if (this.status === 'idle' && !held) void this.save();
  }

  private persist(): void {
    storage.write(this.storageKey(), {
      messages: this.messages.filter((m) => m.fromUser || m.text), conversationId: this.conversationId, visitorToken: this.visitorToken,
      ...(this.leadOfferDone ? { leadOfferDone: true } : {}), live: this.live,
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

  /** The visitor's saved conversation (its id and the token that proves it is theirs), once saved. */
  private saved(): SavedConversation | undefined {
    return this.conversationId && this.visitorToken ? { conversationId: this.conversationId, visitorToken: this.visitorToken } : undefined;
  }

  private async saveOnce(): Promise<void> {
    const saved = await this.api().saveConversation({
      messages: this.messages.map(({ text, fromUser }) => ({ text, fromUser })),
      ...this.saved(),
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
