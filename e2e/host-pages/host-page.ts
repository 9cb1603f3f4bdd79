/** Options of a site owner's page that embeds the widget. */
export interface HostPageOptions {
  chatbotId: string;
  /** Where widget.js is served from (the Parley service). */
  serviceUrl: string;
  title?: string;
  /** A strict Content-Security-Policy like careful site owners use (meta tag). */
  csp?: boolean;
  /** Use the element directly in the HTML with a module script, instead of the one-line embed. */
  direct?: boolean;
}

/**
 * A plain marketing page with the one-line embed, plus hostile global CSS: the widget's Shadow
 * DOM must keep it out (no red text, no giant fonts, no pink buttons inside the widget).
 */
export function hostPageHtml(options: HostPageOptions): string {
  const csp = options.csp
    ? `<meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src ${options.serviceUrl}; connect-src ${options.serviceUrl}; img-src ${options.serviceUrl} data:; style-src 'unsafe-inline'">`
    : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${csp}
<title>${options.title ?? 'Acme Outdoor Gear'}</title>
<style>
  body { margin: 0; font-family: Georgia, serif; color: #7f1d1d; background: #fffbeb; line-height: 2; }
  header { padding: 24px 48px; background: #1e3a8a; color: #fff; font-size: 28px; }
  main { padding: 24px 48px; max-width: 720px; }
  button { background: hotpink !important; font-size: 30px; border: 4px dashed lime; }
  p { font-size: 19px; }
  div { letter-spacing: 2px; }
</style>
</head>
<body>
<header>Acme Outdoor Gear</header>
<main>
  <h1>Tents, boots and everything in between</h1>
  <p>Our shop is open on weekdays and Saturdays. Questions about an order? Ask our assistant in the corner.</p>
  <p>Free returns within 30 days. Visit us in store or order online.</p>
  <button type="button">A host page button</button>
</main>
${options.direct
    ? `<chatbot-widget chatbot-id="${options.chatbotId}" api-base="${options.serviceUrl}"></chatbot-widget>
<script type="module" src="${options.serviceUrl}/widget.js"></script>`
    : `<script src="${options.serviceUrl}/widget.js" data-chatbot-id="${options.chatbotId}" async></script>`}
</body>
</html>`;
}
