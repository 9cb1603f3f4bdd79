import {
  CHATBOT_DEFAULTS, type ChatbotUpdateSchema, accentOf, colorWarningsOf, contrastRatio, readablePair, type BubbleAlignment, type Chatbot,
  type ColorWarning, type EmbedConfig,
} from '@parley/shared';
import type { z } from 'zod';
import { lines } from './form-issues.js';

export const COLOR_FIELDS = [
  ['chatbotMessageColor', 'Chatbot message background'], ['userMessageColor', 'Visitor message background'],
  ['conversationBackgroundColor', 'Conversation background'], ['secondaryBackgroundColor', 'Secondary background'],
] as const;
export type ColorField = (typeof COLOR_FIELDS)[number][0];

/** The appearance settings as the owner edits them. */
export interface AppearanceDraft extends Record<ColorField, string> {
  useGradient: boolean;
  gradient: [string, string, string, string];
  bubbleAlignment: BubbleAlignment;
  popupMessages: string;
  welcomeHeaderTitle: string;
  welcomeHeaderSubtitle: string;
  welcomeMessage: string;
  enabledEmoji: boolean;
  showBadge: boolean;
  allowedDomains: string;
  /** The widget's language; '' for the visitor's browser language. */
  locale: string;
  /** Starter questions, one per line. */
  suggestedQuestions: string;
  /** Answers before the lead form is offered; '' for only after a refusal or a request for a person. */
  leadOfferAfterTurns: string;
  /** Visitors' messages per 24 hours; '' for the operator's default. */
  dailyVisitorMessages: string;
  useBrandColor: boolean;
  /** The header (without a gradient), launcher and send button colour. */
  brandColor: string;
}

/** The widget's languages (its own texts), with their names in English. */
export const WIDGET_LANGUAGES: readonly [string, string][] = [
  ['en', 'English'], ['ar', 'Arabic'], ['de', 'German'], ['es', 'Spanish'], ['fa', 'Persian'], ['fr', 'French'], ['he', 'Hebrew'],
  ['it', 'Italian'], ['ja', 'Japanese'], ['nl', 'Dutch'], ['pt', 'Portuguese'], ['zh', 'Chinese'],
];

/** A whole number typed in a field, or null when it is empty; NaN when it is not a whole number. */
const wholeOrNull = (text: string): number | null => (text.trim() === '' ? null : /^\d+$/.test(text.trim()) ? Number(text.trim()) : Number.NaN);

export function appearanceOf(chatbot: Chatbot): AppearanceDraft {
  const site = chatbot.websiteIntegration;
  return {
    chatbotMessageColor: chatbot.chatbotMessageColor, userMessageColor: chatbot.userMessageColor,
    conversationBackgroundColor: chatbot.conversationBackgroundColor, secondaryBackgroundColor: chatbot.secondaryBackgroundColor,
    useGradient: chatbot.gradientColors !== undefined,
    gradient: (chatbot.gradientColors ?? ['#1E3A8A', '#2563EB', '#3B82F6', '#60A5FA']) as AppearanceDraft['gradient'],
    bubbleAlignment: site?.bubbleAlignment ?? CHATBOT_DEFAULTS.bubbleAlignment,
    popupMessages: (site?.bubblePopupMessages ?? []).join('\n'),
    welcomeHeaderTitle: site?.welcomeHeaderTitle ?? '', welcomeHeaderSubtitle: site?.welcomeHeaderSubtitle ?? '',
    welcomeMessage: chatbot.welcomeMessage, enabledEmoji: chatbot.enabledEmoji, showBadge: chatbot.showBadge,
    allowedDomains: (site?.allowedDomains ?? []).join('\n'),
    locale: site?.locale ?? '', suggestedQuestions: (site?.suggestedQuestions ?? []).join('\n'),
    leadOfferAfterTurns: site?.leadOfferAfterTurns === undefined ? '' : String(site.leadOfferAfterTurns),
    dailyVisitorMessages: site?.dailyVisitorMessages === undefined ? '' : String(site.dailyVisitorMessages),
    useBrandColor: site?.brandColor !== undefined, brandColor: site?.brandColor ?? '#1D4ED8',
  };
}

/** The update body of the appearance settings (`gradientColors: ""` removes the gradient). */
export function appearanceBody(draft: AppearanceDraft): z.input<typeof ChatbotUpdateSchema> {
  const popups = draft.popupMessages.split('\n').map((line) => line.trim()).filter(Boolean);
  return {
    chatbotMessageColor: draft.chatbotMessageColor, userMessageColor: draft.userMessageColor,
    conversationBackgroundColor: draft.conversationBackgroundColor, secondaryBackgroundColor: draft.secondaryBackgroundColor,
    gradientColors: draft.useGradient ? draft.gradient.join(',') : '',
    welcomeMessage: draft.welcomeMessage, enabledEmoji: draft.enabledEmoji, showBadge: draft.showBadge,
    websiteIntegration: {
      bubbleAlignment: draft.bubbleAlignment, bubblePopupMessages: popups, allowedDomains: lines(draft.allowedDomains),
      welcomeHeaderTitle: draft.welcomeHeaderTitle, welcomeHeaderSubtitle: draft.welcomeHeaderSubtitle,
      // Empty fields remove the setting (null), so its default applies again.
      locale: draft.locale || null,
      suggestedQuestions: draft.suggestedQuestions.split('\n').map((line) => line.trim()).filter(Boolean),
      leadOfferAfterTurns: wholeOrNull(draft.leadOfferAfterTurns), dailyVisitorMessages: wholeOrNull(draft.dailyVisitorMessages),
      brandColor: draft.useBrandColor ? draft.brandColor : null,
    },
  };
}

/** What the widget would fetch for these settings (its public config). */
export function previewConfigOf(chatbot: Chatbot, draft: AppearanceDraft, avatarUrl?: string): EmbedConfig {
  const valid = (color: string, fallback: string) => (/^#(?:[0-9a-fA-F]{3}){1,2}$/.test(color) ? color : fallback);
  const colors = Object.fromEntries(COLOR_FIELDS.map(([field]) => [field, valid(draft[field], CHATBOT_DEFAULTS[field])])) as Record<ColorField, string>;
  const gradient = draft.gradient.every((color) => valid(color, '') !== '') ? [...draft.gradient] : undefined;
  return {
    id: chatbot.id, name: chatbot.name, welcomeMessage: draft.welcomeMessage, accessLevel: 'PUBLIC', ...colors,
    ...(draft.useGradient && gradient ? { gradientColors: gradient } : {}),
    showBadge: draft.showBadge, enabledEmoji: draft.enabledEmoji, bubbleAlignment: draft.bubbleAlignment,
    bubblePopupMessages: draft.popupMessages.split('\n').map((line) => line.trim()).filter(Boolean).slice(0, 5),
    ...(draft.welcomeHeaderTitle ? { welcomeHeaderTitle: draft.welcomeHeaderTitle } : {}),
    ...(draft.welcomeHeaderSubtitle ? { welcomeHeaderSubtitle: draft.welcomeHeaderSubtitle } : {}),
    ...(avatarUrl ? { avatarUrl } : {}),
    ...(draft.locale ? { locale: draft.locale } : {}),
    suggestedQuestions: draft.suggestedQuestions.split('\n').map((line) => line.trim()).filter(Boolean).slice(0, 5),
    ...(/^\d+$/.test(draft.leadOfferAfterTurns.trim()) ? { leadOfferAfterTurns: Number(draft.leadOfferAfterTurns) } : {}),
    ...(draft.useBrandColor && valid(draft.brandColor, '') ? { brandColor: draft.brandColor } : {}),
  };
}

/** The text colour the widget paints on a background, and the contrast it reaches. */
export function textOn(background: string): { text: string; ratio: number } {
  const { text } = readablePair([background]);
  return { text, ratio: contrastRatio(text, background) };
}

/**
 * The colour the widget paints for a brand colour (the shared `accentOf`: a pale one is darkened so
 * the buttons stand out), with its text colour and their contrast.
 */
export function brandAsPainted(brandColor: string): { color: string; darkened: boolean; text: string; ratio: number } {
  const color = accentOf(brandColor);
  return { color, darkened: color.toUpperCase() !== brandColor.toUpperCase(), ...textOn(color) };
}

/** Whether the draft holds the chatbot's saved colours, which its API `warnings` describe. */
export function hasSavedColors(chatbot: Chatbot, draft: AppearanceDraft): boolean {
  const saved = appearanceOf(chatbot);
  const same = (a: string, b: string) => a.toUpperCase() === b.toUpperCase();
  return COLOR_FIELDS.every(([field]) => same(draft[field], saved[field])) && draft.useGradient === saved.useGradient
    && (!draft.useGradient || draft.gradient.every((stop, index) => same(stop, saved.gradient[index]!)));
}

/** WCAG AA warnings of the unsaved colours (the gradient's one text colour must read on all four stops). */
export function contrastWarnings(draft: AppearanceDraft): ColorWarning[] {
  return draft.useGradient && draft.gradient.every((color) => /^#(?:[0-9a-fA-F]{3}){1,2}$/.test(color))
    ? colorWarningsOf({ gradientColors: draft.gradient }) : [];
}
