import './components/chatbot-widget/chatbot-widget.js';
import { widgetDefaults } from './internal/widget-defaults.js';

// The script a site owner pastes:
//   <script src="https://HOST/widget.js" data-chatbot-id="ID" async></script>
// It defines <chatbot-widget> and mounts one for that chatbot. Optional attributes:
// data-api-base (where the service is, default: where this script came from), data-mode="page".
// `currentScript` is only set while a classic script runs, so it is read before anything awaits.
const script = (document.currentScript as HTMLScriptElement | null)
  ?? document.querySelector<HTMLScriptElement>('script[data-chatbot-id][src], script[src$="/widget.js"]');

function mount(): void {
  try {
    if (script?.src) {
      const src = new URL(script.src, location.href);
      widgetDefaults.apiBase = src.origin;
      for (const [name, file] of Object.entries(widgetDefaults.chunks)) widgetDefaults.chunks[name] = new URL(file, src).href;
    }
    const chatbotId = script?.dataset.chatbotId;
    if (!chatbotId || document.querySelector(`chatbot-widget[chatbot-id="${CSS.escape(chatbotId)}"]`)) return;
    // createElement, not `new`: another copy of the widget may have defined the element first.
    const widget = document.createElement('chatbot-widget');
    widget.setAttribute('chatbot-id', chatbotId);
    if (script.dataset.apiBase) widget.setAttribute('api-base', script.dataset.apiBase);
    if (script.dataset.mode === 'page') widget.setAttribute('mode', 'page');
    document.body.append(widget);
  } catch (err) {
    // The widget never throws into the host page (house-style.md § Errors, Widget).
    console.warn('[parley] the chat widget could not start', err);
  }
}

if (document.body) mount();
else document.addEventListener('DOMContentLoaded', mount, { once: true });
