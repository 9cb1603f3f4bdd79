import { defineConfig } from 'vitest/config';

const integration = ['server/**/*.int.test.ts'];
const serverProject = (name: string, database: 'pglite' | 'postgres') => ({
  test: {
    name,
    include: integration,
    env: { TEST_DATABASE: database },
    globalSetup: ['server/src/test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

/**
 * Node-side tests of the whole repository: shared and server unit tests once, and the server's
 * integration tests twice, on PGlite and on the PostgreSQL server (`TEST_POSTGRES_URL`).
 * Widget components are tested in Chromium through @web/test-runner, e2e journeys through Playwright.
 */
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'shared', include: ['shared/src/**/*.test.ts'] } },
      // The widget's build-time code (its components are tested in Chromium).
      { test: { name: 'widget-build', include: ['widget/scripts/**/*.test.ts'] } },
      { test: { name: 'server', include: ['server/**/*.test.ts'], exclude: [...integration, '**/node_modules/**'], testTimeout: 30_000 } },
      serverProject('server-pglite', 'pglite'),
      serverProject('server-postgres', 'postgres'),
    ],
  },
});
