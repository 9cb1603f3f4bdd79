// What the chatbot GET bench runs, compiled as production compiles it (built-modules.ts).
export { createApp } from '../src/app.js';
export { loadConfig } from '../src/config.js';
export { ChatbotsRepository } from '../src/features/chatbots/chatbots.repository.js';
export { createLogger } from '../src/logger.js';
export { createServices } from '../src/services.js';
