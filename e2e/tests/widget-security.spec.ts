import { expect, test } from '../fixtures/test.js';

const PAYLOAD = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script>';

test('a malicious welcome message and answer are shown as text and never run', async ({
  page, createChatbot, createTextResource, openHostPage, widget,
}) => {
  const resourceId = await createTextResource('Hostile page',
    `The warranty covers two years ${PAYLOAD} [click me](javascript:window.__pwned=1) for every tent we sell.`);
  const chatbot = await createChatbot({ welcomeMessage: `Welcome ${PAYLOAD}`, websiteIntegration: { welcomeHeaderTitle: PAYLOAD } }, [resourceId]);
  await openHostPage('allowed.test', { chatbotId: chatbot.id });
  await widget.open();
  await expect(widget.conversation).toContainText('onerror="window.__pwned=1"');
  await widget.ask('How long is the warranty for tents?');
  await expect(widget.conversation).toContainText('two years');
  await expect(widget.conversation).toContainText('<script>');
  await expect(widget.conversation.getByRole('link', { name: 'click me' })).toHaveCount(0);
  expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
  const injected = await page.evaluate(() => {
    const count = (root: Document | ShadowRoot): number => [...root.querySelectorAll('*')]
      .reduce((n, el) => n + (el.matches('img[src="x"], script:not([src])') ? 1 : 0) + (el.shadowRoot ? count(el.shadowRoot) : 0), 0);
    return count(document);
  });
  expect(injected).toBe(0);
});
