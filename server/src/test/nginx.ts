import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** The nginx site the deployment guide recommends (docs/deployment-nginx.md shows this very file). */
export const NGINX_SITE_FILE = path.join(import.meta.dirname, '..', '..', '..', 'docs', 'nginx', 'parley.conf');

/** The nginx binary on this machine (Debian's `nginx-light` or `nginx`), or undefined when none is installed. */
export function findNginx(): string | undefined {
  for (const candidate of ['/usr/sbin/nginx', 'nginx']) {
    if (spawnSync(candidate, ['-v'], { stdio: 'ignore' }).status === 0) return candidate;
  }
  return undefined;
}

/** What a test changes in the recommended site: where it listens, where the service is, and directives it sets otherwise. */
export interface SiteChanges {
  /** `listen 80;` becomes `listen <listen>;`. */
  listen: string;
  /** The upstream's `server 127.0.0.1:3000;` becomes this host:port. */
  upstream: string;
  /** Whole directive lines replaced (`'client_body_timeout 30s;': 'client_body_timeout 2s;'`); each must occur exactly once. */
  replace?: Record<string, string>;
}

/** The recommended site with the changes; throws when a line to change is not in the file (the guide changed). */
export async function renderNginxSite(changes: SiteChanges): Promise<string> {
  let site = await fs.readFile(NGINX_SITE_FILE, 'utf8');
  const replacements: Record<string, string> = {
    'listen 80;': `listen ${changes.listen};`,
    'server 127.0.0.1:3000;': `server ${changes.upstream};`,
    ...changes.replace,
  };
  for (const [line, replacement] of Object.entries(replacements)) {
    const pattern = new RegExp(`^(\\s*)${line.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'gm');
    const count = site.match(pattern)?.length ?? 0;
    if (count !== 1) throw new Error(`${NGINX_SITE_FILE} has ${count} lines "${line}" (expected one)`);
    site = site.replace(pattern, (_match, indent: string) => `${indent}${replacement}`);
  }
  return site;
}

export interface NginxProcess {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  port: number;
  /** The access log so far: one line per request, `<status> <request_time> <request>`. */
  accessLog(): Promise<string[]>;
  /** nginx's error log so far (for a failing test's message). */
  errorLog(): Promise<string>;
  stop(): Promise<void>;
}

/** A free loopback port (nginx cannot be asked for an ephemeral one and tell which it got). */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => { socket.destroy(); resolve(true); });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Runs nginx in the foreground (`daemon off`) with its own prefix, logs and temporary files in a
 * new directory, serving the recommended site (changed as `changes` says, `listen` aside) on a free
 * loopback port. Not the system's service: nothing under /etc/nginx is read.
 */
export async function startNginx(binary: string, changes: Omit<SiteChanges, 'listen'>): Promise<NginxProcess> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'parley-nginx-'));
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    await fs.writeFile(path.join(dir, 'parley.conf'), await renderNginxSite({ ...changes, listen: `127.0.0.1:${port}` }));
    await fs.writeFile(path.join(dir, 'nginx.conf'), [
      // As root, nginx's workers would otherwise run as nobody, who cannot write this directory.
      ...(process.getuid?.() === 0 ? ['user root;'] : []),
      'worker_processes 1;',
      `pid ${dir}/nginx.pid;`,
      `error_log ${dir}/error.log info;`,
      'events { worker_connections 256; }',
      'http {',
      '  log_format parley \'$status $request_time "$request"\';',
      `  access_log ${dir}/access.log parley;`,
      `  client_body_temp_path ${dir}/body;`,
      `  proxy_temp_path ${dir}/proxy;`,
      // Not used, but nginx creates them at start (under /var/lib/nginx unless told otherwise).
      `  fastcgi_temp_path ${dir}/fastcgi;`,
      `  uwsgi_temp_path ${dir}/uwsgi;`,
      `  scgi_temp_path ${dir}/scgi;`,
      `  include ${dir}/parley.conf;`,
      '}',
      '',
    ].join('\n'));
    const child: ChildProcess = spawn(binary, ['-p', `${dir}/`, '-e', `${dir}/error.log`, '-c', `${dir}/nginx.conf`, '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    let gone = false;
    void exited.then(() => (gone = true));
    while (!gone && !await canConnect(port)) await new Promise((resolve) => setTimeout(resolve, 20));
    if (gone) {
      const log = await fs.readFile(path.join(dir, 'error.log'), 'utf8').catch(() => '');
      // Another process took the port between freePort() and nginx's bind: try another.
      if (attempt < 3 && /Address already in use/.test(stderr + log)) continue;
      await fs.rm(dir, { recursive: true, force: true });
      throw new Error(`nginx exited before listening:\n${stderr}${log}`);
    }
    return {
      url: `http://127.0.0.1:${port}`,
      port,
      async accessLog() {
        const log = await fs.readFile(path.join(dir, 'access.log'), 'utf8').catch(() => '');
        return log.split('\n').filter(Boolean);
      },
      errorLog: () => fs.readFile(path.join(dir, 'error.log'), 'utf8').catch(() => ''),
      async stop() {
        if (!gone) child.kill('SIGTERM');
        await exited;
        await fs.rm(dir, { recursive: true, force: true });
      },
    };
  }
}
