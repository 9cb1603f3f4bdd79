import './console.css';
import './app/console-app.js';
