import http from 'node:http';
import { parseArgs } from 'node:util';
import { adminSocketPath } from '../admin/admin-socket.js';
import { AdminCommandSchema, runAdminCommand, type AdminCommand } from '../admin/admin-commands.js';
import { loadConfig } from '../config.js';
import { secureDataDir } from '../data-dir.js';
import { migrate, openDatabase } from '../db/knex.js';
import { createLogger } from '../logger.js';
import { MembersService } from '../features/members/members.service.js';
import { OrganisationsService, type CreatedOrganisation, type KeySummary } from '../features/organisations/organisations.service.js';

const USAGE = `Usage: npm run -s keys -- <command>
  create --org NAME [plan options]   new organisation with a key (the key is the last stdout line)
  add --org ID|NAME                  another key for an existing organisation
  list [--org ID|NAME]               keys (never the secrets)
  revoke KEY_ID                      revoke a key
  plan --org ID|NAME [plan options]  set an organisation's plan (--default: follow the environment)
  reset-password EMAIL               give a member a new password (the last stdout line); its sessions end
Plan options: --monthly-messages N --max-resources N --max-storage-bytes N --models a,b  (unset: unlimited)`;

function intOption(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new Error(`--${name} must be a non-negative integer`);
  return Number(value);
}

function toCommand(argv: string[]): AdminCommand {
  const { values, positionals } = parseArgs({
    args: argv, allowPositionals: true,
    options: {
      org: { type: 'string' }, default: { type: 'boolean' }, 'monthly-messages': { type: 'string' },
      'max-resources': { type: 'string' }, 'max-storage-bytes': { type: 'string' }, models: { type: 'string' },
    },
  });
  const [command, argument] = positionals;
  const planGiven = ['monthly-messages', 'max-resources', 'max-storage-bytes', 'models'].some((name) => name in values);
  const plan = values.default || !planGiven ? null : {
    monthlyMessages: intOption(values['monthly-messages'], 'monthly-messages'),
    maxResources: intOption(values['max-resources'], 'max-resources'),
    maxStorageBytes: intOption(values['max-storage-bytes'], 'max-storage-bytes'),
    models: values.models?.split(',').map((model) => model.trim()).filter(Boolean),
  };
  const raw = command === 'revoke' ? { command, keyId: argument }
    : command === 'reset-password' ? { command, email: argument }
      : { command, org: values.org, ...(command === 'create' || command === 'plan' ? { plan } : {}) };
  const parsed = AdminCommandSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`${parsed.error.issues.map((issue) => `${issue.path.join('.') || 'command'}: ${issue.message}`).join('; ')}\n\n${USAGE}`);
  return parsed.data;
}

/** Sends the command to a running service; undefined when none listens on DATA_DIR. */
function viaSocket(socketPath: string, command: AdminCommand): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const req = http.request({ socketPath, method: 'POST', path: '/' }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk)).on('end', () => {
        const parsed = JSON.parse(body);
        if (res.statusCode === 200) resolve(parsed);
        else reject(new Error(parsed.error));
      });
    });
    req.on('error', (err: NodeJS.ErrnoException) => (['ENOENT', 'ECONNREFUSED'].includes(err.code ?? '') ? resolve(undefined) : reject(err)));
    req.end(JSON.stringify(command));
  });
}

async function directly(command: AdminCommand): Promise<unknown> {
  const config = loadConfig();
  if (!config.databaseUrl) await secureDataDir(config.dataDir);
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolMax: 2 });
  try {
    await migrate(database.db);
    const organisations = new OrganisationsService(database.db, config, createLogger('warn', 2));
    return await runAdminCommand(organisations, new MembersService(database.db, config.publicUrl), command);
  } finally {
    await database.close();
  }
}

function print(command: AdminCommand, result: unknown): void {
  if (command.command === 'create' || command.command === 'add') {
    const created = result as CreatedOrganisation;
    process.stderr.write(`organisation ${created.organisationId}, user ${created.userId}, key id ${created.keyId}\nThe key is shown only now:\n`);
    process.stdout.write(`${created.apiKey}\n`);
  } else if (command.command === 'list') {
    const keys = result as KeySummary[];
    if (keys.length === 0) process.stderr.write('no keys\n');
    for (const key of keys) {
      process.stdout.write(`${key.id}  ${key.prefix}…  ${key.revokedAt ? 'revoked' : 'active '}  org ${key.organisationId} (${key.organisationName})  created ${new Date(key.createdAt).toISOString()}\n`);
    }
  } else if (command.command === 'reset-password') {
    const reset = result as { email: string; password: string };
    process.stderr.write(`New password of ${reset.email}, shown only now; its sessions have ended:\n`);
    process.stdout.write(`${reset.password}\n`);
  } else {
    process.stdout.write(`${JSON.stringify(result)}\n`);
  }
}

try {
  const command = toCommand(process.argv.slice(2));
  const config = loadConfig();
  const result = (config.databaseUrl ? undefined : await viaSocket(adminSocketPath(config.dataDir), command)) ?? await directly(command);
  print(command, result);
} catch (err) {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
}
