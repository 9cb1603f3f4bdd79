import { createRequire } from 'node:module';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type Locator, type Page } from '@playwright/test';

const axeSource = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const screenshots = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../screenshots');

/** Intent-level actions over the owner console, by role and accessible name only. */
export class ConsoleHarness {
  constructor(readonly page: Page) {}

  /**
   * Opens the console and signs in with a key (the bootstrap key by default); the form offers
   * e-mail and password first once members exist, so it switches to the key form then.
   */
  async signIn(apiKey = process.env.PARLEY_E2E_API_KEY!): Promise<void> {
    await this.page.goto('/');
    const keyBox = this.page.getByRole('textbox', { name: 'API key' });
    const useKey = this.page.getByRole('button', { name: 'Use an API key instead' });
    await expect(keyBox.or(useKey)).toBeVisible();
    if (await useKey.isVisible()) await useKey.click();
    await keyBox.fill(apiKey);
    await this.page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(this.nav('Chatbots')).toBeVisible();
  }

  /** Opens the console and signs in as a member. */
  async signInAs(email: string, password: string): Promise<void> {
    await this.page.goto('/');
    const emailBox = this.page.getByRole('textbox', { name: 'E-mail address' });
    const usePassword = this.page.getByRole('button', { name: 'Use e-mail and password instead' });
    await expect(emailBox.or(usePassword)).toBeVisible();
    if (await usePassword.isVisible()) await usePassword.click();
    await emailBox.fill(email);
    await this.page.getByLabel('Password', { exact: true }).fill(password);
    await this.page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(this.nav('Chatbots')).toBeVisible();
  }

  nav(name: 'Chatbots' | 'Knowledge' | 'Playground' | 'Conversations' | 'Leads' | 'Insights' | 'Settings'): Locator {
    return this.page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name, exact: true });
  }

  /** Goes to a page through the navigation and waits for its heading (Settings opens Notifications). */
  async open(name: 'Chatbots' | 'Knowledge' | 'Playground' | 'Conversations' | 'Leads' | 'Insights' | 'Settings'): Promise<void> {
    await this.nav(name).click();
    await expect(this.page.getByRole('heading', { level: 1, name: name === 'Settings' ? 'Members' : name })).toBeVisible();
  }

  /** Chooses a chatbot in the page's "Chatbot" select. */
  async chooseChatbot(name: string): Promise<void> {
    await this.page.getByRole('combobox', { name: 'Chatbot' }).selectOption({ label: name });
  }

  /**
   * Runs axe-core (WCAG 2 A and AA rules) over the whole page and fails with each violation's
   * rule and targets. Needs the context's `bypassCSP`: the console's policy refuses injected scripts.
   */
  async expectNoAxeViolations(): Promise<void> {
    await this.page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))));
    if (!await this.page.evaluate(() => 'axe' in window)) await this.page.addScriptTag({ path: axeSource });
    const violations = await this.page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: { id: string; nodes: { target: unknown }[] }[] }> } }).axe;
      const result = await axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'], resultTypes: ['violations'] });
      return result.violations.map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => n.target))}`);
    });
    expect(violations).toEqual([]);
  }

  /** Saves a full-page screenshot to e2e/screenshots/<name>.png (looked at by people, not compared). */
  async screenshot(name: string): Promise<void> {
    mkdirSync(screenshots, { recursive: true });
    await this.page.screenshot({ path: path.join(screenshots, `${name}.png`), fullPage: true });
  }
}

/** A phone-sized viewport (an iPhone 12-15 class screen). */
export const PHONE = { width: 390, height: 844 };
