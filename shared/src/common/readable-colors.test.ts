import { describe, expect, it } from 'vitest';
import { colorWarningsOf } from '../chatbots/color-warning.schema.js';
import { MIN_CONTRAST, accentOf, contrastRatio, hslOf, readablePair } from './readable-colors.js';

describe('readablePair', () => {
  it.each(['#F28F3B', '#3B82F6', '#777777', '#FFFFFF', '#000', '#FACC15', '#7C3AED'])('reads at 4.5:1 or better on %s', (color) => {
    const pair = readablePair([color]);
    expect(pair.adjusted).toBe(false);
    expect(contrastRatio(pair.text, color)).toBeGreaterThanOrEqual(MIN_CONTRAST);
  });

  it('chooses dark text on the orange and blue that white text fails on', () => {
    expect(contrastRatio('#ffffff', '#F28F3B')).toBeLessThan(3);
    expect(readablePair(['#F28F3B']).text).toBe('#111827');
    expect(readablePair(['#3B82F6']).text).not.toBe('#ffffff');
  });

  it('darkens or lightens the gradient stops that no single text colour reads on', () => {
    const stops = ['#4F46E5', '#7C3AED', '#DB2777', '#F59E0B'];
    const pair = readablePair(stops);
    expect(pair.adjusted).toBe(true);
    for (const bg of pair.backgrounds) expect(contrastRatio(pair.text, bg)).toBeGreaterThanOrEqual(MIN_CONTRAST);
    expect(pair.backgrounds[0]).toBe('#4F46E5');
  });
});

describe('colorWarningsOf', () => {
  it('warns about a gradient it had to adjust, and about nothing else', () => {
    expect(colorWarningsOf({ gradientColors: ['#111111', '#222222', '#333333', '#444444'] })).toEqual([]);
    expect(colorWarningsOf({})).toEqual([]);
    const [warning] = colorWarningsOf({ gradientColors: ['#4F46E5', '#7C3AED', '#DB2777', '#F59E0B'] });
    expect(warning).toMatchObject({ field: 'gradientColors', textColor: '#ffffff' });
    expect(warning!.message).toContain('#F59E0B');
    // A colour used on two stops is named once.
    expect(colorWarningsOf({ gradientColors: ['#FFFFFF', '#000000', '#FFFFFF', '#000000'] })[0]!.message)
      .toMatch(/shows #FFFFFF darker under #ffffff text$/);
  });
});

describe('accentOf', () => {
  it.each(['#7C2D12', '#1D4ED8', '#000000', '#8B5CF6'])('keeps %s, which stands out on white at 3.5:1', (color) => {
    expect(accentOf(color)).toBe(color);
  });

  it('darkens a pale colour in its own hue, and a readable text colour exists on the result', () => {
    const accent = accentOf('#BFDBFE');
    expect(accent).toBe('#245fa8');
    expect(hslOf(accent)[0]).toBeCloseTo(hslOf('#BFDBFE')[0], 0);
    expect(readablePair([accent])).toMatchObject({ text: '#ffffff', adjusted: false });
    // The pale orange reads with dark text, but the widget paints its darker shade, with white.
    expect(readablePair(['#F28F3B']).text).toBe('#111827');
    expect(readablePair([accentOf('#F28F3B')]).text).toBe('#ffffff');
  });

  it.each(['#FACC15', '#22D3EE', '#A3E635', '#FDE68A', '#FFFF00'])('darkens %s until its focus rings stand out on white and light grey', (color) => {
    const accent = accentOf(color);
    expect(contrastRatio(accent, '#ffffff')).toBeGreaterThanOrEqual(3.5);
    expect(contrastRatio(accent, '#F6F7F8')).toBeGreaterThanOrEqual(3);
    expect(contrastRatio(accent, '#ffffff')).toBeLessThan(4);
  });

  it('turns white and pale greys into a slate blue', () => {
    expect(accentOf('#FFFFFF')).toBe('#52637a');
    expect(accentOf('#EEEEEE')).toBe('#52637a');
  });
});
