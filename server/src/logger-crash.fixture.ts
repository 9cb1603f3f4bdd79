// A process that logs through the service's logger to the file named in argv[2], then crashes
// with an uncaught exception (logger.test.ts checks that every line reached the file).
import { createLogger, exitOnCrash } from './logger.js';

const logger = createLogger('info', process.argv[2]);
exitOnCrash(logger);
logger.info('an ordinary line, still in the buffer');
setTimeout(() => {
  throw new Error('boom');
}, 10);
