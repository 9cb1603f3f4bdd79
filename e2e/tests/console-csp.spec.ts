import { ConsoleHarness } from '../harnesses/console.harness.js';
import { expect, test } from '../fixtures/test.js';

// No bypassCSP here: the console must load and work under its own policy (script-src 'self', no
// 'unsafe-eval') without a single violation, not even a library's caught capability probe (zod's
// `new Function` JIT check, which a strict policy reports although zod swallows the error).
test('loads, signs in and opens every page without a Content Security Policy violation', async ({ page }) => {
  // Init scripts run before the page's own and are not subject to its policy.
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) => {
      seen.push(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}`);
    });
  });
  const violations = () => page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
  const owner = new ConsoleHarness(page);
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Sign in to Parley' })).toBeVisible();
  expect(await violations()).toEqual([]);
  await owner.signIn();
  for (const name of ['Knowledge', 'Playground', 'Conversations', 'Leads', 'Insights', 'Chatbots'] as const) await owner.open(name);
  // Settings' pages (a key's session may open them).
  await owner.nav('Settings').click();
  await expect(page.getByRole('heading', { level: 1, name: 'Members' })).toBeVisible();
  for (const name of ['API keys', 'Activity']) {
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name }).click();
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  }
  expect(await violations()).toEqual([]);
});
