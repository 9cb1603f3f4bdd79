import { accentOf, readablePair, type EmbedConfig } from '@parley/shared';

/** A text colour that reads at 4.5:1 or better on `background` (shared/src/common/readable-colors.ts). */
const textOn = (background: string) => readablePair([background]).text;

/**
 * The owner's colors as `--cw-*` custom properties, each with a text color that reads on it.
 * The 4-color gradient paints the launcher and the header; without it the accent (the brand colour when set) does. A
 * gradient that no one text color reads on is painted with the stops adjusted that the API
 * reports in the chatbot's `warnings`.
 */
export function themeOf(config: EmbedConfig): Record<string, string> {
  // The brand colour first; with a gradient, buttons take its first color so the window looks like one palette.
  const accent = accentOf(config.brandColor ?? config.gradientColors?.[0] ?? config.userMessageColor);
  const header = readablePair(config.gradientColors ?? [accent]);
  return {
    '--cw-bot-bg': config.chatbotMessageColor,
    '--cw-bot-fg': textOn(config.chatbotMessageColor),
    '--cw-user-bg': config.userMessageColor,
    '--cw-user-fg': textOn(config.userMessageColor),
    '--cw-conversation-bg': config.conversationBackgroundColor,
    '--cw-conversation-fg': textOn(config.conversationBackgroundColor),
    '--cw-secondary-bg': config.secondaryBackgroundColor,
    '--cw-secondary-fg': textOn(config.secondaryBackgroundColor),
    '--cw-accent': accent,
    '--cw-accent-fg': textOn(accent),
    '--cw-header-bg': config.gradientColors ? `linear-gradient(135deg, ${header.backgrounds.join(', ')})` : accent,
    '--cw-header-fg': header.text,
  };
}
