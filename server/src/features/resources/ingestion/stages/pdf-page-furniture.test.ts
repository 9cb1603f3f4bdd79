import { describe, expect, it } from 'vitest';
import { withoutPageFurniture } from './pdf-page-furniture.js';

const page = (page: number, text: string) => ({ provenance: { page }, units: [{ text }] });

describe('PDF page furniture', () => {
  it('drops running headers and footers that carry the page number, and keeps everything else', () => {
    const sections = [
      page(1, 'Single sign-on works with Okta.\nSecurity Overview - page 1 of 3\nAn Owner opens Settings > Security.'),
      page(2, 'Security Overview - page 2 of 3\nBackups are kept for 35 days.\nCall 01632 960 400'),
      page(3, 'Report vulnerabilities to security@example.test.\nSecurity Overview - page 3 of 3\nCall 01632 960 400'),
    ];
    expect(withoutPageFurniture(sections)).toEqual([
      page(1, 'Single sign-on works with Okta.\nAn Owner opens Settings > Security.'),
      page(2, 'Backups are kept for 35 days.\nCall 01632 960 400'),
      page(3, 'Report vulnerabilities to security@example.test.\nCall 01632 960 400'),
    ]);
  });

  it('keeps a line naming a page once, and a long one', () => {
    const sections = [
      page(1, 'See page 2 of the form for your signature.'),
      page(2, `Sign here.\n${'The terms on page 2 of the contract apply to every order, including orders placed by phone or by post. '.repeat(2)}`),
      page(3, `${'The terms on page 3 of the contract apply to every order, including orders placed by phone or by post. '.repeat(2)}`),
    ];
    expect(withoutPageFurniture(sections)).toEqual(sections);
  });
});
