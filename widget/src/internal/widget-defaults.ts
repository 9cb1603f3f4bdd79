/**
 * The lazily loaded files of the build, by name (`emoji`, `locale-ar`, …). vite.config.ts writes
 * their hashed file names into the built widget.js in place of the placeholder; embed.ts then
 * makes them absolute. Outside a build (component tests) the map starts empty.
 */
function builtChunks(): Record<string, string> {
  try {
    return JSON.parse('__PARLEY_CHUNKS__') as Record<string, string>;
  } catch {
    return {};
  }
}

/**
 * Where the widget's files and API live, learned from the `<script>` tag that loaded it
 * (embed.ts). Empty values mean "not known": the element then uses the page's own origin.
 */
export const widgetDefaults = {
  /** Origin of the Parley service (the embed API). */
  apiBase: '',
  /**
   * Absolute URLs of the lazily loaded modules. They must be absolute: Chromium resolves
   * `import()` in a cross-origin classic script against about:blank, not the script's URL.
   */
  chunks: builtChunks(),
};
