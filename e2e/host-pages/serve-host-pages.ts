import http from 'node:http';
import { hostPageHtml } from './host-page.js';

// Serves site owners' pages for the journeys: any host name (Chromium maps *.test to 127.0.0.1),
// so http://allowed.test:PORT/ and http://refused.test:PORT/ are different origins on loopback.
// GET /?chatbotId=ID[&csp=1][&direct=1] answers a page embedding the widget from SERVICE_URL.
const port = Number(process.env.HOST_PAGES_PORT ?? 3918);
const serviceUrl = process.env.SERVICE_URL ?? 'http://127.0.0.1:3917';

/** A bakery's page whose special changes at every fetch, so each crawl of it reads new text. */
const SPECIALS = ['lemon drizzle cake', 'cinnamon buns', 'cherry bakewell tart'];
let bakeryFetches = 0;

http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://host');
  if (url.pathname === '/health') return void res.end('ok');
  if (url.pathname === '/bakery/') {
    const special = SPECIALS[bakeryFetches++ % SPECIALS.length];
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html><head><title>Crumb bakery</title></head><body><main><h1>Crumb bakery</h1><p>Today's special is ${special}.</p></main></body></html>`);
    return;
  }
  const chatbotId = url.searchParams.get('chatbotId') ?? '';
  if (url.pathname !== '/' || !/^[0-9a-f]{24}$/.test(chatbotId)) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(hostPageHtml({ chatbotId, serviceUrl, csp: url.searchParams.get('csp') === '1', direct: url.searchParams.get('direct') === '1' }));
}).listen(port, '127.0.0.1');
