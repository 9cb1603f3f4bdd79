import { z } from 'zod';
import { IdSchema } from '../common/id.schema.js';

/**
 * A member's role. `OWNER`: everything, members and API keys included. `ADMIN`: everything but
 * members and keys. `AGENT`: the inbox, conversations, leads and the playground; reads chatbots and
 * knowledge but cannot change them.
 */
export const RoleSchema = z.enum(['OWNER', 'ADMIN', 'AGENT']);
export type Role = z.infer<typeof RoleSchema>;

/** The fewest characters a member's password may have. */
export const MIN_PASSWORD_LENGTH = 10;

/** A password as a member sets it: checked against common passwords by the server too. */
export const PasswordSchema = z.string()
  .min(MIN_PASSWORD_LENGTH, `must be at least ${MIN_PASSWORD_LENGTH} characters`)
  .max(200, 'must be at most 200 characters')
  .meta({ description: `At least ${MIN_PASSWORD_LENGTH} characters, and not a commonly used password.` });

/** An e-mail address; the server compares them in lower case. */
export const EmailSchema = z.email('must be an e-mail address').max(254, 'must be at most 254 characters')
  .meta({ example: 'sam@example.com' });

export const MemberNameSchema = z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters');

/** A member of the organisation as the API shows it (never the password). */
export const MemberSchema = z.object({
  id: IdSchema,
  email: z.string(),
  name: z.string(),
  role: RoleSchema,
  avatarUrl: z.string().optional(),
  createdAt: z.int().meta({ description: 'Unix ms.' }),
});
export type Member = z.infer<typeof MemberSchema>;
export const MemberListSchema = z.array(MemberSchema);

/** `POST /v1/member/invitation`. */
export const InvitationCreateSchema = z.strictObject({ email: EmailSchema, role: RoleSchema });
export type InvitationCreate = z.input<typeof InvitationCreateSchema>;

/** An invitation just made: the link is shown once, to be handed to the invitee. */
export const InvitationSchema = z.object({
  token: z.string().meta({ description: 'The secret of the invitation; works once.' }),
  url: z.string().meta({ description: 'The console page where the invitee sets a name and password.' }),
  expiresAt: z.int().meta({ description: 'Unix ms; 7 days after it was made.' }),
  mailed: z.boolean().optional().meta({ description: 'Extension: true when the link was also e-mailed to the invitee (mail is on: `SMTP_URL`).' }),
});
export type Invitation = z.infer<typeof InvitationSchema>;

export const InvitationTokenParamsSchema = z.strictObject({
  token: z.string().regex(/^[\w-]{43}$/, 'must be an invitation token'),
});

/** `POST /v1/member/invitation/{token}/accept`. */
export const InvitationAcceptSchema = z.strictObject({ name: MemberNameSchema, password: PasswordSchema });
export type InvitationAccept = z.input<typeof InvitationAcceptSchema>;

/** `POST /v1/member/password-reset`: asks for a reset link by e-mail. */
export const PasswordResetRequestSchema = z.strictObject({ email: EmailSchema });
export type PasswordResetRequest = z.input<typeof PasswordResetRequestSchema>;

export const PasswordResetTokenParamsSchema = z.strictObject({
  token: z.string().regex(/^[\w-]{43}$/, 'must be a password reset token'),
});

/** `POST /v1/member/password-reset/{token}`: the new password. */
export const PasswordResetSchema = z.strictObject({ password: PasswordSchema });
export type PasswordReset = z.input<typeof PasswordResetSchema>;

/** `POST /v1/member/owner`: the first account of an organisation that has none. */
export const OwnerCreateSchema = z.strictObject({ email: EmailSchema, name: MemberNameSchema, password: PasswordSchema });
export type OwnerCreate = z.input<typeof OwnerCreateSchema>;

/** `PUT /v1/member/me`: the signed-in member's own name and avatar (absent fields stay). */
export const MemberProfileUpdateSchema = z.strictObject({
  name: MemberNameSchema.optional(),
  avatarUrl: z.union([
    z.url({ protocol: /^https$/, error: 'must be an https URL' }).max(2000, 'must be at most 2000 characters'),
    z.null(),
  ]).optional().meta({ description: 'An https image URL, or null to remove it.' }),
});
export type MemberProfileUpdate = z.input<typeof MemberProfileUpdateSchema>;

/** A named API key as listed (never the key itself). */
export const ApiKeySummarySchema = z.object({
  id: IdSchema,
  name: z.string(),
  prefix: z.string().meta({ description: 'The first characters of the key, to recognise it.' }),
  createdAt: z.int(),
  revokedAt: z.int().optional(),
});
export type ApiKeySummary = z.infer<typeof ApiKeySummarySchema>;
export const ApiKeyListSchema = z.array(ApiKeySummarySchema);

export const ApiKeyCreateSchema = z.strictObject({ name: z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters') });
export type ApiKeyCreate = z.input<typeof ApiKeyCreateSchema>;

/** A key just made: `apiKey` is shown only in this answer. */
export const ApiKeyCreatedSchema = ApiKeySummarySchema.extend({ apiKey: z.string() });
export type ApiKeyCreated = z.infer<typeof ApiKeyCreatedSchema>;
