import type { Role } from '@parley/shared';
import { escapeHtml, type ComposedMail } from '../notifications/notification-mail.js';

const ROLE_WORDS: Record<Role, string> = {
  OWNER: 'OWNER (everything, members and API keys included)',
  ADMIN: 'ADMIN (everything but members and API keys)',
  AGENT: 'AGENT (the inbox, conversations, leads and the playground)',
};

const when = (ms: number) => new Date(ms).toUTCString();

function compose(title: string, paragraphs: string[], link: { label: string; url: string }, footer: string): ComposedMail {
  const text = [...paragraphs.flatMap((p) => [p, '']), `${link.label}: ${link.url}`, '', footer].join('\n');
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#1f2328">
${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a></p>
<p style="color:#59636e;font-size:small">${escapeHtml(footer)}</p>
</body></html>`;
  return { subject: `[Parley] ${title}`, text, html };
}

/** The mail that carries an invitation's link (the link is the invitation; nothing else secret). */
export function composeInvitationMail(input: { inviter: string; organisationName: string; role: Role; url: string; expiresAt: number }): ComposedMail {
  return compose(
    `${input.inviter} invites you to ${input.organisationName}`,
    [
      `${input.inviter} invites you to join the Parley organisation "${input.organisationName}" as ${ROLE_WORDS[input.role]}.`,
      `Open the link to choose your name and password. It works once, until ${when(input.expiresAt)}.`,
    ],
    { label: 'Accept the invitation', url: input.url },
    'If you did not expect this invitation, ignore this mail: nothing happens unless the link is opened and a password set.',
  );
}

/** The mail that carries a password reset link. */
export function composePasswordResetMail(input: { organisationName: string; url: string; expiresAt: number }): ComposedMail {
  return compose(
    'Reset your password',
    [
      `Someone asked to reset the password of your account in the Parley organisation "${input.organisationName}".`,
      `Open the link to choose a new password. It works once, until ${when(input.expiresAt)}; setting a password signs your account out everywhere.`,
    ],
    { label: 'Choose a new password', url: input.url },
    'If you did not ask for this, ignore this mail: your password stays as it is.',
  );
}
