import { loadConfig } from './config.js';
import { createLogger, exitOnCrash, flushLogger } from './logger.js';
import { transcriptionSummary } from './features/resources/create-resources.js';
import { startService } from './runtime.js';

const config = loadConfig();
const logger = createLogger(config.logLevel);
exitOnCrash(logger);
const service = await startService(config, logger).catch((err: NodeJS.ErrnoException) => {
  if (err?.code !== 'EADDRINUSE' && err?.code !== 'EACCES') throw err;
  // Said plainly, not as a crash: the usual cause is another Parley (or program) on the port.
  const reason = err.code === 'EADDRINUSE' ? 'the port is already in use (another Parley, or another program?)' : 'permission denied';
  process.stderr.write(`Parley cannot listen on port ${config.port}: ${reason}. Stop the other one, or start on another port: PORT=3001 npm start\n`);
  process.exit(1);
});

// PORT=0 picks a free port: then only the listening address is known.
const publicUrl = config.port === 0 ? service.url : config.publicUrl;
const lines = [
  `Parley is running at ${publicUrl}`, `  Owner console: ${publicUrl}/ (sign in with an API key)`, `  API reference: ${publicUrl}/docs`,
  '  Models:', ...service.services.models.routingSummary().map((line) => `    ${line}`),
  `  Videos without subtitles: ${transcriptionSummary(config)}`,
];
if (service.bootstrapped && config.bootstrapApiKey) {
  // The operator chose this key and already has it: it is not repeated into logs and terminals.
  lines.push('', '  The first organisation was created with the API key given in BOOTSTRAP_API_KEY.');
} else if (service.bootstrapped) {
  const key = service.bootstrapped.apiKey;
  lines.push(
    '',
    `  Your first API key (shown once, keep it safe): ${key}`,
    `  Open ${publicUrl}/ and paste it to sign in to the console.`,
    `  Try it: curl -H "x-api-key: ${key}" ${publicUrl}/v1/chatbot/all`,
    '  More keys: npm run -s keys -- create --org "My company"',
  );
}
process.stdout.write(`\n${lines.join('\n')}\n\n`);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) process.exit(1);
    stopping = true;
    logger.info({ signal }, 'shutting down');
    service.close().then(async () => {
      await flushLogger(logger);
      process.exit(0);
    }, async (err) => {
      logger.error({ err }, 'shutdown failed');
      await flushLogger(logger);
      process.exit(1);
    });
  });
}
