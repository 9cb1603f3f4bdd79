import type { ConversationState, LiveEvent } from '@parley/shared';
import type { LiveStrings } from '../i18n/en.js';

/**
 * Live handoff in the widget (issue 35), loaded only when a visitor asks for a person or comes
 * back to a conversation the team joined, so widget.js stays within its size budget. It imports
 * nothing at run time: the chat panel passes itself in (see {@link startLive}).
 */
export interface LiveHandoffOptions {
  /** `https://service/v1/embed/{chatbotId}/`. */
  base: string;
  /** The PRIVATE chatbot's session token. */
  token: string | undefined;
  /** The visitor's saved conversation (saved first when it was not). */
  saved: () => Promise<{ conversationId: string; visitorToken: string } | undefined>;
  /** Ask for a person now ("Talk to a person", or the bot saw the request); false: only listen again after a reload. */
  ask: boolean;
  /** The last event received, kept across reloads. */
  lastEventId: () => number | undefined;
  setLastEventId: (id: number) => void;
  /** A team member's message (`name` null: a member without one). */
  onMessage: (text: string, name: string | null) => void;
  onState: (state: ConversationState) => void;
  /** Nobody can answer now: the panel offers the lead form instead. */
  onUnavailable: () => void;
  signal: AbortSignal;
}

/** English for the live texts (the language files carry their own). */
const LIVE_EN: LiveStrings = {
  handoffWaiting: 'Someone from the team will be with you shortly.',
  handoffClosed: 'The team closed this conversation.',
  team: 'Team',
};

/** What of the chat panel and its conversation the live module uses (their run-time shape). */
interface PanelLike {
  api: { apiBase: string; chatbotId: string; token: string | undefined };
  notice: string | undefined;
  liveAbort: AbortController | undefined;
  setView(view: 'lead'): void;
  chat: {
    live: number | undefined;
    messages: { text: string; fromUser: boolean; by?: string }[];
    closeLeadOffer(): void;
    persist(): void;
    settled(): Promise<void>;
    save(): Promise<void>;
    saved(): { conversationId: string; visitorToken: string } | undefined;
    host: { requestUpdate(): void };
  };
}

/**
 * Wires live handoff to the panel: asks for a person (`ask`), follows the conversation's events,
 * shows the team's replies with their name and the state as a notice. Nobody available: the lead
 * form opens (`lead`), else the panel's inline lead offer stays.
 */
export function startLive(panelElement: unknown, strings: Partial<LiveStrings>, ask: boolean, lead: boolean): void {
  const panel = panelElement as PanelLike;
  const { chat } = panel;
  const text = (key: keyof LiveStrings) => strings[key] ?? LIVE_EN[key];
  panel.liveAbort?.abort();
  const abort = (panel.liveAbort = new AbortController());
  const setLive = (id: number) => {
    chat.live = id;
    chat.persist();
  };
  void startLiveHandoff({
    base: `${panel.api.apiBase}/v1/embed/${panel.api.chatbotId}/`, token: panel.api.token, ask, signal: abort.signal,
    saved: async () => {
      await chat.settled();
      if (!chat.saved()) await chat.save();
      return chat.saved();
    },
    lastEventId: () => chat.live,
    setLastEventId: setLive,
    onMessage: (message, name) => {
      chat.messages = [...chat.messages, { text: message, fromUser: false, by: name ?? text('team') }];
      chat.persist();
      chat.host.requestUpdate();
    },
    onState: (state) => {
      setLive(chat.live ?? 0);
      panel.notice = state === 'WAITING' ? text('handoffWaiting') : state === 'CLOSED' ? text('handoffClosed') : undefined;
      if (state === 'WAITING') chat.closeLeadOffer();
    },
    onUnavailable: () => { if (lead) panel.setView('lead'); },
  });
}

const wait = (ms: number, signal: AbortSignal) => new Promise<void>((resolve) => {
  const timer = setTimeout(resolve, ms);
  signal.addEventListener('abort', () => { clearTimeout(timer); resolve(); }, { once: true });
});

/** Asks for a person when told to, then follows the conversation's event stream, reconnecting with `Last-Event-ID`. */
export async function startLiveHandoff(o: LiveHandoffOptions): Promise<void> {
  const saved = await o.saved();
  if (!saved || o.signal.aborted) return;
  const auth: Record<string, string> = o.token ? { authorization: `Bearer ${o.token}` } : {};
  if (o.ask) {
    let outcome: { state?: string; available?: boolean } | undefined;
    try {
      const res = await fetch(`${o.base}handoff`, {
        method: 'POST', credentials: 'omit', headers: { 'content-type': 'application/json', ...auth }, body: JSON.stringify(saved), signal: o.signal,
      });
      outcome = res.ok ? await res.json() as typeof outcome : undefined;
    } catch {
      outcome = undefined;
    }
    if (!outcome?.available) {
      o.onUnavailable();
      return;
    }
    if (outcome.state === 'WAITING' || outcome.state === 'HUMAN') o.onState(outcome.state);
  }
  let delay = 1000;
  while (!o.signal.aborted) {
    const last = o.lastEventId();
    try {
      const res = await fetch(`${o.base}conversation/${saved.conversationId}/events`, {
        credentials: 'omit', signal: o.signal,
        // From the start of the conversation's events the first time, so nothing sent before is missed.
        headers: { ...auth, 'x-visitor-token': saved.visitorToken, 'last-event-id': String(last ?? 0) },
      });
      // The conversation is gone (deleted, or a new one started): nothing more to follow.
      if (res.status === 404 || res.status === 401 || res.status === 403) return;
      if (res.ok && res.body) {
        delay = 1000;
        await read(res.body, o);
      }
    } catch {
      // A dropped connection: reconnect below.
    }
    await wait(delay, o.signal);
    delay = Math.min(delay * 2, 30_000);
  }
}

async function read(body: ReadableStream<Uint8Array>, o: LiveHandoffOptions): Promise<void> {
  const reader = body.pipeThrough(new TextDecoderStream() as ReadableWritablePair<string, Uint8Array>).getReader();
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    buffer += value.replace(/\r\n?/g, '\n');
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const id = /^id: ?(\d+)$/m.exec(frame)?.[1];
      const data = /^data: ?(.*)$/m.exec(frame)?.[1];
      if (id === undefined || data === undefined) continue;
      const event = JSON.parse(data) as LiveEvent;
      o.setLastEventId(Number(id));
      if (event.type === 'state') o.onState(event.state);
      else if (event.message.sender?.type === 'member') o.onMessage(event.message.text, event.message.sender.name ?? null);
    }
  }
}
