// First: zod's configuration must be set before @parley/shared builds its schemas.
import './app/zod-jitless.js';
import './console.css';
import './app/console-app.js';
