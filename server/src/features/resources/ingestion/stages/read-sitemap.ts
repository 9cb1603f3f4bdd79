import { gunzipSync } from 'node:zlib';

/** The sitemaps protocol's bounds of one file: 50,000 URLs and 50 MB uncompressed. */
const MAX_ENTRIES = 50_000;
const MAX_UNCOMPRESSED_BYTES = 50 * 1024 * 1024;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeXml(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_, entity: string) => {
    if (entity[0] !== '#') return ENTITIES[entity.toLowerCase()] ?? '';
    const code = entity[1] === 'x' || entity[1] === 'X' ? Number.parseInt(entity.slice(2), 16) : Number(entity.slice(1));
    return Number.isSafeInteger(code) && code <= 0x10ffff ? String.fromCodePoint(code) : '';
  });
}

/**
 * Reads one sitemap (sitemaps.org 0.9, plain or gzipped): the page URLs of a `<urlset>`, or the
 * sitemap URLs of a `<sitemapindex>`. Untrusted bytes: it runs in the parser process, and a
 * gzip stream inflating beyond 50 MB fails instead of filling memory. `bytes` is the XML's size,
 * inflated (what the crawl's sitemap budget counts).
 * @throws Error when the file is neither a urlset nor a sitemap index
 */
export function readSitemap(body: Uint8Array): { pages: string[]; sitemaps: string[]; bytes: number } {
  const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const inflated = bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes, { maxOutputLength: MAX_UNCOMPRESSED_BYTES }) : bytes;
  const xml = inflated.toString('utf8');
  const isIndex = /<(?:\w+:)?sitemapindex[\s>]/i.test(xml);
  if (!isIndex && !/<(?:\w+:)?urlset[\s>]/i.test(xml)) throw new Error('the sitemap is neither a urlset nor a sitemapindex');
  const locations: string[] = [];
  for (const match of xml.matchAll(/<(?:\w+:)?loc>\s*(?:<!\[CDATA\[([\s\S]*?)\]\]>|([^<]*))\s*<\/(?:\w+:)?loc>/gi)) {
    const location = decodeXml((match[1] ?? match[2] ?? '').trim());
    if (location) locations.push(location);
    if (locations.length >= MAX_ENTRIES) break;
  }
  return isIndex ? { pages: [], sitemaps: locations, bytes: inflated.byteLength } : { pages: locations, sitemaps: [], bytes: inflated.byteLength };
}
