// The widget's public events (house-style.md § Naming: `cw-*` events, one class each). They
// bubble and cross the shadow boundary so a site owner can listen on <chatbot-widget>.

const init = { bubbles: true, composed: true };

/** `cw-open-change`: the chat window opened or closed. */
export class OpenChangeEvent extends Event {
  constructor(readonly open: boolean) {
    super('cw-open-change', init);
  }
}

/** `cw-message-sent`: the visitor sent a message. */
export class MessageSentEvent extends Event {
  constructor(readonly text: string) {
    super('cw-message-sent', init);
  }
}

/** `cw-lead-submitted`: the visitor left contact details and the service stored them. */
export class LeadSubmittedEvent extends Event {
  constructor(readonly lead: { name?: string; email?: string; phone?: string }) {
    super('cw-lead-submitted', init);
  }
}

/** `cw-error`: something failed; the widget shows it as UI state and reports it here. */
export class WidgetErrorEvent extends Event {
  constructor(readonly status: number, readonly messages: readonly string[]) {
    super('cw-error', init);
  }
}

declare global {
  interface HTMLElementEventMap {
    'cw-open-change': OpenChangeEvent;
    'cw-message-sent': MessageSentEvent;
    'cw-lead-submitted': LeadSubmittedEvent;
    'cw-error': WidgetErrorEvent;
  }
}
