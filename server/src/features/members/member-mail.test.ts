import { describe, expect, it } from 'vitest';
import { composeInvitationMail, composePasswordResetMail } from './member-mail.js';

describe('member mails', () => {
  it('an invitation names the inviter, organisation, role and expiry in both parts, escaping HTML', () => {
    const url = 'https://parley.example/console/invitation#abc';
    const mail = composeInvitationMail({ inviter: 'Olu <b>', organisationName: 'Shop & Co', role: 'ADMIN', url, expiresAt: Date.UTC(2026, 11, 4, 12) });
    expect(mail.subject).toBe('[Parley] Olu <b> invites you to Shop & Co');
    expect(mail.text).toContain('Olu <b> invites you to join the Parley organisation "Shop & Co" as ADMIN');
    expect(mail.text).toContain('Fri, 04 Dec 2026 12:00:00 GMT');
    expect(mail.text).toContain(`Accept the invitation: ${url}`);
    expect(mail.html).toContain('Olu &#60;b&#62; invites you');
    expect(mail.html).toContain('Shop &#38; Co');
    expect(mail.html).not.toContain('<b>');
    expect(mail.html).toContain(`<a href="${url}">Accept the invitation</a>`);
  });

  it('a reset mail carries the link and its hour', () => {
    const url = 'https://parley.example/console/password-reset#abc';
    const mail = composePasswordResetMail({ organisationName: 'Shop', url, expiresAt: Date.UTC(2026, 10, 27, 17) });
    expect(mail.subject).toBe('[Parley] Reset your password');
    expect(mail.text).toContain('until Fri, 27 Nov 2026 17:00:00 GMT');
    expect(mail.text).toContain(`Choose a new password: ${url}`);
    expect(mail.html).toContain(`<a href="${url}">Choose a new password</a>`);
  });
});
