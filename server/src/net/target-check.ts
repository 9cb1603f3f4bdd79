import dns from 'node:dns/promises';
import net from 'node:net';
import { isPublicAddress } from './address-policy.js';

/**
 * Why a URL may not be fetched on a user's behalf, checked when it is stored (a webhook endpoint):
 * not http(s), or a host that is, or resolves to, a non-public address. A host that does not
 * resolve now is accepted; every fetch checks again after DNS (safe-fetch.ts).
 * @returns the reason, or undefined when the URL is acceptable.
 */
export async function refusedTarget(target: string, allowPrivateNetworks: boolean): Promise<string | undefined> {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return 'is not a URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http or https URL';
  if (url.username || url.password) return 'must not hold a user name or password';
  if (allowPrivateNetworks) return undefined;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(host)) return isPublicAddress(host) ? undefined : `points at ${host}, which is not a public address`;
  const answers = await dns.lookup(host, { all: true }).catch(() => []);
  const refused = answers.find((answer) => !isPublicAddress(answer.address));
  return refused ? `resolves to ${refused.address}, which is not a public address` : undefined;
}
