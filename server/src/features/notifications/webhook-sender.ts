import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type { WebhookSettings } from '../../config.js';
import { BlockedAddressError, safeFetch } from '../../net/safe-fetch.js';

/** A new Standard Webhooks signing secret: `whsec_` and 32 random bytes in base64. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** The `webhook-signature` header: one `v1,…` signature per live secret, space-separated (rotation). */
export function signatureHeader(secrets: readonly string[], messageId: string, at: Date, body: string): string {
  return secrets.map((secret) => new Webhook(secret).sign(messageId, at, body)).join(' ');
}

/** How one attempt went. */
export type AttemptOutcome =
  | { kind: 'delivered'; status: number }
  /** Worth trying again later: a timeout, a network error, 408, 429 or 5xx. */
  | { kind: 'retry'; status?: number; error: string }
  /** Never worth retrying: another 4xx, a redirect, or an address the guard refuses. */
  | { kind: 'final'; status?: number; error: string };

/** Which statuses are worth another attempt. */
function retryable(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/**
 * POSTs one signed message (Standard Webhooks headers) through the crawler's SSRF guard: the host
 * is checked after DNS, the connection uses the checked address; a short deadline and a cap on how
 * much of the answer is read.
 */
export async function sendWebhook(
  settings: WebhookSettings, target: { url: string; secrets: readonly string[] }, message: { id: string; body: string }, signal?: AbortSignal,
): Promise<AttemptOutcome> {
  const at = new Date();
  try {
    const response = await safeFetch(target.url, {
      allowPrivateNetworks: settings.allowPrivateNetworks, method: 'POST', body: message.body, maxRedirects: 0,
      timeoutMs: settings.timeoutMs, maxBytes: settings.maxResponseBytes, truncateBody: true, ...(signal ? { signal } : {}),
      headers: {
        'content-type': 'application/json', 'user-agent': 'Parley-Webhooks/1.0',
        'webhook-id': message.id, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        'webhook-signature': signatureHeader(target.secrets, message.id, at, message.body),
      },
    });
    if (response.status >= 200 && response.status < 300) return { kind: 'delivered', status: response.status };
    const error = `the endpoint answered ${response.status}`;
    return retryable(response.status) ? { kind: 'retry', status: response.status, error } : { kind: 'final', status: response.status, error };
  } catch (err) {
    const error = err instanceof Error ? err.message : String(err);
    if (err instanceof BlockedAddressError) return { kind: 'final', error };
    // A redirect is not followed (the body would be sent elsewhere): final.
    if (/redirects too many times/.test(error)) return { kind: 'final', error: 'the endpoint answered with a redirect, which is not followed' };
    return { kind: 'retry', error };
  }
}

/** The delay before retry `attempt` (1-based): exponential, with full jitter over its upper half. */
export function retryDelay(settings: WebhookSettings, attempt: number, random = Math.random): number {
  const ceiling = Math.min(settings.retryMaxMs, settings.retryBaseMs * 2 ** Math.min(30, attempt - 1));
  return Math.round(ceiling / 2 + random() * ceiling / 2);
}
