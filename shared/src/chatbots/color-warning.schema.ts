import { z } from 'zod';
import { ColorSchema } from '../common/color.schema.js';
import { MIN_CONTRAST, readablePair } from '../common/readable-colors.js';

/**
 * Extension: a colour setting the widget cannot paint as given, because no text colour reaches
 * WCAG AA (4.5:1) on it. The widget paints `adjustedTo` instead; owners see why in the API.
 */
export const ColorWarningSchema = z.object({
  field: z.literal('gradientColors'),
  colors: z.array(ColorSchema),
  adjustedTo: z.array(ColorSchema),
  textColor: ColorSchema,
  message: z.string(),
}).describe('Extension: a colour setting the widget adjusts so that its text reads at 4.5:1 or better.');
export type ColorWarning = z.infer<typeof ColorWarningSchema>;

/**
 * The warnings for a chatbot's colours. Each single colour always has a readable text colour
 * (dark or white), so only the gradient, whose one text colour must read on all four stops, can
 * need an adjustment.
 */
export function colorWarningsOf(colors: { gradientColors?: readonly string[] | null }): ColorWarning[] {
  if (!colors.gradientColors) return [];
  const pair = readablePair(colors.gradientColors);
  if (!pair.adjusted) return [];
  const changed = [...new Set(colors.gradientColors.filter((color, i) => pair.backgrounds[i] !== color))];
  return [{
    field: 'gradientColors',
    colors: [...colors.gradientColors],
    adjustedTo: pair.backgrounds,
    textColor: pair.text,
    message: `no text colour reads at ${MIN_CONTRAST}:1 on every gradient stop; the widget shows ${changed.join(', ')} `
      + `${pair.text === '#ffffff' ? 'darker' : 'lighter'} under ${pair.text} text`,
  }];
}
