import { z } from 'zod';

/** A HEX color, `#RGB` or `#RRGGBB` (decisions.md § Chatbots). */
export const ColorSchema = z.string().regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, 'must be a hex color (#RGB or #RRGGBB)');
export type Color = z.infer<typeof ColorSchema>;

/** The chatbot gradient: exactly four colors. */
export const GradientColorsSchema = z.array(ColorSchema).length(4, 'must contain exactly 4 colors');
