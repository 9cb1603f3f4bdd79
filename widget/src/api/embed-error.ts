/**
 * A failed embed call. `status` is the HTTP status (0 for a network failure, -1 for an answer
 * that did not have the expected shape); `messages` are the server's human-readable reasons.
 */
export class EmbedError extends Error {
  constructor(readonly status: number, readonly messages: readonly string[] = []) {
    super(messages.join('; ') || `request failed (${status})`);
    this.name = 'EmbedError';
  }
}
