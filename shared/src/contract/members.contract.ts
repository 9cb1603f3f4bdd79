import { IdParamsSchema } from '../common/id.schema.js';
import { PageQuerySchema } from '../common/page.schema.js';
import { AuditPageSchema } from '../members/audit.schema.js';
import {
  ApiKeyCreatedSchema, ApiKeyCreateSchema, ApiKeyListSchema, ApiKeySummarySchema, InvitationAcceptSchema, InvitationCreateSchema,
  InvitationSchema, InvitationTokenParamsSchema, MemberListSchema, MemberProfileUpdateSchema, MemberSchema, OwnerCreateSchema,
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
    description: 'The answer holds the only copy of the link: hand it to the invitee. It works once and expires after 7 days. '
      + '409 when a member already has this e-mail address.',
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
