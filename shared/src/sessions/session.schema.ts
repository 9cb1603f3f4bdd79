import { z } from 'zod';
import { EmailSchema, MemberSchema } from '../members/member.schema.js';

/** The header that carries a console session's CSRF token on every state-changing call. */
export const CSRF_HEADER = 'x-csrf-token';

/** The HttpOnly cookie that carries a console session. */
export const SESSION_COOKIE = 'parley_session';

/** `POST /v1/session`: the owner proves an API key once; the key is not kept by the browser. */
export const KeySignInSchema = z.strictObject({
  apiKey: z.string().min(1, 'must not be empty').max(200, 'must be at most 200 characters')
    .meta({ description: 'An API key of the organisation (`pk_…`).', example: 'pk_your-key' }),
});

/** `POST /v1/session` for a member (extension): e-mail and password. */
export const PasswordSignInSchema = z.strictObject({
  email: EmailSchema,
  password: z.string().min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
});

/** `POST /v1/session`: an API key, or a member's e-mail and password. */
export const SessionCreateSchema = z.union([KeySignInSchema, PasswordSignInSchema]);
export type SessionCreate = z.infer<typeof SessionCreateSchema>;

/**
 * A console session as its page sees it. The session itself is the HttpOnly cookie; `csrfToken`
 * must be echoed in the `x-csrf-token` header of every POST, PUT and DELETE made with the cookie.
 */
export const SessionSchema = z.object({
  csrfToken: z.string(),
  expiresAt: z.int().meta({ description: 'Unix ms.' }),
  organisation: z.string().meta({ description: 'The organisation id.' }),
  organisationName: z.string(),
  features: z.object({
    hostedVideo: z.boolean().meta({ description: 'Whether a video host is configured (`VIDEO_HOST_URL`), so hosted videos can be added.' }),
  }).meta({ description: 'What this service is set up for, so the console offers only what works.' }),
  /** Extension: the member signed in; absent for a session made with an API key. */
  member: MemberSchema.optional(),
  /** Extension: true while the organisation has no members (the console then offers to create the owner). */
  needsOwner: z.boolean().optional(),
});

/** `GET /v1/session/methods` (extension): which sign-in forms the console shows first. */
export const SignInMethodsSchema = z.object({
  password: z.boolean().meta({ description: 'Whether any member account exists (e-mail and password sign-in).' }),
  mail: z.boolean().optional().meta({ description: 'Extension: whether the service sends mail (`SMTP_URL` set), so a forgotten password can be reset by an e-mailed link.' }),
});
export type Session = z.infer<typeof SessionSchema>;
