import { EventDataDecoder } from '@parley/shared';
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

/** A conversation the visitor saved: its id and the secret that proves it is the visitor's. */
export interface SavedConversation {
  conversationId: string;
  visitorToken: string;
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
   * `saved` names the visitor's saved conversation: the chatbot's limits for all visitors spare it.
   */
  streamChat(
    conversation: ChatMessage[], onDelta: (text: string) => void, signal: AbortSignal, saved?: SavedConversation,
  ): Promise<Partial<AnswerMeta> | undefined>;
  saveConversation(input: ConversationSaveInput): Promise<EmbedConversation>;
  captureLead(lead: LeadCapture): Promise<Lead>;
  /** Rates an answer of the visitor's saved conversation (extension). */
  giveFeedback(body: EmbedFeedbackBody): Promise<Feedback>;
}

async function errorOf(response: Response): Promise<EmbedError> {
  const body = parseErrorBody(await response.json().catch(() => undefined));
  return new EmbedError(response.status, body?.message ?? []);
}

/** The real client: fetch for JSON calls and for the SSE stream, framed by shared's EventDataDecoder. */
export class EmbedClient implements EmbedApi {
  /** The PRIVATE chatbot's session token, sent as `Authorization: Bearer`. */
  token: string | undefined;

  constructor(readonly apiBase: string, readonly chatbotId: string) {}

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

  async streamChat(
    conversation: ChatMessage[], onDelta: (text: string) => void, signal: AbortSignal, saved?: SavedConversation,
  ): Promise<Partial<AnswerMeta> | undefined> {
    let response: Response;
    try {
      response = await fetch(this.url('chat-stream'), {
        method: 'POST', credentials: 'omit', headers: this.headers(), body: JSON.stringify({ conversation, ...saved }), signal,
      });
    } catch (err) {
      if (signal.aborted) return undefined;
      throw err instanceof EmbedError ? err : new EmbedError(0, ['network error']);
    }
    if (!response.ok) throw await errorOf(response);
    if (!response.body || !response.headers.get('content-type')?.startsWith('text/event-stream')) {
      throw new EmbedError(-1, ['unexpected answer from the server']);
    }
    // The shared SSE framing; never a retry, since a chat request costs a message of the owner's quota.
    const frames = new EventDataDecoder();
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    try {
      for (;;) {
        let chunk: ReadableStreamReadResult<string>;
        try {
          chunk = await reader.read();
        } catch {
          if (signal.aborted) return undefined;
          throw new EmbedError(0, ['network error']);
        }
        if (chunk.done) break;
        for (const data of frames.push(chunk.value)) {
          let event;
          try { event = parseStreamingEvent(JSON.parse(data)); } catch { event = undefined; }
          if (!event) throw new EmbedError(-1, ['unexpected answer from the server']);
          if (event.type === 'partialResponse') onDelta(event.data.text);
          else if (event.type === 'error') throw new EmbedError(event.statusCode, [event.message]);
          else return event.data;
        }
      }
    } finally {
      reader.releaseLock();
    }
    if (signal.aborted) return undefined;
    throw new EmbedError(0, ['the answer was cut off']);
  }

}
