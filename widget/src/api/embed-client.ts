import { fetchEventSource } from '@microsoft/fetch-event-source';
import type {
  AnswerMeta, ChatMessage, EmbedConfig, EmbedConversation, EmbedFeedbackBody, EmbedSession, Feedback, Lead, LeadCapture,
} from '@parley/shared';
import { EmbedError } from './embed-error.js';
import {
  parseEmbedConfig, parseEmbedConversation, parseEmbedSession, parseErrorBody, parseFeedback, parseLead, parseStreamingEvent,
} from './validate.js';

/** Body of a conversation save, as the widget sends it. */
export interface ConversationSaveInput {
  messages: ChatMessage[];
  conversationId?: string;
  visitorToken?: string;
}

/** The transport of one chatbot's public embed endpoints (decisions.md § Public embed traffic). */
export interface EmbedApi {
  readonly chatbotId: string;
  /** The PRIVATE chatbot's session token, sent as `Authorization: Bearer`. */
  token: string | undefined;
  getConfig(): Promise<EmbedConfig>;
  createSession(password: string): Promise<EmbedSession>;
  /**
   * Streams an answer; `onDelta` gets each piece of text. Resolves at `streamEnd` with the
   * answer's sources and flags (an extension: absent from older servers), or on abort with nothing.
   */
  streamChat(conversation: ChatMessage[], onDelta: (text: string) => void, signal: AbortSignal): Promise<Partial<AnswerMeta> | undefined>;
  saveConversation(input: ConversationSaveInput): Promise<EmbedConversation>;
  captureLead(lead: LeadCapture): Promise<Lead>;
  /** Rates an answer of the visitor's saved conversation (extension). */
  giveFeedback(body: EmbedFeedbackBody): Promise<Feedback>;
}

async function errorOf(response: Response): Promise<EmbedError> {
  const body = parseErrorBody(await response.json().catch(() => undefined));
  return new EmbedError(response.status, body?.message ?? []);
}

/** The real client: fetch for JSON calls, `@microsoft/fetch-event-source` for the SSE stream. */
export class EmbedClient implements EmbedApi {
  /** The PRIVATE chatbot's session token, sent as `Authorization: Bearer`. */
  token: string | undefined;

  constructor(private readonly apiBase: string, readonly chatbotId: string) {}

  private url(path: string): string {
    return `${this.apiBase}/v1/embed/${encodeURIComponent(this.chatbotId)}/${path}`;
  }

  private headers(): Record<string, string> {
    return { 'content-type': 'application/json', ...(this.token ? { authorization: `Bearer ${this.token}` } : {}) };
  }

  private async call<T>(path: string, parse: (value: unknown) => T | undefined, body?: unknown): Promise<T> {
    let response: Response;
    try {
      response = await fetch(this.url(path), body === undefined
        ? { credentials: 'omit' }
        : { method: 'POST', credentials: 'omit', headers: this.headers(), body: JSON.stringify(body) });
    } catch {
      throw new EmbedError(0, ['network error']);
    }
    if (!response.ok) throw await errorOf(response);
    const value = parse(await response.json().catch(() => undefined));
    if (value === undefined) throw new EmbedError(-1, ['unexpected answer from the server']);
    return value;
  }

  async getConfig(): Promise<EmbedConfig> {
    const config = await this.call('config', parseEmbedConfig);
    // The avatar is served by the same service: load it from the origin this widget already
    // reaches, even when the server's PUBLIC_URL names another host (localhost by default).
    if (config.avatarUrl) {
      const avatar = new URL(config.avatarUrl, this.apiBase);
      config.avatarUrl = new URL(`${avatar.pathname}${avatar.search}`, this.apiBase).href;
    }
    return config;
  }

  createSession(password: string): Promise<EmbedSession> {
    return this.call('session', parseEmbedSession, { password });
  }

  saveConversation(input: ConversationSaveInput): Promise<EmbedConversation> {
    return this.call('conversation', parseEmbedConversation, input);
  }

  captureLead(lead: LeadCapture): Promise<Lead> {
    return this.call('leads', parseLead, lead);
  }

  giveFeedback(body: EmbedFeedbackBody): Promise<Feedback> {
    return this.call('feedback', parseFeedback, body);
  }

  async streamChat(conversation: ChatMessage[], onDelta: (text: string) => void, signal: AbortSignal): Promise<Partial<AnswerMeta> | undefined> {
    let ended = false;
    let meta: Partial<AnswerMeta> | undefined;
    await fetchEventSource(this.url('chat-stream'), {
      method: 'POST', credentials: 'omit', headers: this.headers(), body: JSON.stringify({ conversation }), signal,
      // The widget keeps streaming in a background tab; the library would otherwise restart it.
      openWhenHidden: true,
      async onopen(response) {
        if (response.ok && response.headers.get('content-type')?.startsWith('text/event-stream')) return;
        throw response.ok ? new EmbedError(-1, ['unexpected answer from the server']) : await errorOf(response);
      },
      onmessage(message) {
        if (!message.data) return;
        let event;
        try { event = parseStreamingEvent(JSON.parse(message.data)); } catch { event = undefined; }
        if (!event) throw new EmbedError(-1, ['unexpected answer from the server']);
        if (event.type === 'partialResponse') onDelta(event.data.text);
        else if (event.type === 'error') throw new EmbedError(event.statusCode, [event.message]);
        else {
          ended = true;
          meta = event.data;
        }
      },
      onclose() {
        if (!ended) throw new EmbedError(0, ['the answer was cut off']);
      },
      // Never retry: a chat request costs a message of the owner's quota.
      onerror(err) {
        throw err instanceof EmbedError ? err : new EmbedError(0, ['network error']);
      },
    });
    return meta;
  }
}
