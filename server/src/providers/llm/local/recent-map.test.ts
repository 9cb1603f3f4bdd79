import { describe, expect, it } from 'vitest';
import { RecentMap } from './recent-map.js';

describe('RecentMap', () => {
  it('keeps the most recently set entries, the oldest leaving first', () => {
    const map = new RecentMap<string, number>(2);
    map.set('a', 1);
    map.set('b', 2);
    map.set('a', 3);
    map.set('c', 4);
    expect([map.has('a'), map.has('b'), map.has('c')]).toEqual([true, false, true]);
    expect(map.get('a')).toBe(3);
    expect(map.size).toBe(2);
  });
});

describe('RecentMap by weight', () => {
  it('keeps the newest entries whose weights fit the limit, and none heavier than it', () => {
    const map = new RecentMap<string, string>(10, (value) => value.length);
    map.set('a', 'pine');
    map.set('b', 'teak');
    map.set('a', 'pine');
    map.set('c', 'birch');
    expect([map.has('a'), map.has('b'), map.has('c')]).toEqual([true, false, true]);
    // Replacing an entry counts its new weight only.
    map.set('c', 'spruce');
    expect([map.has('a'), map.has('c')]).toEqual([true, true]);
    map.set('d', 'cedar grove');
    expect([map.has('a'), map.has('c'), map.has('d'), map.size]).toEqual([false, false, false, 0]);
  });
});
