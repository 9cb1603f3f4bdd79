import type { EmbedConfig } from '@parley/shared';
import { accentOf, textOn } from './colors.js';

/**
 * The owner's colors as `--cw-*` custom properties, with readable text colors for each.
 * The 4-color gradient paints the launcher and the header; without it the accent does.
 */
export function themeOf(config: EmbedConfig): Record<string, string> {
  // With a gradient, buttons take its first color so the window looks like one palette.
  const accent = accentOf(config.gradientColors?.[0] ?? config.userMessageColor);
  const gradient = config.gradientColors ? `linear-gradient(135deg, ${config.gradientColors.join(', ')})` : undefined;
  const headerText = config.gradientColors
    ? textOn(config.gradientColors[1] ?? config.gradientColors[0]!)
    : '#ffffff';
  // White text crosses light and dark stops of a gradient; a soft shadow keeps it legible on both.
  const headerShadow = gradient && headerText === '#ffffff' ? '0 1px 2px rgb(0 0 0 / 0.28)' : 'none';
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
    '--cw-accent-fg': '#ffffff',
    '--cw-header-bg': gradient ?? accent,
    '--cw-header-fg': headerText,
    '--cw-header-shadow': headerShadow,
    '--cw-focus': accent,
  };
}
