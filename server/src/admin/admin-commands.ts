import { z } from 'zod';
import { ModelSchema } from '@parley/shared';
import type { MembersService } from '../features/members/members.service.js';
import type { OrganisationsService } from '../features/organisations/organisations.service.js';

const count = z.int().min(0).optional();

/** A plan given on the command line; `null` returns the organisation to the environment's plan. */
export const PlanInputSchema = z.union([
  z.null(),
  z.strictObject({ monthlyMessages: count, maxResources: count, maxStorageBytes: count, models: z.array(ModelSchema).optional() }),
]);

/** Every admin command, as JSON in and out: run in-process or over the admin socket alike. */
export const AdminCommandSchema = z.discriminatedUnion('command', [
  z.strictObject({ command: z.literal('create'), org: z.string().min(1), plan: PlanInputSchema.optional() }),
  z.strictObject({ command: z.literal('add'), org: z.string().min(1) }),
  z.strictObject({ command: z.literal('list'), org: z.string().optional() }),
  z.strictObject({ command: z.literal('revoke'), keyId: z.string().min(1) }),
  z.strictObject({ command: z.literal('plan'), org: z.string().min(1), plan: PlanInputSchema }),
  z.strictObject({ command: z.literal('reset-password'), email: z.string().min(1) }),
]);
export type AdminCommand = z.infer<typeof AdminCommandSchema>;

export class AdminCommandError extends Error {}

async function organisationOf(organisations: OrganisationsService, org: string) {
  const found = await organisations.resolveOrganisation(org);
  if (!found) throw new AdminCommandError(`no organisation "${org}"`);
  return found;
}

/** Runs one admin command against the services of the process that owns the database. */
export async function runAdminCommand(organisations: OrganisationsService, members: MembersService, command: AdminCommand): Promise<unknown> {
  switch (command.command) {
    case 'create':
      return organisations.createOrganisation({ name: command.org, plan: command.plan ?? null });
    case 'add': {
      const organisation = await organisationOf(organisations, command.org);
      return organisations.createKey(organisation.id);
    }
    case 'list': {
      const organisation = command.org ? await organisationOf(organisations, command.org) : undefined;
      return organisations.listKeys(organisation?.id);
    }
    case 'revoke':
      if (!await organisations.revokeKey(command.keyId)) throw new AdminCommandError(`no active key with id ${command.keyId}`);
      return { revoked: command.keyId };
    case 'plan': {
      const organisation = await organisationOf(organisations, command.org);
      await organisations.setPlan(organisation.id, command.plan);
      return { organisationId: organisation.id, plan: command.plan ?? 'environment default' };
    }
    case 'reset-password': {
      // Without mail (SMTP), the operator hands the member a new password; its sessions end.
      const reset = await members.resetPassword(command.email);
      if (!reset) throw new AdminCommandError(`no member has the e-mail address ${command.email}`);
      return reset;
    }
  }
}
