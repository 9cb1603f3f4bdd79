import { LOCALES } from '../../i18n/i18n.js';
import { widgetDefaults } from '../widget-defaults.js';

/**
 * The built widget loads its hashed chunk files; in component tests the test server serves the
 * modules' sources instead.
 */
export function useSourceChunks(): void {
  widgetDefaults.chunks.emoji = new URL('../../lazy/emoji-data.ts', import.meta.url).href;
  for (const locale of LOCALES) widgetDefaults.chunks[`locale-${locale}`] = new URL(`../../i18n/locales/${locale}.ts`, import.meta.url).href;
}
