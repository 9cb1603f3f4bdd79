import type { SourceSection } from '../ingestion-types.js';

/** A line naming its page ("Overview - page 2 of 3", "Page 4", "2 / 9"): a running header or footer when it repeats. */
const PAGE_NUMBER = /\bpage\s+\d+(?:\s*(?:of|\/)\s*\d+)?\b|^\s*\d+\s*(?:of|\/)\s*\d+\s*$/i;
/** A running header or footer is a short line; a longer one is kept whatever it says. */
const MAX_FURNITURE_CHARS = 120;

/** A line as it repeats from page to page: its numbers any number, its spaces any spaces. */
const shapeOf = (line: string) => line.trim().replace(/\s+/g, ' ').replace(/\d+/g, '#').toLowerCase();

/**
 * Drops a PDF's running headers and footers that carry the page number ("Security Overview -
 * page 1 of 3"): short lines naming a page that repeat, numbers aside, on two pages or more.
 * pdf.js gives them in drawing order, often inside the page's text, where they joined the next
 * sentence ("…Overview - page 1 of 3 An Owner opens Settings…") and were quoted as part of it.
 * Other repeated lines stay: a footer's phone number may be the only place a fact is written.
 */
export function withoutPageFurniture(sections: SourceSection[]): SourceSection[] {
  const pagesByShape = new Map<string, Set<number>>();
  sections.forEach((section, index) => {
    for (const unit of section.units) {
      for (const line of unit.text.split('\n')) {
        if (line.length > MAX_FURNITURE_CHARS || !PAGE_NUMBER.test(line)) continue;
        const shape = shapeOf(line);
        pagesByShape.set(shape, (pagesByShape.get(shape) ?? new Set()).add(index));
      }
    }
  });
  const furniture = new Set([...pagesByShape].filter(([, pages]) => pages.size >= 2).map(([shape]) => shape));
  if (furniture.size === 0) return sections;
  const isFurniture = (line: string) => line.length <= MAX_FURNITURE_CHARS && PAGE_NUMBER.test(line) && furniture.has(shapeOf(line));
  return sections.map((section) => ({
    ...section,
    units: section.units.map((unit) => ({ ...unit, text: unit.text.split('\n').filter((line) => !isFurniture(line)).join('\n').trim() })).filter((unit) => unit.text !== ''),
  })).filter((section) => section.units.length > 0);
}
