import { Router, type RequestHandler } from 'express';
import { apiKeyContract, memberContract, type ApiKeySummary } from '@parley/shared';
import { forbidden, notFound } from '../../errors/http-error.js';
import { authOf } from '../../http/api-key-auth.js';
import { mountRoute, toExpressPath } from '../../http/define-route.js';
import { routeTable, type RouteTable } from '../../http/route-table.js';
import type { KeySummary, OrganisationsService } from '../organisations/organisations.service.js';
import { setSessionCookie } from '../sessions/sessions.routes.js';
import type { SessionsService } from '../sessions/sessions.service.js';
import type { MembersService } from './members.service.js';

const toApiKey = (key: KeySummary): ApiKeySummary => ({
  id: key.id, name: key.name, prefix: key.prefix, createdAt: Number(key.createdAt), ...(key.revokedAt ? { revokedAt: Number(key.revokedAt) } : {}),
});

/** Members, invitations and named API keys, behind the /v1 authentication (roles: the contract's). */
export function membersRoutes(members: MembersService, organisations: OrganisationsService, sessions: SessionsService, publicUrl: string): RouteTable {
  const router = routeTable();
  mountRoute(router, memberContract.createOwner, async ({ req, res, body }) => {
    const { organisationId } = authOf(req);
    const owner = await members.createOwner(organisationId, body);
    // A console signed in with the key goes on as the new owner: its key session ends.
    if (req.consoleSession) {
      await sessions.signOut(req.consoleSession);
      setSessionCookie(res, publicUrl, await sessions.startForMember({ id: owner.id, organisation_id: organisationId }));
    }
    return owner;
  });
  mountRoute(router, memberContract.list, ({ req }) => members.list(authOf(req).organisationId));
  mountRoute(router, memberContract.updateMe, ({ req, body }) => {
    const { organisationId, member } = authOf(req);
    if (!member) throw forbidden('only a member signed in with e-mail and password has a profile; an API key has none');
    return members.updateProfile(organisationId, member.id, body);
  });
  mountRoute(router, memberContract.remove, ({ req, params }) => members.remove(authOf(req).organisationId, params.id));
  mountRoute(router, memberContract.invite, ({ req, body }) => {
    const { organisationId, member } = authOf(req);
    return members.invite(organisationId, body, member?.name ?? 'The organisation\'s owner');
  });

  mountRoute(router, apiKeyContract.create, async ({ req, body }) => {
    const { organisationId } = authOf(req);
    const created = (await organisations.createKey(organisationId, body.name))!;
    const key = (await organisations.listKeys(organisationId)).find((row) => row.id === created.keyId)!;
    return { ...toApiKey(key), apiKey: created.apiKey };
  });
  mountRoute(router, apiKeyContract.list, async ({ req }) => (await organisations.listKeys(authOf(req).organisationId)).map(toApiKey));
  mountRoute(router, apiKeyContract.revoke, async ({ req, params }) => {
    const revoked = await organisations.revokeOrganisationKey(authOf(req).organisationId, params.id);
    if (!revoked) throw notFound('API key');
    return toApiKey(revoked);
  });
  return router;
}

/**
 * `POST /v1/member/invitation/{token}/accept`: public (the token is the credential), mounted
 * before the /v1 authentication, limited per client address like sign-in.
 */
export function invitationRoutes(members: MembersService, rateLimit: RequestHandler): Router {
  const router = Router();
  router.post(toExpressPath(memberContract.accept.path), rateLimit);
  mountRoute(router, memberContract.accept, ({ params, body }) => members.accept(params.token, body));
  return router;
}

/**
 * `POST /v1/member/password-reset` and `POST /v1/member/password-reset/{token}`: public, mounted
 * before the /v1 authentication. Asking for a link counts against the sign-in limits (per client
 * address and per e-mail address); using one, per client address like accepting an invitation.
 */
export function passwordResetRoutes(members: MembersService, signInLimits: RequestHandler[]): Router {
  const router = Router();
  router.post(toExpressPath(memberContract.requestPasswordReset.path), ...signInLimits);
  mountRoute(router, memberContract.requestPasswordReset, ({ body }) => members.requestPasswordReset(body.email));
  router.post(toExpressPath(memberContract.resetPassword.path), signInLimits[0]!);
  mountRoute(router, memberContract.resetPassword, ({ params, body }) => members.resetPasswordWithToken(params.token, body.password));
  return router;
}
