import { describe, expect, it } from 'vitest';
import { withinOfficeHours } from './office-hours.js';

// 2026-11-27 is a Friday.
const at = (iso: string) => Date.parse(iso);

describe('withinOfficeHours', () => {
  const weekdays = { timeZone: 'Europe/Berlin', weekdays: [1, 2, 3, 4, 5], from: '09:00', to: '17:00' };

  it('counts the hours in the office\'s time zone', () => {
    expect(withinOfficeHours(weekdays, at('2026-11-27T08:30:00Z'))).toBe(true); // 09:30 in Berlin
    expect(withinOfficeHours(weekdays, at('2026-11-27T07:59:00Z'))).toBe(false); // 08:59
    expect(withinOfficeHours(weekdays, at('2026-11-27T16:00:00Z'))).toBe(false); // 17:00: the end is excluded
  });

  it('is closed on days not listed', () => {
    expect(withinOfficeHours(weekdays, at('2026-11-28T10:00:00Z'))).toBe(false); // Saturday
  });

  it('spans midnight when `to` comes before `from`', () => {
    const nights = { timeZone: 'UTC', weekdays: [5], from: '22:00', to: '06:00' };
    expect(withinOfficeHours(nights, at('2026-11-27T23:00:00Z'))).toBe(true); // Friday night
    expect(withinOfficeHours(nights, at('2026-11-28T05:00:00Z'))).toBe(true); // Saturday early: Friday's shift
    expect(withinOfficeHours(nights, at('2026-11-29T05:00:00Z'))).toBe(false); // Sunday early: Saturday has none
  });
});
