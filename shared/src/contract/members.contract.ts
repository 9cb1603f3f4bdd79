import { IdParamsSchema } from '../common/id.schema.js';
import { PageQuerySchema } from '../common/page.schema.js';
import { AuditPageSchema } from '../members/audit.schema.js';
import {
  ApiKeyCreatedSchema, ApiKeyCreateSchema, ApiKeyListSchema, ApiKeySummarySchema, InvitationAcceptSchema, InvitationCreateSchema,
  InvitationSchema, InvitationTokenParamsSchema, MemberListSchema, PasswordResetRequestSchema, PasswordResetSchema, PasswordResetTokenParamsSchema, MemberProfileUpdateSchema, MemberSchema, OwnerCreateSchema,
} from '../members/member.schema.js';
import { ANY_ROLE, OWNERS, defineRoute, errorResponses } from './route-contract.js';

const tag = 'Members';

/**
 * Team accounts (extension): the people of an organisation, each with a role, signing in with
 * e-mail and password; and the organisation's named API keys. OWNERs (and API keys) manage both.
 */
export const memberContract = {
  createOwner: defineRoute({
    operationId: 'createOwner', method: 'post', path: '/v1/member/owner', tag, security: 'apiKey', roles: OWNERS,
    summary: 'First run: create the organisation\'s OWNER account',
    description: 'Only while the organisation has no members (409 after). Made with an API key or a session signed in with one; '
      + 'a console session is switched to the new member. The password needs 10 characters and must not be a common one.',
    body: OwnerCreateSchema,
    responses: { 201: { description: 'The owner.', schema: MemberSchema }, ...errorResponses(400, 401, 403, 409, 500) },
  }),
  list: defineRoute({
    operationId: 'listMembers', method: 'get', path: '/v1/member/all', tag, security: 'apiKey', roles: OWNERS,
    summary: 'List the organisation\'s members, oldest first',
    responses: { 200: { description: 'The members.', schema: MemberListSchema }, ...errorResponses(401, 403, 500) },
  }),
  updateMe: defineRoute({
    operationId: 'updateMyProfile', method: 'put', path: '/v1/member/me', tag, security: 'apiKey', roles: ANY_ROLE,
    summary: 'Change the signed-in member\'s name or avatar',
    description: 'Only for a member\'s own console session (403 for an API key). `avatarUrl` is an https image URL, or null to remove it.',
    body: MemberProfileUpdateSchema,
    responses: { 200: { description: 'The member.', schema: MemberSchema }, ...errorResponses(400, 401, 403, 500) },
  }),
  remove: defineRoute({
    operationId: 'deleteMember', method: 'delete', path: '/v1/member/{id}', tag, security: 'apiKey', roles: OWNERS,
    summary: 'Remove a member; its sessions end at once on every instance', params: IdParamsSchema,
    description: '409 when it is the organisation\'s last OWNER.',
    responses: { 200: { description: 'The removed member.', schema: MemberSchema }, ...errorResponses(400, 401, 403, 404, 409, 500) },
  }),
  invite: defineRoute({
    operationId: 'inviteMember', method: 'post', path: '/v1/member/invitation', tag, security: 'apiKey', roles: OWNERS,
    summary: 'Invite someone by e-mail and role',
    description: 'The answer holds the link to hand to the invitee; when mail is on (`SMTP_URL`) it is also e-mailed to the invitee '
      + '(extension: `mailed` true). It works once and expires after 7 days. 409 when a member already has this e-mail address.',
    body: InvitationCreateSchema,
    responses: { 201: { description: 'The invitation.', schema: InvitationSchema }, ...errorResponses(400, 401, 403, 409, 500) },
  }),
  accept: defineRoute({
    operationId: 'acceptInvitation', method: 'post', path: '/v1/member/invitation/{token}/accept', tag, security: 'public',
    summary: 'Accept an invitation: set a name and password',
    description: 'Public: the token is the credential. 404 when the invitation is unknown, used or expired; 409 when its e-mail '
      + 'address became a member meanwhile. Then sign in with `POST /v1/session`. Limited per client address like sign-in (429).',
    params: InvitationTokenParamsSchema, body: InvitationAcceptSchema,
    responses: { 201: { description: 'The new member.', schema: MemberSchema }, ...errorResponses(400, 403, 404, 409, 429, 500) },
  }),
  requestPasswordReset: defineRoute({
    operationId: 'requestPasswordReset', method: 'post', path: '/v1/member/password-reset', tag, security: 'public',
    summary: 'Forgotten password: e-mail a one-time reset link (extension)',
    description: 'Public. Always 202 when mail is on, whether or not a member has the address, so the answer tells nothing; the member '
      + 'gets a link that works once within 1 hour. 409 when mail is off (`SMTP_URL` unset): the operator resets the password with '
      + '`npm run keys -- reset-password`. Limited like sign-in, per client address and per e-mail address (429).',
    body: PasswordResetRequestSchema,
    responses: { 202: { description: 'Accepted: a link is mailed if a member has the address.' }, ...errorResponses(400, 409, 429, 500) },
  }),
  resetPassword: defineRoute({
    operationId: 'resetPassword', method: 'post', path: '/v1/member/password-reset/{token}', tag, security: 'public',
    summary: 'Set a new password with an e-mailed reset link (extension)',
    description: 'Public: the token is the credential. Same password rules as accepting an invitation (400). 404 when the link is unknown, '
      + 'used or expired. Every session of the member ends; sign in again with `POST /v1/session`. Limited per client address like sign-in (429).',
    params: PasswordResetTokenParamsSchema, body: PasswordResetSchema,
    responses: { 204: { description: 'The password is changed.' }, ...errorResponses(400, 404, 429, 500) },
  }),
};

/** Named API keys of the organisation (extension). */
export const apiKeyContract = {
  create: defineRoute({
    operationId: 'createApiKey', method: 'post', path: '/v1/api-key', tag, security: 'apiKey', roles: OWNERS,
    summary: 'Create a named API key (shown only in this answer)', body: ApiKeyCreateSchema,
    responses: { 201: { description: 'The key.', schema: ApiKeyCreatedSchema }, ...errorResponses(400, 401, 403, 500) },
  }),
  list: defineRoute({
    operationId: 'listApiKeys', method: 'get', path: '/v1/api-key/all', tag, security: 'apiKey', roles: OWNERS,
    summary: 'List the organisation\'s API keys (never the keys themselves), revoked ones too',
    responses: { 200: { description: 'The keys.', schema: ApiKeyListSchema }, ...errorResponses(401, 403, 500) },
  }),
  revoke: defineRoute({
    operationId: 'revokeApiKey', method: 'delete', path: '/v1/api-key/{id}', tag, security: 'apiKey', roles: OWNERS,
    summary: 'Revoke an API key; sessions made with it end at once', params: IdParamsSchema,
    description: 'Other instances refuse the key itself within 5 seconds (their cache of keys); its console sessions end at once everywhere.',
    responses: { 200: { description: 'The revoked key.', schema: ApiKeySummarySchema }, ...errorResponses(400, 401, 403, 404, 500) },
  }),
};

/** Who changed what (extension): chatbot, knowledge, member and key changes, for OWNERs. */
export const auditContract = {
  list: defineRoute({
    operationId: 'listAuditEvents', method: 'get', path: '/v1/audit/all', tag: 'Audit', security: 'apiKey', roles: OWNERS,
    summary: 'The organisation\'s recorded changes, newest first',
    description: 'Every successful change to chatbots, resources, saved answers, knowledge gaps, members and API keys, with the member '
      + 'or key that made it. `limit` (default 50) and `cursor` page through it.',
    query: PageQuerySchema,
    responses: { 200: { description: 'A page of events.', schema: AuditPageSchema }, ...errorResponses(400, 401, 403, 500) },
  }),
};
