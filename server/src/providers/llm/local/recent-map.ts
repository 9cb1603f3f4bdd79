/**
 * A map that keeps its most recently set entries up to `limit`: setting a key makes it the
 * newest, and the oldest leave first. The limit counts entries, or with `weigh` their total weight
 * (an entry heavier than the whole limit is not kept).
 */
export class RecentMap<K, V> {
  private readonly entries = new Map<K, V>();
  private total = 0;

  constructor(private readonly limit: number, private readonly weigh: (value: V) => number = () => 1) {}

  get size(): number {
    return this.entries.size;
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }

  get(key: K): V | undefined {
    return this.entries.get(key);
  }

  set(key: K, value: V): void {
    this.delete(key);
    this.entries.set(key, value);
    this.total += this.weigh(value);
    while (this.total > this.limit) this.delete(this.entries.keys().next().value!);
  }

  private delete(key: K): void {
    if (!this.entries.has(key)) return;
    this.total -= this.weigh(this.entries.get(key)!);
    this.entries.delete(key);
  }
}
