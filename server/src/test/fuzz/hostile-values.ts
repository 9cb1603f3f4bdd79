/** A small seeded generator (mulberry32): the same seed gives the same requests on every run. */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(max: number): number {
    return Math.floor(this.next() * max);
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }

  bytes(length: number): Buffer {
    return Buffer.from(Array.from({ length }, () => this.int(256)));
  }
}

/** Strings no well-behaved client sends: NUL, lone surrogates, controls, markup, huge, odd Unicode. */
export const HOSTILE_STRINGS: readonly string[] = [
  '', ' ', '\0', 'a\0b', '\ud800', '\udfff', 'x\ud83dy', '\u202eevil', '\ufeff', '\r\n\r\nX-Injected: 1', '%00', '%zz',
  '<script>alert(1)</script>', '"><img src=x onerror=alert(1)>', "' OR 1=1 --", '${7*7}', '{{7*7}}', '../../etc/passwd',
  '..\\..\\windows\\win.ini', 'file:///etc/passwd', 'http://127.0.0.1:1/', 'http://[::ffff:127.0.0.1]/', 'javascript:alert(1)',
  '\u0001\u0002\u001f\u007f', '🙂'.repeat(50), 'é'.normalize('NFD'), 'x'.repeat(100_001), '#FFF', 'ffffffffffffffffffffffff',
  '__proto__', 'constructor', 'NaN', '1e309', '-0',
];

/** Values of every JSON type, at their edges. */
export const HOSTILE_VALUES: readonly unknown[] = [
  null, true, false, 0, -1, 1.5, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, [], {}, [null], [[]], { '': '' },
  Array.from({ length: 5000 }, () => 'x'), JSON.parse('{"__proto__":{"polluted":true}}'),
  { constructor: { prototype: { polluted: true } } }, ...HOSTILE_STRINGS,
];

/** A JSON text nested `depth` levels deep (arrays or objects). */
export function deepJson(depth: number, kind: 'array' | 'object'): string {
  return kind === 'array' ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

/** Percent-encodes every byte, so the path or query carries exactly these bytes (and broken escapes stay broken). */
export function percentEncodeBytes(bytes: Buffer): string {
  return [...bytes].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
}

/** Path segments that must never reach a handler as a usable id. */
export const HOSTILE_PATH_SEGMENTS: readonly string[] = [
  '%', '%zz', '%ff%fe', '%E0%A4%A', '%00', 'a'.repeat(23) + '%00', '%2e%2e', '..%2f..%2fetc', '%c0%ae%c0%ae', 'x'.repeat(10_000),
  'FFFFFFFFFFFFFFFFFFFFFFFF', 'ffffffffffffffffffffffff', '%u0041', '%252e', 'null', 'undefined', '__proto__', 'constructor',
  '1e3', '-1', '%F0%9F%99%82', '%ED%A0%80',
];
