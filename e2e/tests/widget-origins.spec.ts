import { fileURLToPath } from 'node:url';
import { expect, test } from '../fixtures/test.js';

const screenshots = fileURLToPath(new URL('../screenshots/', import.meta.url));

const restricted = { websiteIntegration: { allowedDomains: ['allowed.test'], bubbleAlignment: 'left' } };

test.describe('allowed domains', () => {
  test('the widget appears on an allowed domain, on the left when so configured', async ({ page, createChatbot, openHostPage, widget }) => {
    const chatbot = await createChatbot(restricted);
    await page.setViewportSize({ width: 1280, height: 800 });
    await openHostPage('allowed.test', { chatbotId: chatbot.id });
    await expect(widget.launcher).toBeVisible();
    // The widget takes no room in the page: hiding it moves and shrinks nothing.
    const layout = () => page.evaluate(() => {
      const box = document.querySelector('main button')!.getBoundingClientRect();
      return { x: box.x, y: box.y, height: document.documentElement.scrollHeight, width: document.documentElement.scrollWidth };
    });
    const withWidget = await layout();
    await page.evaluate(() => { document.querySelector<HTMLElement>('chatbot-widget')!.style.display = 'none'; });
    expect(await layout()).toEqual(withWidget);
    await page.evaluate(() => { document.querySelector<HTMLElement>('chatbot-widget')!.style.display = ''; });
    expect((await widget.launcher.boundingBox())!.x).toBeLessThan(100);
    await widget.open();
    expect((await widget.window.boundingBox())!.x).toBeLessThan(100);
    await page.screenshot({ path: `${screenshots}/widget-left.png` });
  });

  test('the widget stays hidden on a refused domain; the API refuses it with 403 and lets only that page read why', async ({
    page, baseURL, createChatbot, openHostPage, widget,
  }) => {
    const chatbot = await createChatbot(restricted);
    const warned = page.waitForEvent('console', (message) => message.type() === 'warning' && message.text().includes('not embeddable'));
    await openHostPage('refused.test', { chatbotId: chatbot.id });
    await warned;
    await expect(widget.launcher).toHaveCount(0);
    const direct = await page.request.get(`${baseURL}/v1/embed/${chatbot.id}/config`, { headers: { origin: 'http://refused.test:1' } });
    expect(direct.status()).toBe(403);
    expect(direct.headers()['access-control-allow-origin']).toBe('http://refused.test:1');
    const preflight = await page.request.fetch(`${baseURL}/v1/embed/${chatbot.id}/leads`, {
      method: 'OPTIONS', headers: { origin: 'http://refused.test:1', 'access-control-request-method': 'POST' },
    });
    expect([preflight.status(), preflight.headers()['access-control-allow-origin']]).toEqual([403, undefined]);
  });

  test('a chatbot with a strict-CSP host page still works (no inline script or eval needed)', async ({
    createChatbot, openHostPage, widget,
  }) => {
    const chatbot = await createChatbot(restricted);
    await openHostPage('allowed.test', { chatbotId: chatbot.id, csp: true });
    await widget.open();
    await widget.ask('Are you open on Sundays?');
    await expect(widget.conversation).toContainText('closed on Sundays');
  });

  test('the element also works written directly in the page with a module script', async ({ createChatbot, openHostPage, widget }) => {
    const chatbot = await createChatbot({ ...restricted, enabledEmoji: true });
    await openHostPage('allowed.test', { chatbotId: chatbot.id, direct: true });
    await widget.open();
    await widget.ask('When do you close on Saturdays?');
    await expect(widget.conversation).toContainText('4pm');
    await widget.window.getByRole('button', { name: 'Insert emoji' }).click();
    await expect(widget.window.getByRole('dialog', { name: 'Emoji' }).getByRole('button').first()).toBeVisible();
  });
});
