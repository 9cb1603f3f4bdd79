import type { ErrorBody, Id } from '@parley/shared';

const STATUS_TEXT = {
  400: 'Bad Request', 401: 'Unauthorized', 402: 'Payment Required', 403: 'Forbidden', 404: 'Not Found',
  409: 'Conflict', 413: 'Payload Too Large', 415: 'Unsupported Media Type', 500: 'Internal Server Error',
  502: 'Bad Gateway', 503: 'Service Unavailable',
} as const;

export type HttpStatus = keyof typeof STATUS_TEXT;

/** An error the API reports as-is. Anything that is not one becomes a bare 500. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: HttpStatus,
    readonly messages: readonly string[],
    readonly extra: { chatbots?: Id[] } = {},
    /** Response headers that belong to the answer (a 503's `Retry-After`). */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(messages.join('; '));
    this.name = 'HttpError';
  }

  toBody(): ErrorBody {
    return { statusCode: this.statusCode, message: [...this.messages], error: STATUS_TEXT[this.statusCode], ...this.extra };
  }

  /** The fields of a stream `error` event, whose `message` is a single string. */
  toStreamFields(): { statusCode: number; message: string; error: string } {
    return { statusCode: this.statusCode, message: this.message, error: STATUS_TEXT[this.statusCode] };
  }
}

export const badRequest = (...messages: string[]) => new HttpError(400, messages);
export const unauthorized = (message = 'a valid x-api-key header is required') => new HttpError(401, [message]);
export const usageLimitExceeded = (message: string) => new HttpError(402, [message]);
export const forbidden = (message: string) => new HttpError(403, [message]);
export const notFound = (what: string) => new HttpError(404, [`${what} not found`]);
export const conflict = (message: string, extra: { chatbots?: Id[] } = {}) => new HttpError(409, [message], extra);
export const internalError = () => new HttpError(500, ['Internal server error']);
/** Too busy for now: a 503 that tells the client when to come back. */
export const serviceUnavailable = (message: string, retryAfterSeconds: number) =>
  new HttpError(503, [message], {}, { 'Retry-After': String(retryAfterSeconds) });
