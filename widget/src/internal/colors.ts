// Color helpers: the widget derives readable text colors and an accent from the owner's colors.

function rgbOf(hex: string): [number, number, number] {
  let digits = hex.slice(1);
  if (digits.length === 3) digits = [...digits].map((d) => d + d).join('');
  const n = Number.parseInt(digits, 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/** WCAG relative luminance of a `#RGB`/`#RRGGBB` color. */
export function luminance(hex: string): number {
  const [r, g, b] = rgbOf(hex).map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** Dark text on light backgrounds, white on dark ones. */
export function textOn(hex: string): string {
  return luminance(hex) > 0.4 ? '#111827' : '#ffffff';
}

/**
 * A saturated accent in the hue of `hex`: the owner's message colors are usually pastel, too
 * pale for a button, so the accent keeps their hue at a darker, readable lightness.
 */
export function accentOf(hex: string): string {
  const [r, g, b] = rgbOf(hex).map((c) => c / 255) as [number, number, number];
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const l = (max + min) / 2;
  if (l <= 0.55) return hex;
  const d = max - min;
  let h = 215;
  if (d > 0.02) {
    h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
    h = Math.round(h * 60 + 360) % 360;
  }
  const s = d > 0.02 ? 65 : 20;
  return `hsl(${h} ${s}% 40%)`;
}
