import type { WebsiteResourceCreate, WebsiteSettings } from '@parley/shared';
import { badRequest } from '../../../../errors/http-error.js';
import { IngestionFailedError } from '../../ingestion/ingestion-types.js';
import { crawlWebsite } from '../../ingestion/stages/crawl-website.js';
import { isValidSelector } from '../../ingestion/stages/extract-page-text.js';
import { knownWebsitePages, replaceWebsitePages, websitePipeline } from '../../ingestion/website-pages.repository.js';
import type { CreatableSource } from '../source-module.js';
import { WebSourceSchema, type WebSource } from './web-source.schema.js';

/**
 * A website's `subLinks`: the ones given (the contract) or, when pages are discovered, the pages
 * the last crawl indexed besides `url` (the given ones until a crawl has finished).
 */
function websiteSubLinks(source: WebSource & { url: string }): string[] {
  const discovers = (source.settings.discovery ?? 'NONE') !== 'NONE';
  if (!discovers || !source.indexedLinks) return source.subLinks;
  const root = new URL(source.url).href;
  return source.indexedLinks.filter((link) => link !== root);
}

/** @throws 400 for a selector that is not valid CSS (at creation and on an update). */
export function assertValidSelectors(settings: WebsiteSettings): void {
  for (const field of ['removeSelectors', 'targetSelectors'] as const) {
    const invalid = (settings[field] ?? []).findIndex((selector) => !isValidSelector(selector));
    if (invalid >= 0) throw badRequest(`settings.${field}[${invalid}] must be a valid CSS selector`);
  }
}

/** A website crawled by its settings (exact pages, or discovered ones), re-synced by its frequency or on `sync now`. */
export const webSource: CreatableSource<'WEB', WebsiteResourceCreate> = {
  type: 'WEB',
  schema: WebSourceSchema,
  syncs: true,
  editable: false,
  /** @throws 400 for a selector that is not valid CSS */
  async create(body) {
    assertValidSelectors(body.settings);
    return {
      type: 'WEB', fileName: body.url, tags: body.tags,
      source: { url: body.url, subLinks: body.subLinks, settings: body.settings, syncFrequency: body.syncFrequency },
    };
  },
  async read(ctx, resource) {
    const { url, subLinks, settings } = resource.source;
    if (url === undefined) throw new IngestionFailedError('the resource names no website');
    const known = await knownWebsitePages(ctx.db, resource.id, websitePipeline(settings, ctx.pipelineKey), ctx.indexed);
    const { parser } = ctx;
    return crawlWebsite({
      url, subLinks, settings, known, clock: ctx.crawlClock, pipelineKey: ctx.pipelineKey,
      defaultUserAgent: ctx.userAgent, allowPrivateNetworks: ctx.allowPrivateNetworks, isAllowedAddress: ctx.isAllowedAddress, signal: ctx.signal,
      log: (message, details) => ctx.logger.info({ resourceId: resource.id, ...details }, message),
      extract: (html, options, linksFrom) => parser.call('extractPageText', html, options, linksFrom),
      readSitemap: (body) => parser.call('readSitemap', body), maxDurationMs: ctx.crawlMaxDurationMs,
    });
  },
  // The pages' text is what it stores; the page list is replaced with the chunks.
  afterRead(resource, { pages }, facts) {
    return {
      fields: {
        lastSync: facts.now, nextSyncAt: facts.nextSyncAt, storedBytes: facts.textBytes,
        ...(pages ? { source: { indexedLinks: pages.map((page) => page.url) } } : {}),
      },
      write: pages && ((trx) => replaceWebsitePages(trx, resource, websitePipeline(resource.source.settings, facts.pipelineKey), pages)),
    };
  },
  toResponse: ({ source }) => (source.url ? { website: { url: source.url, subLinks: websiteSubLinks({ ...source, url: source.url }) } } : {}),
  syncFrequency: (source) => source.syncFrequency,
};
