import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readSitemap } from './read-sitemap.js';

const urlset = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://x.example/a?b=1&amp;c=2</loc><lastmod>2026-01-01</lastmod></url>
  <url><loc>
    https://x.example/b
  </loc></url>
  <url><loc><![CDATA[https://x.example/c&d]]></loc></url>
</urlset>`;

describe('readSitemap', () => {
  it('reads the pages of a urlset, decoding entities and CDATA', () => {
    expect(readSitemap(Buffer.from(urlset))).toEqual({
      pages: ['https://x.example/a?b=1&c=2', 'https://x.example/b', 'https://x.example/c&d'], sitemaps: [], bytes: Buffer.byteLength(urlset),
    });
  });

  it('reads the sitemaps of a sitemap index, and gzipped files', () => {
    const index = '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://x.example/s1.xml.gz</loc></sitemap></sitemapindex>';
    expect(readSitemap(gzipSync(index))).toEqual({ pages: [], sitemaps: ['https://x.example/s1.xml.gz'], bytes: index.length });
  });

  it('refuses what is not a sitemap, and a gzip bomb', () => {
    expect(() => readSitemap(Buffer.from('<html><body>Not found</body></html>'))).toThrow('neither a urlset nor a sitemapindex');
    expect(() => readSitemap(gzipSync(Buffer.alloc(60 * 1024 * 1024)))).toThrow();
  });
});
