import { defaultReporter } from '@web/test-runner';
import { junitReporter } from '@web/test-runner-junit-reporter';
import { playwrightLauncher } from '@web/test-runner-playwright';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { wireSchemasPlugin } from './scripts/wire-schemas-plugin.mjs';

// Debian's Chromium in containers: no sandbox, no GPU, nothing phoning home (stack-notes.md § 4).
const args = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync'];

export default {
  rootDir: '..',
  files: 'src/**/*.test.ts',
  nodeResolve: true,
  concurrency: 1,
  testFramework: { config: { timeout: 5000 } },
  plugins: [wireSchemasPlugin(), esbuildPlugin({ ts: true, tsconfig: new URL('./tsconfig.json', import.meta.url).pathname, target: 'es2022' })],
  browsers: [playwrightLauncher({
    product: 'chromium',
    launchOptions: { executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium', headless: true, args },
  })],
  reporters: [defaultReporter(), junitReporter({ outputPath: new URL('./test-results/junit.xml', import.meta.url).pathname })],
};
