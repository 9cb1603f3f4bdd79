import { expect, type Locator, type Page } from '@playwright/test';

/**
 * Intent-level actions over the widget's public, accessible surface (roles and labels only;
 * Playwright's locators cross the widget's open shadow roots).
 */
export class ChatWidgetHarness {
  constructor(readonly page: Page) {}

  get launcher(): Locator {
    return this.page.getByRole('button', { name: /^(Open|Close) chat with / });
  }

  get window(): Locator {
    return this.page.getByRole('dialog');
  }

  get conversation(): Locator {
    return this.page.getByRole('log', { name: 'Conversation' });
  }

  get messageBox(): Locator {
    return this.page.getByRole('textbox', { name: 'Message' });
  }

  popupMessage(text: string): Locator {
    return this.page.getByRole('button', { name: text });
  }

  async open(): Promise<void> {
    await this.page.getByRole('button', { name: /^Open chat with / }).click();
    await expect(this.messageBox.or(this.page.getByLabel('Password'))).toBeVisible();
  }

  /** Sends a question (does not wait for the answer). */
  async send(text: string): Promise<void> {
    await this.messageBox.fill(text);
    await this.messageBox.press('Enter');
  }

  /** Waits until no answer is streaming any more. */
  async waitForAnswer(): Promise<void> {
    await expect(this.conversation).toHaveAttribute('aria-busy', 'false');
    await expect(this.page.getByRole('button', { name: 'Send message' })).toBeVisible();
  }

  /** Asks and waits for the whole streamed answer. */
  async ask(text: string): Promise<void> {
    await this.send(text);
    await expect(this.conversation).toContainText(text);
    await this.waitForAnswer();
  }

  async unlock(password: string): Promise<void> {
    await this.page.getByLabel('Password').fill(password);
    await this.page.getByRole('button', { name: 'Unlock' }).click();
  }
}
