import nodemailer, { type Transporter } from 'nodemailer';
import type { NotificationEventType } from '@parley/shared';

/** A composed mail: a plain-text and an HTML part with the same content. */
export interface ComposedMail { subject: string; text: string; html: string }

/** What a mail is about: an event of the organisation, or an endpoint the service disabled. */
export type MailSubject =
  | { type: NotificationEventType; data: Record<string, unknown>; chatbotName?: string }
  | { type: 'webhook.disabled'; data: { url: string; reason: string } };

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const str = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** Lines of "label: value" that a mail shows, from fields the API returns (never a secret or a token). */
function detailsOf(subject: MailSubject): [string, string][] {
  const d = subject.data as Record<string, unknown>;
  const pairs: [string, string | undefined][] = (() => {
    switch (subject.type) {
      case 'lead.created': return [['Name', str(d.name)], ['E-mail', str(d.email)], ['Phone', str(d.phone)], ['Page', str(d.pageUrl)]];
      case 'feedback.created': return [['Rating', d.rating === 'up' ? '👍' : '👎'], ['Comment', str(d.comment)], ['Answer', str(d.answer)]];
      case 'resource.processed': return [['Resource', str(d.fileName)], ['Status', str(d.aiProcessingStatus)], ['Reason', str(d.failureReason)]];
      case 'conversation.handoff_requested':
      case 'conversation.waiting_message': return [['Message', str(d.message)]];
      case 'webhook.disabled': return [['Endpoint', str(d.url)], ['Last error', str(d.reason)]];
    }
  })();
  return pairs.filter((pair): pair is [string, string] => pair[1] !== undefined && pair[1] !== '');
}

function headlineOf(subject: MailSubject): { subject: string; intro: string } {
  const bot = 'chatbotName' in subject && subject.chatbotName ? ` (${subject.chatbotName})` : '';
  switch (subject.type) {
    case 'lead.created': return { subject: `New lead${bot}`, intro: `A visitor left their contact details${bot}.` };
    case 'feedback.created': return { subject: `New feedback on an answer${bot}`, intro: `A visitor rated an answer${bot}.` };
    case 'resource.processed': {
      const done = subject.data.aiProcessingStatus === 'DONE';
      return { subject: done ? 'Knowledge processed' : 'Knowledge could not be processed', intro: done ? 'A resource is ready to answer from.' : 'A resource failed to process.' };
    }
    case 'conversation.handoff_requested': return { subject: `A visitor asks for a person${bot}`, intro: `A visitor asked to talk to someone from the team${bot}.` };
    case 'conversation.waiting_message': return { subject: `A visitor is waiting${bot}`, intro: `A visitor waiting for a person wrote again${bot}.` };
    case 'webhook.disabled': return { subject: 'A webhook endpoint was disabled', intro: 'A webhook endpoint failed for a day and was disabled. Turn it on again in the console once it works.' };
  }
}

/** Where in the console the mail's subject is seen. */
function linkOf(subject: MailSubject, publicUrl: string): string {
  const d = subject.data as Record<string, unknown>;
  const chatbot = str(d.chatbotId);
  const query = (params: Record<string, string | undefined>) => {
    const search = new URLSearchParams(Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== undefined)).toString();
    return search ? `?${search}` : '';
  };
  switch (subject.type) {
    case 'lead.created': return `${publicUrl}/console/leads${query({ chatbot })}`;
    case 'resource.processed': return `${publicUrl}/console/knowledge${str(d.id) ? `/${str(d.id)}` : ''}`;
    case 'webhook.disabled': return `${publicUrl}/console/settings/notifications`;
    default: return `${publicUrl}/console/conversations${query({ chatbot, conversation: str(d.conversationId) })}`;
  }
}

/** The mail about an event: plain text and HTML, a link into the console. */
export function composeMail(subject: MailSubject, publicUrl: string): ComposedMail {
  const { subject: title, intro } = headlineOf(subject);
  const details = detailsOf(subject);
  const link = linkOf(subject, publicUrl);
  const text = [intro, '', ...details.map(([label, value]) => `${label}: ${value}`), '', `Open the console: ${link}`, '',
    'You get this mail because this address is a notification address of your Parley organisation (Settings → Notifications).'].join('\n');
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#1f2328">
<p>${escapeHtml(intro)}</p>
${details.length ? `<table>${details.map(([label, value]) => `<tr><th align="left" style="padding-right:1em">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`).join('')}</table>` : ''}
<p><a href="${escapeHtml(link)}">Open the console</a></p>
<p style="color:#59636e;font-size:small">You get this mail because this address is a notification address of your Parley organisation (Settings → Notifications).</p>
</body></html>`;
  return { subject: `[Parley] ${title}`, text, html };
}

/** Sends mail through the operator's SMTP server (`SMTP_URL`). */
export class Mailer {
  private readonly transport: Transporter;

  constructor(smtpUrl: string, private readonly from: string) {
    this.transport = nodemailer.createTransport(smtpUrl);
  }

  async send(to: readonly string[], mail: ComposedMail): Promise<void> {
    await this.transport.sendMail({ from: this.from, to: [...to], subject: mail.subject, text: mail.text, html: mail.html });
  }

  close(): void {
    this.transport.close();
  }
}
