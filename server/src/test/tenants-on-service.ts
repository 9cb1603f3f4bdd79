import http from 'node:http';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { adminSocketPath } from '../admin/admin-socket.js';
import { startServiceProcess, type ServiceProcess } from './service-process.js';
import { createTestContext, type TestContext } from './test-app.js';

/** An organisation of a service under test, with its key. */
export interface Tenant {
  apiKey: string;
  /** A request with the tenant's key; the body parsed when it is JSON (read field by field by the tests). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  call(method: string, urlPath: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any }>;
}

/** A whole service in its own process, on the test run's database kind, with organisations of its own. */
export interface ServiceWithTenants {
  service: ServiceProcess;
  tenants: Tenant[];
  close(): Promise<void>;
}

function adminCommand(socketPath: string, command: unknown): Promise<{ apiKey: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ socketPath, method: 'POST', path: '/' }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk)).on('end', () => (res.statusCode === 200 ? resolve(JSON.parse(body)) : reject(new Error(body))));
    });
    req.on('error', reject);
    req.end(JSON.stringify(command));
  });
}

function postgresUrl(ctx: TestContext): string {
  const settings = ctx.database.db.client.connectionSettings as { user?: string; password?: string; host?: string; port?: number | string; database?: string };
  const credentials = settings.user ? `${encodeURIComponent(settings.user)}${settings.password ? `:${encodeURIComponent(settings.password)}` : ''}@` : '';
  return `postgres://${credentials}${settings.host ?? '127.0.0.1'}:${settings.port ?? 5432}/${settings.database}`;
}

/**
 * Starts the server (`src/main.ts`) in a process of its own, as an operator runs it: on the
 * embedded database in its data folder when the tests run on PGlite, on a fresh PostgreSQL
 * database otherwise; waits until it is ready (`/health/ready`); then creates `count` organisations through its admin socket (`npm run keys`).
 * A test that loads the service can so watch from outside whether it keeps answering.
 */
export async function startServiceWithTenants(count: number, env: Record<string, string> = {}): Promise<ServiceWithTenants> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'parley-tenants-'));
  const ctx = process.env.TEST_DATABASE === 'postgres' ? await createTestContext() : undefined;
  const service = await startServiceProcess({ DATA_DIR: dataDir, ...(ctx ? { DATABASE_URL: postgresUrl(ctx) } : {}), ...env });
  // Warmed up first, as a load balancer's readiness probe waits for it: the instance's start
  // (the dictionary and the engine's modules loaded) is not the load a test puts on it.
  while ((await fetch(`${service.url}/health/ready`)).status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
  const tenants: Tenant[] = [];
  for (let i = 0; i < count; i++) {
    const { apiKey } = await adminCommand(adminSocketPath(dataDir), { command: 'create', org: `Tenant ${i + 1}`, plan: null });
    tenants.push({
      apiKey,
      async call(method, urlPath, body, headers = {}) {
        const res = await fetch(`${service.url}${urlPath}`, {
          method, headers: { 'x-api-key': apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const text = await res.text();
        return { status: res.status, body: res.headers.get('content-type')?.includes('json') && text ? JSON.parse(text) : text };
      },
    });
  }
  return {
    service, tenants,
    async close() {
      await service.kill();
      await ctx?.close();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}
