import type { Locator, Page } from '@playwright/test';
import { ConsoleHarness, PHONE } from '../harnesses/console.harness.js';
import { expectNoAxeViolations } from '../fixtures/axe.js';
import { expect, test } from '../fixtures/test.js';

// Issue 40's last "Done when": the pages it touched, with the keyboard only (no clicks). Each stop
// on the way must show a visible focus indicator (an outline or a ring).
test.use({ bypassCSP: true });

/**
 * The element focused now (through shadow roots): a short description and whether its focus shows:
 * Chromium's own ring, a box-shadow ring, or an outline with 3:1 contrast against what is behind
 * it (WCAG 1.4.11), i.e. the nearest ancestor's background colour; or, for a field drawn without
 * its own ring, a wrapper's `:focus-within` border with that contrast.
 */
function focusedNow(page: Page): Promise<{ what: string; visible: boolean }> {
  return page.evaluate(() => {
    let el = document.activeElement;
    while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
    if (!el || el === document.body) return { what: 'body', visible: false };
    const rgb = (colour: string) => (colour.match(/[\d.]+/g) ?? []).map(Number);
    const luminance = ([r = 0, g = 0, b = 0]: number[]) => {
      const [lr, lg, lb] = [r, g, b].map((c) => { const v = c / 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
      return 0.2126 * lr! + 0.7152 * lg! + 0.0722 * lb!;
    };
    const parentOf = (node: Element): Element | null => node.parentElement ?? ((node.getRootNode() as ShadowRoot).host ?? null);
    const behindOf = (start: Element) => {
      for (let node = parentOf(start); node; node = parentOf(node)) {
        const bg = getComputedStyle(node).backgroundColor;
        const [, , , alpha = 1] = rgb(bg);
        if (alpha > 0.5) return bg;
      }
      return 'rgb(255, 255, 255)';
    };
    const contrastOf = (x: string, y: string) => {
      const [a, b] = [luminance(rgb(x)), luminance(rgb(y))];
      return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    };
    const behind = behindOf(el);
    const style = getComputedStyle(el);
    const contrast = contrastOf(style.outlineColor, behind);
    const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0 && (style.outlineStyle === 'auto' || contrast >= 3);
    // A field may show focus on its wrapper instead (the widget's message box: `form:focus-within`):
    // a nearby ancestor that a `:focus-within` rule styles, with a border or ring that stands out.
    const focusWithinRules = [...(el.getRootNode() as Document | ShadowRoot).adoptedStyleSheets ?? [],
      ...Array.from((el.getRootNode() as Document | ShadowRoot).styleSheets ?? [])]
      .flatMap((sheet) => { try { return Array.from(sheet.cssRules); } catch { return []; } }).filter((rule): rule is CSSStyleRule => rule instanceof CSSStyleRule && rule.selectorText.includes(':focus-within'));
    let wrapperRing = false;
    for (let node = el.parentElement, level = 0; node && level < 3 && !wrapperRing; node = node.parentElement, level++) {
      if (!focusWithinRules.some((rule) => node!.matches(rule.selectorText))) continue;
      const wrapper = getComputedStyle(node);
      wrapperRing = parseFloat(wrapper.borderTopWidth) > 0 && contrastOf(wrapper.borderTopColor, behindOf(node)) >= 3;
    }
    const ring = style.boxShadow !== 'none' || wrapperRing;
    const label = el.getAttribute('aria-label') ?? (el.textContent ?? '').trim().slice(0, 40);
    return { what: `${el.tagName.toLowerCase()} ${label} (outline ${style.outlineColor} on ${behind})`, visible: outline || ring };
  });
}

/** Presses Tab (or Shift+Tab) until `target` has focus; every stop on the way shows its focus. */
async function tabTo(page: Page, target: Locator, { back = false, max = 400 } = {}): Promise<void> {
  const stops: string[] = [];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    const now = await focusedNow(page);
    if (now.what !== 'body') expect.soft(now.visible, `focus ring on ${now.what}`).toBe(true);
    stops.push(now.what);
    if (await target.evaluate((el) => {
      let active = document.activeElement;
      while (active?.shadowRoot?.activeElement && active !== el) active = active.shadowRoot.activeElement;
      return active === el;
    })) return;
  }
  throw new Error(`never reached the target by ${back ? 'Shift+Tab' : 'Tab'}; stops: ${stops.join(' | ')}`);
}

async function signInByKeyboard(page: Page): Promise<void> {
  await page.goto('/');
  const keyBox = page.getByRole('textbox', { name: 'API key' });
  const useKey = page.getByRole('button', { name: 'Use an API key instead' });
  await expect(keyBox.or(useKey)).toBeVisible();
  if (await useKey.isVisible()) {
    await tabTo(page, useKey);
    await page.keyboard.press('Enter');
  }
  await tabTo(page, keyBox);
  await page.keyboard.type(process.env.PARLEY_E2E_API_KEY!);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('navigation', { name: 'Console' })).toBeVisible();
  // The first page takes focus to its heading once it has loaded: tabbing starts from there.
  await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
}

test('Knowledge by keyboard: upload a file, add a website, edit its settings, delete dialogs; Escape returns focus', async ({ page, api }) => {
  const owner = new ConsoleHarness(page);
  await signInByKeyboard(page);
  await tabTo(page, owner.nav('Knowledge'));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Knowledge' })).toBeFocused();

  // A file: Enter on "Upload file" opens the system's file chooser; focus is on the button afterwards.
  const uploadFile = page.getByRole('button', { name: 'Upload file' });
  await tabTo(page, uploadFile);
  const chooser = page.waitForEvent('filechooser');
  await page.keyboard.press('Enter');
  await (await chooser).setFiles({ name: 'keyboard-hours.txt', mimeType: 'text/plain', buffer: Buffer.from('Opening hours\n\nWe bake from 7am to 3pm, Tuesday to Sunday.\n') });
  await expect(page.getByRole('status').filter({ hasText: /^Uploaded keyboard-hours\.txt; it is being read\.$|^keyboard-hours\.txt is ready/ })).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: 'keyboard-hours.txt' })).toBeVisible();
  await expect(uploadFile).toBeFocused();

  const addWebsite = page.getByRole('button', { name: 'Add website' });
  await tabTo(page, addWebsite);
  await page.keyboard.press('Enter');
  const add = page.getByRole('dialog', { name: 'Add website' });
  await expect(add).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(add).toBeHidden();
  await expect(addWebsite).toBeFocused();

  await page.keyboard.press('Enter');
  await tabTo(page, add.getByRole('textbox', { name: 'Page URL' }));
  await page.keyboard.type('https://keyboard-bakery.example/');
  await tabTo(page, add.getByRole('combobox', { name: 'Discover more pages' }));
  await tabTo(page, add.getByRole('textbox', { name: 'Most pages' }));
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('15');
  await owner.screenshot('keyboard-add-website');
  await tabTo(page, add.getByRole('button', { name: 'Save' }));
  await page.keyboard.press('Enter');
  await expect(add).toBeHidden();
  const row = page.getByRole('row').filter({ hasText: 'keyboard-bakery.example' });
  await expect(row).toBeVisible();

  const settings = row.getByRole('button', { name: /^Settings of / });
  await tabTo(page, settings);
  await page.keyboard.press('Enter');
  const edit = page.getByRole('dialog', { name: 'Website settings' });
  await expect(edit).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(edit).toBeHidden();
  await expect(settings).toBeFocused();
  // Changed and saved with the keyboard; focus goes back to the row's button.
  await page.keyboard.press('Enter');
  await expect(edit).toBeVisible();
  await tabTo(page, edit.getByRole('textbox', { name: 'Most pages' }));
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('25');
  const again = edit.getByRole('combobox', { name: 'Read it again' });
  await tabTo(page, again);
  await page.keyboard.press('ArrowUp');
  await expect(again).toHaveValue('ONE_MONTH');
  await owner.screenshot('keyboard-website-settings');
  await tabTo(page, edit.getByRole('button', { name: 'Save' }));
  await page.keyboard.press('Enter');
  await expect(edit).toBeHidden();
  await expect(settings).toBeFocused();
  const sites = await (await api.get('/v1/resource/all')).json() as { id: string; fileName: string }[];
  const site = sites.find((resource) => resource.fileName === 'https://keyboard-bakery.example/')!;
  await expect.poll(async () => (await api.get(`/v1/resource/website/${site.id}`)).json()).toMatchObject({ syncFrequency: 'ONE_MONTH', settings: { maxPages: 25 } });

  const remove = row.getByRole('button', { name: /^Delete / });
  await tabTo(page, remove);
  await page.keyboard.press('Enter');
  const confirm = page.getByRole('dialog', { name: 'Delete resource' });
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await owner.screenshot('keyboard-delete-dialog');
  await page.keyboard.press('Escape');
  await expect(confirm).toBeHidden();
  await expect(remove).toBeFocused();
  await owner.expectNoAxeViolations();
  await page.setViewportSize(PHONE);
  await remove.focus();
  await owner.screenshot('keyboard-knowledge-phone');
});

test('chatbot settings, embed check and Appearance by keyboard: access level, password, every widget setting, the preview', async ({ page, createChatbot, openHostPage }) => {
  const chatbot = await createChatbot({ name: 'Keyboard bakery', websiteIntegration: { allowedDomains: ['allowed.test'] } });
  // A site its allowed domains refuse, for the chatbot page's embed check.
  await openHostPage('refused.test', { chatbotId: chatbot.id });
  const owner = new ConsoleHarness(page);
  await signInByKeyboard(page);
  await page.goto(`/console/chatbots/${chatbot.id}`);
  const access = page.getByRole('combobox', { name: 'Access level' });
  await expect(access).toBeVisible();
  await tabTo(page, access);
  await expect(access).toHaveAccessibleDescription(/every visitor\. In the API: accessLevel PUBLIC\.$/);
  await page.keyboard.press('ArrowDown');
  await expect(access).toHaveValue('PRIVATE');
  // The explanation follows the choice, and is read with the field.
  await expect(access).toHaveAccessibleDescription(/asks visitors for the password before they can chat\. In the API: accessLevel PRIVATE\.$/);
  // The password field comes right after the access level; a weak one is refused and focused.
  const password = page.getByLabel('Password', { exact: true });
  await page.keyboard.press('Tab');
  await expect(password).toBeFocused();
  await page.keyboard.type('short');
  const save = page.getByRole('button', { name: 'Save' });
  await tabTo(page, save);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: 'Fix the field marked below.' })).toBeVisible();
  await expect(password).toBeFocused();
  await owner.screenshot('keyboard-access-level');
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('Bakery-2026-door!');
  await tabTo(page, save);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: 'Saved "Keyboard bakery".' })).toBeVisible();

  // The embed check names the refused site; its link to Appearance is reached and followed by keyboard.
  const refused = page.getByTestId('embed-refused');
  await expect(refused).toContainText('refused.test');
  await tabTo(page, refused.getByRole('link', { name: 'Appearance' }));
  await owner.screenshot('keyboard-embed-check');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Appearance: Keyboard bakery' })).toBeFocused();

  const brand = page.getByRole('checkbox', { name: 'Brand colour (header, launcher and send button)' });
  await tabTo(page, brand);
  await page.keyboard.press('Space');
  await expect(brand).toBeChecked();
  await page.keyboard.press('Tab');
  const colour = await focusedNow(page);
  expect(colour.visible, `focus ring on ${colour.what}`).toBe(true);
  await expect(page.getByTestId('brand-painted')).toContainText('The widget uses #1D4ED8 as it is');

  // Every widget setting, each still focused after the preview redraws with it.
  const preview = page.getByTestId('widget-preview');
  const language = page.getByRole('combobox', { name: 'Language of the widget' });
  await tabTo(page, language);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect(language).toHaveValue('ar');
  await expect(preview.locator('chatbot-widget [dir="rtl"]').first()).toBeAttached();
  await expect(language).toBeFocused();
  const starters = page.getByRole('textbox', { name: 'Starter questions' });
  await tabTo(page, starters);
  await page.keyboard.type('When do you open?');
  await page.keyboard.press('Enter');
  await page.keyboard.type('Do you deliver?');
  const starter = preview.getByRole('button', { name: 'Do you deliver?' });
  await expect(starter).toBeVisible();
  await expect(starters).toBeFocused();
  const leadOffer = page.getByRole('textbox', { name: 'Offer the contact form after this many answers' });
  await tabTo(page, leadOffer);
  await page.keyboard.type('2');
  await expect(leadOffer).toBeFocused();
  const daily = page.getByRole('textbox', { name: 'Visitor messages per day' });
  await tabTo(page, daily);
  await page.keyboard.type('300');
  await expect(daily).toBeFocused();
  await owner.screenshot('keyboard-appearance');
  await tabTo(page, page.getByRole('button', { name: 'Save' }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();

  // Into the preview and out of it again: its controls show focus, and nothing traps it.
  await tabTo(page, page.getByRole('combobox', { name: 'Preview of' }));
  await tabTo(page, starter);
  await owner.screenshot('keyboard-appearance-preview-rtl');
  await tabTo(page, page.getByRole('link', { name: 'Skip to content' }));
  await tabTo(page, starter, { back: true });
  await tabTo(page, page.getByRole('button', { name: 'Save' }), { back: true });
  await owner.expectNoAxeViolations();
  await page.setViewportSize(PHONE);
  await owner.screenshot('keyboard-appearance-phone');
});

test('the widget by keyboard: ask for a person in words, "Talk to a person" is announced, Escape returns focus', async ({ page, createChatbot, openHostPage, widget }) => {
  // Office hours all week: the team counts as available, so a person is asked to join.
  const always = { timeZone: 'UTC', weekdays: [1, 2, 3, 4, 5, 6, 7], from: '00:00', to: '24:00' };
  await createChatbot({ name: 'Keyboard shop', websiteIntegration: { officeHours: always } }).then((chatbot) => openHostPage('allowed.test', { chatbotId: chatbot.id }));
  await expect(widget.launcher).toBeVisible();
  await tabTo(page, widget.launcher);
  await page.keyboard.press('Enter');
  await expect(widget.messageBox).toBeFocused();
  // The live region is there before anything is said in it (so screen readers announce the text).
  const notice = widget.window.locator('p.notice[role="status"]');
  await expect(notice).toBeAttached();
  await expect(notice).toHaveText('');
  await page.keyboard.type('can I talk to a human?');
  await page.keyboard.press('Enter');
  await widget.waitForAnswer();
  await expect(widget.conversation).toContainText('asking someone from the team to join');
  await expect(widget.conversation).not.toContainText('can\'t connect you');
  await expect(notice).toHaveText('Someone from the team will be with you shortly.');
  const talk = widget.window.getByRole('button', { name: 'Talk to a person' });
  await tabTo(page, talk, { back: true });
  await new ConsoleHarness(page).screenshot('keyboard-widget-talk-to-person');
  await expectNoAxeViolations(page);
  await page.keyboard.press('Enter');
  await expect(notice).toHaveText('Someone from the team will be with you shortly.');
  await page.keyboard.press('Escape');
  await expect(widget.window).toBeHidden();
  await expect(widget.launcher).toBeFocused();
  await page.setViewportSize(PHONE);
  await page.keyboard.press('Enter');
  await expect(widget.messageBox).toBeFocused();
  // Axe waits for the opening animation too, so the screenshot shows the open panel.
  await expectNoAxeViolations(page);
  await new ConsoleHarness(page).screenshot('keyboard-widget-phone');
});

test('the conversation by keyboard: 👎 opens its comment box, and "Jump to the latest message" takes focus to the end', async ({ page, createChatbot, openHostPage, widget }) => {
  // A yellow brand colour: focus rings and the message box's edge drawn in it must still stand out on white.
  await createChatbot({ name: 'Keyboard answers', websiteIntegration: { brandColor: '#FACC15' } })
    .then((chatbot) => openHostPage('allowed.test', { chatbotId: chatbot.id }));
  await expect(widget.launcher).toBeVisible();
  await tabTo(page, widget.launcher);
  await page.keyboard.press('Enter');
  await expect(widget.messageBox).toBeFocused();
  for (const question of ['When does the shop open on Saturdays?', 'How long does delivery take?', 'Can I return something I bought?']) {
    await page.keyboard.type(question);
    await page.keyboard.press('Enter');
    await widget.waitForAnswer();
  }
  // 👎 on the last answer: its comment box takes focus; after sending, focus is back on 👎, not lost.
  const notHelpful = widget.window.getByRole('button', { name: 'Not helpful' }).last();
  await tabTo(page, notHelpful, { back: true });
  await page.keyboard.press('Enter');
  const comment = widget.window.getByRole('textbox', { name: 'What was missing or wrong? (optional)' });
  await expect(comment).toBeFocused();
  await page.keyboard.type('It did not say how.');
  const jump = widget.window.getByRole('button', { name: 'Jump to the latest message' });
  await expect(jump).toBeHidden();
  await new ConsoleHarness(page).screenshot('keyboard-widget-feedback');
  await tabTo(page, widget.window.getByRole('button', { name: 'Send feedback' }));
  await page.keyboard.press('Enter');
  await expect(widget.window.getByRole('status').filter({ hasText: 'Thanks for your feedback!' })).toBeVisible();
  await expect(notHelpful).toBeFocused();
  await expect(notHelpful).toHaveAttribute('aria-pressed', 'true');

  // Scrolled up with the keyboard, the pill appears; Enter on it goes to the end and focus stays in the conversation.
  await tabTo(page, widget.conversation, { back: true });
  await page.keyboard.press('Home');
  await expect(jump).toBeVisible();
  await new ConsoleHarness(page).screenshot('keyboard-widget-jump');
  await tabTo(page, jump, { back: true });
  await page.keyboard.press('Enter');
  await expect(jump).toBeHidden();
  await expect(widget.conversation).toBeFocused();
  await expect.poll(() => widget.conversation.evaluate((log) => log.scrollHeight - log.scrollTop - log.clientHeight)).toBeLessThan(40);
  await expectNoAxeViolations(page);
});

test('the resource page by keyboard: Sync now, and its status is announced', async ({ page, api }) => {
  const created = await api.post('/v1/resource/website', { data: { url: `http://127.0.0.1:${process.env.PARLEY_E2E_HOST_PAGES_PORT}/bakery/` } });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = await created.json() as { id: string };
  await expect.poll(async () => ((await (await api.get(`/v1/resource/${id}`)).json()) as { aiProcessingStatus: string }).aiProcessingStatus,
    { timeout: 30_000 }).toBe('DONE');
  const owner = new ConsoleHarness(page);
  await signInByKeyboard(page);
  await page.goto(`/console/knowledge/${id}`);
  const sync = page.getByRole('button', { name: 'Sync now' });
  await expect(sync).toBeVisible();
  await tabTo(page, sync);
  await owner.screenshot('keyboard-resource');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: /sync|index|read/i }).first()).toBeVisible();
  await owner.expectNoAxeViolations();
  await page.setViewportSize(PHONE);
  await owner.screenshot('keyboard-resource-phone');
});
