import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

// One server for the whole run: the real service on the built-in local engine, with its own
// embedded database in a temporary DATA_DIR. Workers inherit the environment, so they reuse it.
process.env.PARLEY_E2E_DATA_DIR ??= mkdtempSync(path.join(os.tmpdir(), 'parley-e2e-'));
process.env.PARLEY_E2E_PORT ??= process.env.E2E_PORT ?? '3917';
process.env.PARLEY_E2E_HOST_PAGES_PORT ??= String(Number(process.env.PARLEY_E2E_PORT) + 1);
process.env.PARLEY_E2E_API_KEY ??= 'parley-e2e-bootstrap-key-0123456789';
const port = process.env.PARLEY_E2E_PORT;
const hostPagesPort = process.env.PARLEY_E2E_HOST_PAGES_PORT;
const baseURL = `http://127.0.0.1:${port}`;

// Debian's Chromium in a container (stack-notes.md § 4); `*.test` host pages resolve to loopback.
const chromiumArgs = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--host-resolver-rules=MAP *.test 127.0.0.1',
];

export default defineConfig({
  testDir: './tests',
  outputDir: './test-results/artifacts',
  // The machine is small and every journey talks to one embedded database.
  workers: 1,
  fullyParallel: false,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [['list'], ['json', { outputFile: 'test-results/results.json' }]],
  globalTeardown: './fixtures/global-teardown.ts',
  use: {
    baseURL,
    browserName: 'chromium',
    launchOptions: { executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium', args: chromiumArgs },
    trace: 'retain-on-failure',
  },
  webServer: [{
    // The compiled server, as `npm start` runs it (the build refreshes whatever is stale; the server serves widget/dist).
    command: 'node scripts/build.mjs --if-stale && node --enable-source-maps server/dist/main.js',
    cwd: '..',
    url: `${baseURL}/health`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: port,
      HOST: '127.0.0.1',
      PUBLIC_URL: baseURL,
      DATA_DIR: process.env.PARLEY_E2E_DATA_DIR,
      BOOTSTRAP_API_KEY: process.env.PARLEY_E2E_API_KEY,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      EMBED_VISITOR_RATE_LIMIT: '1000',
      ANALYSIS_DELAY_MS: '0',
      EMBED_SESSION_RATE_LIMIT: '100',
      // Every test signs the console in with the one bootstrap key, from one address, in parallel.
      CONSOLE_SIGN_IN_RATE_LIMIT: '10000', CONSOLE_SIGN_IN_KEY_RATE_LIMIT: '10000', CONSOLE_SESSIONS_PER_KEY: '10000',
      // The Notifications journey's webhook receiver listens on loopback.
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      // Offline: the local engine answers, whatever the developer's shell holds.
      OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', GOOGLE_GENERATIVE_AI_API_KEY: '',
      // The journeys' websites are the host pages, on loopback.
      CRAWL_ALLOW_PRIVATE_NETWORKS: 'true',
    },
  }, {
    // Site owners' pages on other origins (http://<anything>.test:PORT/), also on loopback, as
    // Chromium blocks public pages from loading loopback resources (Private Network Access).
    command: 'node --import tsx host-pages/serve-host-pages.ts',
    url: `http://127.0.0.1:${hostPagesPort}/health`,
    reuseExistingServer: false,
    env: { HOST_PAGES_PORT: hostPagesPort, SERVICE_URL: baseURL },
  }],
});
