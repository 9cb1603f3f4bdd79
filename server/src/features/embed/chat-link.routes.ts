import { existsSync } from 'node:fs';
import path from 'node:path';
import { Router } from 'express';
import { IdSchema } from '@parley/shared';
import type { ChatbotsRepository } from '../chatbots/chatbots.repository.js';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>
html, body { margin: 0; height: 100%; background: #eef0f3; font-family: system-ui, sans-serif; color: #1f2937; }
main { height: 100vh; height: 100dvh; max-width: 760px; margin: 0 auto; background: #fff; box-shadow: 0 0 40px rgb(15 23 42 / 0.08); }
.message { display: grid; place-items: center; height: 100%; padding: 2rem; text-align: center; }
</style>
</head>
<body>
<main>${body}</main>
</body>
</html>
`;
}

const unavailable = (text: string) => page('Chat unavailable', `<p class="message">${escapeHtml(text)}</p>`);

/**
 * `GET /chat/{chatbotId}`: the "chatbot link", a full-page chat on the service's own origin
 * with the same widget (mode="page"); its conversations are saved with source `link`. A strict
 * Content-Security-Policy keeps any injected markup inert.
 */
// A page for people, not an API answer: its 404/403/503 are small HTML pages rather than the
// API's JSON error body, so this route writes them itself.
export function chatLinkRoutes(chatbots: ChatbotsRepository, widgetDir: string, publicUrl: string): Router {
  const router = Router();
  const csp = [
    "default-src 'none'", "script-src 'self'", "connect-src 'self'", `img-src 'self' ${new URL(publicUrl).origin} data:`,
    "style-src 'self' 'unsafe-inline'", "base-uri 'none'", "form-action 'none'", "frame-ancestors 'self'",
  ].join('; ');
  router.get('/chat/:chatbotId', async (req, res) => {
    res.set({ 'content-security-policy': csp, 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' }).type('html');
    const id = IdSchema.safeParse(req.params.chatbotId);
    const chatbot = id.success ? await chatbots.findPublic(id.data) : undefined;
    if (!chatbot) return void res.status(404).send(unavailable('This chat does not exist.'));
    if (chatbot.accessLevel === 'PROTECTED') return void res.status(403).send(unavailable('This chat is not public.'));
    if (!existsSync(path.join(widgetDir, 'widget.js'))) {
      return void res.status(503).send(unavailable('The chat is not ready: the widget has not been built yet (npm run build).'));
    }
    res.status(200).send(page(chatbot.name,
      `<chatbot-widget chatbot-id="${chatbot.id}" mode="page"></chatbot-widget>\n<script src="/widget.js" async></script>`));
  });
  return router;
}
