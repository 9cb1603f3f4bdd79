import { defineConfig } from 'vitest/config';

const integration = ['server/**/*.int.test.ts'];
/**
 * Tests that time how a service answers under load (`/health` within 500 ms while it indexes a
 * 5,000,000-character text, a text DONE within 10 s while crawls hold the slots): they run after
 * every other test, one file at a time, so the machine's other work does not count as the service's.
 */
const alone = ['server/**/*.alone.int.test.ts'];
const serverProject = (name: string, database: 'pglite' | 'postgres', timed?: { groupOrder: number }) => ({
  test: {
    name,
    include: timed ? alone : integration,
    exclude: timed ? [] : alone,
    env: { TEST_DATABASE: database },
    globalSetup: ['server/src/test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    ...(timed ? { fileParallelism: false, sequence: { groupOrder: timed.groupOrder } } : {}),
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
      serverProject('server-pglite-timed', 'pglite', { groupOrder: 1 }),
      serverProject('server-postgres-timed', 'postgres', { groupOrder: 2 }),
    ],
  },
});
