import { hexOfHsl, hslOf } from '@parley/shared';

/**
 * A saturated accent in the hue of `hex`: the owner's message colors are usually pastel, too
 * pale for a button, so the accent keeps their hue at a darker lightness.
 */
export function accentOf(hex: string): string {
  const [h, s, l] = hslOf(hex);
  if (l <= 0.55) return hex;
  return hexOfHsl(s > 0.04 ? [h, 0.65, 0.4] : [215, 0.2, 0.4]);
}
