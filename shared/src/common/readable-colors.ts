// Pure colour arithmetic shared by the server (warnings on chatbot responses) and the widget
// (the text colours it paints). No zod here: the widget bundles this file.

/** WCAG AA for normal text. */
export const MIN_CONTRAST = 4.5;

/** The widget's dark text; black is the fallback when this grey is not dark enough. */
export const DARK_TEXT = '#111827';
export const LIGHT_TEXT = '#ffffff';

type Rgb = [number, number, number];

function rgbOf(hex: string): Rgb {
  let digits = hex.slice(1);
  if (digits.length === 3) digits = [...digits].map((d) => d + d).join('');
  const n = Number.parseInt(digits, 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

const toHex = (rgb: Rgb) => `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;

/** WCAG relative luminance of a `#RGB`/`#RRGGBB` colour. */
export function luminance(hex: string): number {
  const [r, g, b] = rgbOf(hex).map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG contrast ratio of two colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** The colour in HSL (h in degrees, s and l in 0..1). */
export function hslOf(hex: string): Rgb {
  const [r, g, b] = rgbOf(hex).map((c) => c / 255) as Rgb;
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const l = (max + min) / 2;
  const d = max - min;
  if (d === 0) return [0, 0, l];
  const s = d / (1 - Math.abs(2 * l - 1));
  const h = max === r ? ((g - b) / d + 6) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  return [h * 60, s, l];
}

/** `#rrggbb` of an HSL colour (h in degrees, s and l in 0..1). */
export function hexOfHsl([h, s, l]: Rgb): string {
  const a = s * Math.min(l, 1 - l);
  const channel = (n: number) => {
    const k = (n + h / 30) % 12;
    return 255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1)));
  };
  return toHex([channel(0), channel(8), channel(4)]);
}

const worstContrast = (text: string, backgrounds: readonly string[]) => Math.min(...backgrounds.map((bg) => contrastRatio(text, bg)));

/** What to paint on one or several backgrounds (the stops of a gradient). */
export interface ReadablePair {
  /** The text colour. */
  text: string;
  /** The backgrounds to paint, the same as given unless one had to change. */
  backgrounds: string[];
  /** Whether a background was darkened or lightened to reach `MIN_CONTRAST`. */
  adjusted: boolean;
}

/**
 * A text colour that reads at `MIN_CONTRAST` or better on every one of `backgrounds`: the dark
 * grey, white or black, whichever reaches it on all; when none does (a gradient from light to
 * dark), white or black, whichever fewer stops fail, is kept and each failing background is
 * darkened (under white) or lightened (under black) in its own hue until it reaches it.
 */
export function readablePair(backgrounds: readonly string[]): ReadablePair {
  const candidates = [DARK_TEXT, LIGHT_TEXT, '#000000'];
  const scored = candidates.map((text) => ({ text, worst: worstContrast(text, backgrounds) }));
  const fits = scored.find((candidate) => candidate.worst >= MIN_CONTRAST);
  if (fits) return { text: fits.text, backgrounds: [...backgrounds], adjusted: false };
  // The text colour that leaves the fewest stops to change, so the gradient keeps most of its look.
  const failing = (text: string) => backgrounds.filter((bg) => contrastRatio(text, bg) < MIN_CONTRAST).length;
  const text = failing(LIGHT_TEXT) <= failing('#000000') ? LIGHT_TEXT : '#000000';
  const step = text === LIGHT_TEXT ? -0.01 : 0.01;
  const adjustedBackgrounds = backgrounds.map((bg) => {
    const [h, s, l] = hslOf(bg);
    let candidate = bg;
    for (let lightness = l; contrastRatio(text, candidate) < MIN_CONTRAST && lightness >= 0 && lightness <= 1; lightness += step) {
      candidate = hexOfHsl([h, s, Math.min(1, Math.max(0, lightness))]);
    }
    return candidate;
  });
  return { text, backgrounds: adjustedBackgrounds, adjusted: true };
}

/**
 * The accent the widget paints for a colour (its launcher, send button, focus rings and, without a
 * gradient, header): the colour itself when it stands out on white at 3.5:1, which keeps 3:1
 * (WCAG 1.4.11, for a button's edge and a focus ring) on the widget's light grey surfaces too;
 * otherwise the same hue, darker, until it does: from 40% lightness at 65% saturation for a pale
 * colour, and a slate blue for a grey. A yellow at 1.6:1 would leave the focus rings invisible.
 * The console shows this colour too.
 */
export function accentOf(hex: string): string {
  const [h, s] = hslOf(hex);
  let accent = hex;
  for (let lightness = 0.4; contrastRatio(accent, LIGHT_TEXT) < 3.5; lightness -= 0.02) {
    accent = hexOfHsl(s > 0.04 ? [h, 0.65, lightness] : [215, 0.2, lightness]);
  }
  return accent;
}
