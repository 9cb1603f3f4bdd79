import type { WebsiteIntegration } from '@parley/shared';

/** Where an embed request comes from, as the browser tells it. */
export interface RequestOrigin {
  /** The `Origin` header, when sent. */
  origin?: string;
  /** `Sec-Fetch-Site` (browsers set it; pages cannot): `same-origin` for the service's own chat page. */
  secFetchSite?: string;
  /** `Referer`: which page of the service's own origin sent the request. */
  referer?: string;
}

/** The verdict on an embed request's origin and the conversation source it implies. */
export type OriginDecision =
  /** `origin` is the request's origin as parsed and serialised, the only form ever echoed in CORS. */
  | { allowed: true; sourceType: 'website' | 'link'; origin?: string }
  | { allowed: false; reason: string };

/** Whether `host` matches an allowed domain: exact, or `*.example.com` for subdomains only. */
export function hostMatches(host: string, allowed: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  const a = allowed.toLowerCase();
  return a.startsWith('*.') ? h.endsWith(a.slice(1)) && h.length > a.length - 1 : h === a;
}

/**
 * The `Origin` header when it is exactly a serialised http(s) origin (`scheme://host[:port]`), else
 * undefined: `http://example.com\\@evil.com` parses as example.com but is not what a browser sends,
 * so it is neither matched nor echoed.
 */
export function parseOrigin(value: string | undefined): URL | undefined {
  if (value === undefined) return undefined;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === value ? url : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether a same-origin request comes from the chat link page (`/chat/{id}`). Without a Referer
 * (a strict referrer policy) it is assumed to; with one, a widget on a site proxied onto the
 * service's origin still counts as `website`.
 */
function fromChatPage(referer: string | undefined): boolean {
  if (referer === undefined) return true;
  try {
    return new URL(referer).pathname.startsWith('/chat/');
  } catch {
    return true;
  }
}

/**
 * Applies decisions.md § Public embed traffic: the service's own chat page (same origin) is
 * always allowed and is the `link` source; with a non-empty `allowedDomains`, any other request
 * needs an `Origin` whose host matches; with none, every origin may embed the chatbot.
 */
export function decideOrigin(request: RequestOrigin, publicOrigin: string, integration: WebsiteIntegration | null): OriginDecision {
  const parsed = parseOrigin(request.origin);
  const echo = parsed ? { origin: parsed.origin } : {};
  // Sec-Fetch-Site is set by the browser and cannot be set by page scripts: same-origin means a page
  // of this service, even when it is reached under another name than PUBLIC_URL (localhost vs 127.0.0.1).
  if (parsed?.origin === publicOrigin || request.secFetchSite === 'same-origin') {
    return { allowed: true, sourceType: fromChatPage(request.referer) ? 'link' : 'website', ...echo };
  }
  const allowedDomains = integration?.allowedDomains ?? [];
  if (allowedDomains.length === 0) return { allowed: true, sourceType: 'website', ...echo };
  if (request.origin === undefined) return { allowed: false, reason: 'this chatbot only answers pages of its allowed domains (no Origin was sent)' };
  if (!parsed) return { allowed: false, reason: 'the Origin header is not a valid origin' };
  if (allowedDomains.some((allowed) => hostMatches(parsed.hostname, allowed))) return { allowed: true, sourceType: 'website', ...echo };
  return { allowed: false, reason: `this chatbot is not embeddable on ${parsed.hostname}` };
}
