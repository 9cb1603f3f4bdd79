import { ConsoleHarness, PHONE } from '../harnesses/console.harness.js';
import { expect, test } from '../fixtures/test.js';

test.use({ bypassCSP: true });

// The e2e service has no SMTP_URL: the sign-in form keeps pointing to the keys CLI, and a reset
// link that is not (or no longer) valid is refused with a way forward. The mailed flow itself is
// covered by server/src/features/members/password-reset.int.test.ts with a loopback SMTP server.
test('a password reset link page: incomplete and unknown links are refused clearly, on desktop and phone', async ({ page }) => {
  const person = new ConsoleHarness(page);
  await page.goto('/console/password-reset#too-short');
  await expect(page.getByRole('heading', { level: 1, name: 'Choose a new password' })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveText('This link is incomplete. Copy the whole link from the mail.');

  await page.goto(`/console/password-reset#${'A'.repeat(43)}`);
  await page.reload();
  await page.getByLabel('New password').fill('a long enough passphrase');
  await person.expectNoAxeViolations();
  await person.screenshot('console-password-reset');
  await page.getByRole('button', { name: 'Set password' }).click();
  await expect(page.getByRole('alert')).toHaveText('This link was used already or has expired. Ask for a new one from the sign-in page.');
  await person.expectNoAxeViolations();
  await page.setViewportSize(PHONE);
  await person.screenshot('console-password-reset-phone');
  await page.getByRole('link', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in to Parley' })).toBeVisible();
});
