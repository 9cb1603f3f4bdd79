import { createHash } from 'node:crypto';
import { startFakeServer, type FakeServer } from '../src/features/resources/ingestion/fixtures/fake-servers.js';

/**
 * A generated documentation site of the size and shape of the PostgreSQL manual: six sections of
 * pages with headings, varied technical prose, code blocks, tables, the same navigation on every
 * page, cross links between pages and a few long pages. Deterministic from a seed.
 */

/** mulberry32: a small deterministic generator, so the same seed gives the same site. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NOUNS = ['index', 'table', 'transaction', 'snapshot', 'checkpoint', 'replica', 'publication', 'subscription', 'tablespace', 'sequence',
  'trigger', 'function', 'operator', 'collation', 'extension', 'schema', 'role', 'privilege', 'partition', 'constraint', 'cursor', 'view',
  'statistics object', 'write-ahead log', 'buffer', 'vacuum', 'planner', 'executor', 'lock', 'tuple', 'page', 'relation', 'domain', 'aggregate',
  'window function', 'foreign key', 'replication slot', 'connection', 'backend process', 'autovacuum worker', 'archive command', 'standby server',
  'configuration parameter', 'query plan', 'hash join', 'merge join', 'sort', 'bitmap scan', 'sequential scan', 'text search dictionary',
  'large object', 'savepoint', 'prepared statement', 'event trigger', 'row security policy', 'materialized view', 'composite type', 'range type',
  'array', 'JSON document', 'time zone', 'locale', 'encoding', 'certificate', 'password file', 'service file', 'client library', 'listener'];
const VERBS = ['creates', 'removes', 'locks', 'scans', 'updates', 'rewrites', 'flushes', 'validates', 'replicates', 'archives', 'compresses',
  'estimates', 'caches', 'restores', 'renames', 'truncates', 'clusters', 'analyzes', 'reindexes', 'detaches', 'attaches', 'grants', 'revokes',
  'streams', 'signals', 'records', 'defers', 'checks', 'copies', 'reads'];
const ADJECTIVES = ['temporary', 'unlogged', 'partial', 'unique', 'exclusive', 'shared', 'concurrent', 'deferred', 'immutable', 'volatile',
  'stable', 'parallel', 'logical', 'physical', 'synchronous', 'asynchronous', 'default', 'inherited', 'generated', 'serializable',
  'read-only', 'hot', 'cold', 'dirty', 'visible', 'frozen', 'orphaned', 'nested', 'recursive', 'lateral'];
const CLAUSES = ['unless the server is restarted', 'when the transaction commits', 'before the checkpoint completes', 'for every row that qualifies',
  'while other sessions keep reading', 'if the parameter is set to off', 'only for superusers', 'after the lock is released', 'in a single pass',
  'as long as the standby keeps up', 'whenever autovacuum runs', 'at the end of the statement', 'without blocking writers', 'per database',
  'across all partitions', 'once the replica has replayed the record'];
const HEADING_FORMS: ((a: string, n: string, v: string) => string)[] = [
  (a, n) => `${cap(a)} ${n}s`, (_a, n) => `Creating a ${n}`, (_a, n, v) => `How the server ${v.replace(/s$/, '')}s a ${n}`,
  (a, n) => `Managing ${a} ${n}s`, (_a, n) => `${cap(n)} configuration`, (a, n) => `Limits of ${a} ${n}s`, (_a, n) => `Monitoring the ${n}`,
];
const NAV = ['Preface', 'Tutorial', 'The SQL Language', 'Server Administration', 'Client Interfaces', 'Server Programming', 'Reference',
  'Internals', 'Appendixes', 'Bibliography', 'Index'];
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export interface SitePage { path: string; title: string; headings: string[]; html: string }
export interface LargeSite { site: FakeServer; sections: { root: string; pages: SitePage[] }[]; pages: SitePage[]; urls: string[] }

export function generatePages(count: number, seed: number): { root: string; pages: SitePage[] }[] {
  const next = random(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]!;
  const sentence = () => {
    const subject = `${pick(['A', 'The', 'Each', 'Every'])} ${pick(ADJECTIVES)} ${pick(NOUNS)}`;
    return `${subject} ${pick(VERBS)} the ${pick(NOUNS)} ${pick(CLAUSES)}${next() < 0.3 ? `, and the ${pick(NOUNS)} ${pick(VERBS)} its ${pick(NOUNS)}` : ''}.`;
  };
  const sectionCount = 6;
  const perSection = Math.ceil(count / sectionCount);
  const sections: { root: string; pages: SitePage[] }[] = [];
  const pathOf = (s: number, i: number) => (i === 0 ? `/docs/s${s}/index.html` : `/docs/s${s}/page-${i}.html`);
  for (let s = 0; s < sectionCount; s++) {
    const pages: SitePage[] = [];
    const size = Math.min(perSection, count - s * perSection);
    for (let i = 0; i < size; i++) {
      const title = i === 0 ? `Part ${s + 1}: ${NAV[s + 1]}` : `${s + 1}.${i}. ${cap(pick(ADJECTIVES))} ${pick(NOUNS)}s`;
      const long = i % 40 === 7;
      const headings: string[] = [];
      let body = `<h1>${title}</h1>`;
      if (i === 0) {
        body += `<ul class="toc">${Array.from({ length: size - 1 }, (_, k) => `<li><a href="${pathOf(s, k + 1)}">${s + 1}.${k + 1}</a></li>`).join('')}</ul>`;
      }
      const sectionsOnPage = long ? 24 : 2 + Math.floor(next() * 3);
      for (let h = 0; h < sectionsOnPage; h++) {
        const heading = pick(HEADING_FORMS)(pick(ADJECTIVES), pick(NOUNS), pick(VERBS));
        headings.push(heading);
        body += `<h2>${heading}</h2>`;
        const paragraphs = 1 + Math.floor(next() * 3);
        for (let p = 0; p < paragraphs; p++) {
          const n = 3 + Math.floor(next() * 4);
          body += `<p>${Array.from({ length: n }, sentence).join(' ')} See <a href="${pathOf(Math.floor(next() * sectionCount), 1 + Math.floor(next() * (perSection - 1)))}">the related section</a>.</p>`;
        }
        if (next() < 0.4) {
          const table = pick(NOUNS).replace(/\W+/g, '_');
          body += `<pre class="programlisting">CREATE TABLE ${table} (id integer PRIMARY KEY, name text NOT NULL);\nSELECT name FROM ${table} WHERE id = ${Math.floor(next() * 1000)};\n</pre>`;
        }
        if (next() < 0.25) {
          const rows = Array.from({ length: 4 }, () => `<tr><td>${pick(NOUNS)}</td><td>${pick(ADJECTIVES)}</td><td>${Math.floor(next() * 100)}</td></tr>`).join('');
          body += `<table><thead><tr><th>Name</th><th>Kind</th><th>Default</th></tr></thead><tbody>${rows}</tbody></table>`;
        }
      }
      const nav = `<div class="navheader"><table><tr><td><a href="/docs/index.html">Home</a></td>${NAV.map((n, k) => `<td><a href="/docs/s${k % sectionCount}/index.html">${n}</a></td>`).join('')}</tr></table></div>`;
      const prevNext = `<div class="navfooter"><a href="${pathOf(s, Math.max(0, i - 1))}">Prev</a> <a href="${pathOf(s, 0)}">Up</a> <a href="${pathOf(s, Math.min(size - 1, i + 1))}">Next</a></div>`;
      const html = `<!DOCTYPE html><html><head><title>${title}</title></head><body>${nav}<div class="sect1">${body}</div>${prevNext}`
        + '<footer>Copyright © 1996–2026 The Documentation Group</footer></body></html>';
      pages.push({ path: pathOf(s, i), title, headings, html });
    }
    sections.push({ root: pathOf(s, 0), pages });
  }
  return sections;
}

/** Serves the generated site on 127.0.0.1 (ETags answer 304). */
export async function startLargeSite(count: number, seed = 38): Promise<LargeSite> {
  const sections = generatePages(count, seed);
  const pages = sections.flatMap((section) => section.pages);
  const bodies = new Map(pages.map((page) => [page.path, page.html]));
  const site = await startFakeServer((req) => {
    if (req.url === '/robots.txt') return { type: 'text/plain', body: 'User-agent: *\nAllow: /\n' };
    const body = bodies.get(req.url ?? '');
    if (body === undefined) return { status: 404, body: 'not found' };
    const etag = `"${createHash('sha1').update(body).digest('hex').slice(0, 16)}"`;
    return req.headers['if-none-match'] === etag ? { status: 304, headers: { etag } } : { body, headers: { etag } };
  });
  return { site, sections, pages, urls: pages.map((page) => `${site.url}${page.path}`) };
}

/** Questions made from the site's own headings (every k-th), by one fixed method: a heading turned into a question. */
export function questionsFrom(pages: readonly SitePage[], count: number): string[] {
  const headings = pages.flatMap((page) => page.headings);
  const step = Math.max(1, Math.floor(headings.length / count));
  return Array.from({ length: count }, (_, i) => {
    const heading = headings[(i * step) % headings.length]!;
    return `What does the manual say about ${heading.charAt(0).toLowerCase()}${heading.slice(1)}?`;
  });
}
