import type { RequestHandler } from 'express';

/**
 * The default for every answer: no MIME sniffing, no framing, and a Content-Security-Policy that
 * allows nothing. A page that needs more (the docs, the chat link) sets its own policy; any other
 * HTML (an error page, a page added later) stays inert and unframeable.
 */
const DEFAULT_HEADERS = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'referrer-policy': 'strict-origin-when-cross-origin',
} as const;

const HEADER_ENTRIES = Object.entries(DEFAULT_HEADERS);

export const securityHeaders: RequestHandler = (_req, res, next) => {
  // Node's own setHeader: Express's res.set parses each value for a content type first.
  for (const [name, value] of HEADER_ENTRIES) res.setHeader(name, value);
  next();
};

/** The docs page: Swagger UI's own script and styles (it sets inline styles), and requests to this service only. */
export const DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'none'", "script-src 'self'", "style-src 'self' 'unsafe-inline'", "img-src 'self' data:", "connect-src 'self'",
  "font-src 'self' data:", "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'",
].join('; ');
