/**
 * Where the widget's files and API live, learned from the `<script>` tag that loaded it
 * (embed.ts). Empty values mean "not known": the element then uses the page's own origin.
 */
export const widgetDefaults = {
  /** Origin of the Parley service (the embed API). */
  apiBase: '',
  /**
   * Absolute URL of the lazily loaded emoji module. It must be absolute: Chromium resolves
   * `import()` in a cross-origin classic script against about:blank, not the script's URL.
   */
  emojiModuleUrl: '',
};
