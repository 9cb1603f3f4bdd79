import { widgetDefaults } from '../internal/widget-defaults.js';
import { en, type Strings } from './en.js';

/** Languages the widget speaks besides English; each is a lazily loaded file (`locale-xx`). */
export const LOCALES = ['ar', 'de', 'es', 'fa', 'fr', 'he', 'it', 'ja', 'nl', 'pt', 'zh'] as const;
const RTL = new Set(['ar', 'fa', 'he']);

/** The texts of the current language (English until another language is loaded). */
export const strings = { ...en } as Strings;

/** The language in use, and its writing direction. */
export const language = { tag: 'en', dir: 'ltr' as 'ltr' | 'rtl' };

/** `template` with each `{key}` replaced by `values[key]`. */
export function format(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => String(values[key] ?? whole));
}

/** The supported language for a BCP 47 tag (`pt-BR` → `pt`), or English. */
export function pickLanguage(tag: string | undefined): string {
  const primary = (tag ?? '').toLowerCase().split('-')[0] ?? '';
  return (LOCALES as readonly string[]).includes(primary) ? primary : 'en';
}

/**
 * Switches the widget's texts to the owner's language, or else the visitor's browser language.
 * The language file is fetched only when needed; on any failure the widget stays in English.
 */
export async function useLanguage(tag: string | undefined): Promise<void> {
  const picked = pickLanguage(tag ?? navigator.language);
  let loaded: Partial<Strings> = en;
  if (picked !== 'en') {
    try {
      const url = widgetDefaults.chunks[`locale-${picked}`];
      if (url) loaded = ((await import(/* @vite-ignore */ url)) as { STRINGS: Strings }).STRINGS;
    } catch {
      loaded = en;
    }
  }
  const ok = loaded !== en;
  Object.assign(strings, en, loaded);
  language.tag = ok ? picked : 'en';
  language.dir = ok && RTL.has(picked) ? 'rtl' : 'ltr';
}
