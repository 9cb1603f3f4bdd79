import { describe, expect, it } from 'vitest';
import { CrawlFrontier, MAX_PATH_LENGTH } from './crawl-frontier.js';

describe('CrawlFrontier', () => {
  it('does not crawl a discovered path longer than 2,048 characters', () => {
    const frontier = new CrawlFrontier('https://x.example/', [], { discovery: 'LINKS', includePaths: ['/**'] });
    expect(frontier.accepts(new URL(`https://x.example/${'a'.repeat(MAX_PATH_LENGTH - 1)}`))).toBe(true);
    expect(frontier.accepts(new URL(`https://x.example/${'a'.repeat(MAX_PATH_LENGTH)}`))).toBe(false);
  });

  it('queues a link once, whatever its fragment, within the path filters', () => {
    const frontier = new CrawlFrontier('https://x.example/', [], { discovery: 'LINKS', includePaths: ['/docs/**'], excludePaths: ['/docs/old/*'] });
    expect(frontier.add('https://x.example/docs/a#top', 1)).toBe(true);
    expect(frontier.add('https://x.example/docs/a#end', 1)).toBe(false);
    expect(frontier.add('https://x.example/docs/old/b', 1)).toBe(false);
    expect(frontier.add('https://x.example/blog/c', 1)).toBe(false);
    expect(frontier.pending).toBe(2);
  });
});
