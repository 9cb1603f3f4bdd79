import { z } from 'zod';

/**
 * Zod 4 compiles object parsers with `new Function` when it can, and finds out whether it can by
 * trying once as each object schema is built. Under the console's policy (script-src 'self', no
 * 'unsafe-eval') that probe is refused: zod falls back quietly, but the browser reports a CSP
 * violation on every load. `jitless` skips the probe and the compiling (zod's documented option).
 * It must run before any schema is built, so main.ts imports this module first.
 */
z.config({ jitless: true });
