import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { WebsiteSettings } from '@parley/shared';
import type { WebsitePage } from './ingestion-types.js';

/**
 * The pipeline a page's section hash was made under: the text pipeline (`textPipelineKey`: code
 * version, chunk size, embeddings model) and the extraction settings. A page stored under another
 * one is fetched in full (a 304 would keep stale chunks).
 */
export function websitePipeline(settings: WebsiteSettings, textPipelineKey: string): string {
  const extraction = { removeSelectors: settings.removeSelectors ?? [], targetSelectors: settings.targetSelectors ?? [] };
  return createHash('sha256').update(JSON.stringify([textPipelineKey, extraction])).digest('hex').slice(0, 32);
}

/**
 * The pages a resource's last crawl indexed under `pipeline`, by URL, whose chunks are still in
 * the index (only those may be kept on a 304).
 */
export async function knownWebsitePages(db: Knex, resourceId: string, pipeline: string, indexedHashes: ReadonlySet<string>): Promise<Map<string, WebsitePage>> {
  const rows = await db('website_pages').where({ resource_id: resourceId, pipeline }).orderBy('ordinal')
    .select('url', 'etag', 'last_modified', 'section_hash', 'text_bytes', 'links');
  const pages = new Map<string, WebsitePage>();
  for (const row of rows) {
    if (!indexedHashes.has(row.section_hash)) continue;
    pages.set(row.url, {
      url: row.url, sectionHash: row.section_hash, textBytes: Number(row.text_bytes),
      ...(row.etag ? { etag: row.etag } : {}), ...(row.last_modified ? { lastModified: row.last_modified } : {}),
      ...(row.links ? { links: row.links as string[] } : {}),
    });
  }
  return pages;
}

/** Replaces a resource's page list inside the caller's transaction (with its chunk swap). */
export async function replaceWebsitePages(trx: Knex, resource: { id: string; organisationId: string }, pipeline: string, pages: readonly WebsitePage[]): Promise<void> {
  await trx('website_pages').where({ resource_id: resource.id }).delete();
  const rows = pages.map((page, ordinal) => ({
    resource_id: resource.id, organisation_id: resource.organisationId, url: page.url, ordinal,
    etag: page.etag ?? null, last_modified: page.lastModified ?? null, section_hash: page.sectionHash, pipeline,
    text_bytes: page.textBytes, links: page.links ? JSON.stringify(page.links) : null,
  }));
  for (let start = 0; start < rows.length; start += 200) await trx('website_pages').insert(rows.slice(start, start + 200));
}
