import { ConsoleHarness } from '../harnesses/console.harness.js';
import { expect, test } from '../fixtures/test.js';

test.use({ bypassCSP: true });

test('signs in by keyboard alone, keeps no key in the page, and signs out so the old cookie is refused', async ({ page, request }) => {
  const owner = new ConsoleHarness(page);
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Sign in to Parley' })).toBeVisible();
  await owner.expectNoAxeViolations();
  await owner.screenshot('console-sign-in');

  await page.getByRole('textbox', { name: 'API key' }).focus();
  await page.keyboard.type('pk_not-a-real-key');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('alert')).toHaveText('That API key is not valid, or it was revoked.');
  await page.getByRole('textbox', { name: 'API key' }).fill('');
  await page.keyboard.type(process.env.PARLEY_E2E_API_KEY!);
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Chatbots' })).toBeVisible();
  await expect(page).toHaveURL(/\/console\/chatbots$/);

  // The key lives in no script-readable place; the session is an HttpOnly, SameSite=Strict cookie.
  const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + document.cookie);
  expect(stored).not.toContain(process.env.PARLEY_E2E_API_KEY!);
  const cookie = (await page.context().cookies()).find((c) => c.name === 'parley_session')!;
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
  const cookieHeader = { cookie: `parley_session=${cookie.value}` };
  expect((await request.get('/v1/chatbot/all', { headers: cookieHeader })).status()).toBe(200);

  for (const name of ['Chatbots', 'Knowledge', 'Conversations', 'Leads', 'Insights'] as const) await expect(owner.nav(name)).toBeVisible();
  await owner.expectNoAxeViolations();

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('textbox', { name: 'API key' })).toBeVisible();
  expect((await request.get('/v1/chatbot/all', { headers: cookieHeader })).status()).toBe(401);
  await page.reload();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
});

test('works by keyboard alone: focus starts on each page\'s heading, and a chatbot is created without a mouse', async ({ page }) => {
  const owner = new ConsoleHarness(page);
  await owner.signIn();
  await expect(page.getByRole('heading', { level: 1, name: 'Chatbots' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'New chatbot' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'New chatbot' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('textbox', { name: 'Name' })).toBeFocused();
  await page.keyboard.type('Keyboard bot');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Chatbot: Keyboard bot' })).toBeVisible();
  await owner.nav('Knowledge').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Knowledge' })).toBeFocused();
  // Back through Sign out, the navigation links (Settings too for a key's session) and, before an
  // owner account exists, the notice's link, to the skip link.
  const skipLink = page.getByRole('link', { name: 'Skip to content' });
  for (let step = 0; step < 12 && !await skipLink.evaluate((link) => link === document.activeElement); step++) await page.keyboard.press('Shift+Tab');
  await expect(skipLink).toBeFocused();
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeInViewport();
  await page.goBack();
  await expect(page.getByRole('heading', { level: 1, name: 'Chatbot: Keyboard bot' })).toBeVisible();
});
