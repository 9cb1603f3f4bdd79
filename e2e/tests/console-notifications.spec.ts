import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { ConsoleHarness, PHONE } from '../harnesses/console.harness.js';
import { expect, test } from '../fixtures/test.js';

test.use({ bypassCSP: true });

const DESKTOP = { width: 1280, height: 800 };

/** A webhook receiver on loopback that keeps every request it gets (verified by the test with the secret the console shows). */
async function startReceiver(): Promise<{ url: string; received: { headers: Record<string, string>; body: string }[]; close(): Promise<void> }> {
  const received: { headers: Record<string, string>; body: string }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])), body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(204).end();
    });
  }).listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/parley-hook`, received,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

test('the owner adds a webhook, sends a test, sees it delivered, and sets who is mailed', async ({ page, api }) => {
  const receiver = await startReceiver();
  try {
    const owner = new ConsoleHarness(page);
    await page.setViewportSize(DESKTOP);
    await owner.signIn();
    await owner.open('Settings');
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Notifications' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible();
    // The e2e service has no SMTP_URL: the page says so and how to turn mail on.
    await expect(page.getByRole('note')).toContainText('Mail is off');
    await expect(page.getByRole('note')).toContainText('SMTP_URL');

    await page.getByRole('textbox', { name: 'URL' }).fill(receiver.url);
    await page.getByRole('textbox', { name: 'Description (optional)' }).fill('CRM');
    await page.getByRole('checkbox', { name: /A visitor rates an answer/ }).check();
    await page.getByRole('button', { name: 'Add webhook' }).click();
    const secretBox = page.getByRole('region', { name: 'Signing secret' });
    await expect(secretBox).toContainText('shown only now');
    const secret = (await secretBox.locator('code#webhook-secret').textContent())?.trim() ?? '';
    expect(secret).toMatch(/^whsec_/);
    const row = page.getByRole('row').filter({ hasText: receiver.url });
    await expect(row).toContainText('on');
    await expect(row).toContainText('A visitor rates an answer');
    await owner.expectNoAxeViolations();
    await owner.screenshot('console-notifications-desktop');
    await page.getByRole('button', { name: 'I stored it' }).click();

    await page.getByRole('button', { name: `Send test to ${receiver.url}` }).click();
    await expect(page.getByRole('status').filter({ hasText: 'A test message is on its way' })).toBeVisible();
    const deliveries = page.getByRole('region', { name: /Deliveries to CRM/ });
    await expect(deliveries.getByRole('row').filter({ hasText: 'webhook.test' })).toContainText('delivered', { timeout: 20_000 });
    await expect(deliveries.getByRole('row').filter({ hasText: 'webhook.test' })).toContainText('204');
    // What arrived is signed with the secret the console showed (Standard Webhooks).
    expect(receiver.received).toHaveLength(1);
    const [request] = receiver.received;
    expect(new Webhook(secret).verify(request!.body, request!.headers)).toMatchObject({ type: 'webhook.test' });

    await page.getByRole('textbox', { name: 'Add an address' }).fill('team@shop.example');
    await page.getByRole('button', { name: 'Add address' }).click();
    await page.getByRole('checkbox', { name: 'Mail team@shop.example when a visitor rates an answer' }).check();
    await page.getByRole('button', { name: 'Save addresses' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'The notification addresses were saved.' })).toBeVisible();
    const saved = await (await api.get('/v1/notification/settings')).json() as { recipients: { email: string; events: string[] }[] };
    expect(saved.recipients).toEqual([{ email: 'team@shop.example', events: ['lead.created', 'conversation.handoff_requested', 'feedback.created'] }]);
    await owner.expectNoAxeViolations();
    await owner.screenshot('console-notifications-delivered');

    await page.setViewportSize(PHONE);
    await expect(page.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible();
    await owner.expectNoAxeViolations();
    await owner.screenshot('console-notifications-phone');
  } finally {
    await receiver.close();
  }
});
