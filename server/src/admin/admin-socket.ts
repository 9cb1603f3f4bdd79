import fs from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import type { Logger } from 'pino';
import { ZodError } from 'zod';
import type { MembersService } from '../features/members/members.service.js';
import type { OrganisationsService } from '../features/organisations/organisations.service.js';
import { AdminCommandError, AdminCommandSchema, runAdminCommand } from './admin-commands.js';

/** Where the running service listens for admin commands (the keys CLI). */
export function adminSocketPath(dataDir: string): string {
  return path.join(dataDir, 'admin.sock');
}

async function readBody(req: http.IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of req) {
    body += chunk;
    if (body.length > 64 * 1024) throw new AdminCommandError('command too large');
  }
  return body;
}

/**
 * A local channel for the keys CLI while the service holds the embedded database (PGlite allows one
 * process). It is a Unix socket in DATA_DIR with mode 0600, so only the machine user that runs the
 * service (and root) can reach it; nothing listens on the network.
 */
export async function startAdminSocket(dataDir: string, organisations: OrganisationsService, members: MembersService, logger: Logger): Promise<() => Promise<void>> {
  const socketPath = adminSocketPath(dataDir);
  await fs.rm(socketPath, { force: true });
  const server = http.createServer(async (req, res) => {
    try {
      const command = AdminCommandSchema.parse(JSON.parse(await readBody(req)));
      const result = await runAdminCommand(organisations, members, command);
      logger.info({ command: command.command }, 'admin command');
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result));
    } catch (err) {
      const known = err instanceof AdminCommandError || err instanceof ZodError || err instanceof SyntaxError;
      if (!known) logger.error({ err }, 'admin command failed');
      res.writeHead(known ? 400 : 500, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: known ? (err as Error).message : 'internal error' }));
    }
  });
  const previousMask = process.umask(0o177);
  try {
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(socketPath, resolve));
  } finally {
    process.umask(previousMask);
  }
  await fs.chmod(socketPath, 0o600);
  return async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await fs.rm(socketPath, { force: true });
  };
}
