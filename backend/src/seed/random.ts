/**
 * A small seeded PRNG (mulberry32) and the sampling helpers the generator needs. Math.random
 * cannot be seeded, and a repeatable data set is what makes two benchmark runs comparable.
 */
export class Random {
  private state: number;

  constructor(seed: number) {
    // Spread small seeds (1, 2, 3 …) over the state space so their streams do not start alike.
    this.state = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /** An independent stream: one per table, so changing one table's shape leaves the others alone. */
  fork(): Random {
    return new Random(Math.floor(this.next() * 4294967296));
  }

  /** A random permutation of 0 … n-1 (Fisher–Yates). */
  permutation(n: number): Uint32Array {
    const order = new Uint32Array(n);
    for (let i = 0; i < n; i += 1) order[i] = i;
    for (let i = n - 1; i > 0; i -= 1) {
      const j = Math.floor(this.next() * (i + 1));
      const swap = order[i];
      order[i] = order[j];
      order[j] = swap;
    }
    return order;
  }

  /**
   * k distinct integers from [0, n) in ascending order, none equal to `exclude`. `skew` > 1
   * favours low numbers (index into a popularity order to get popular picks). Rejection sampling
   * while k is small beside n; above that, the complement is drawn instead so it never stalls.
   */
  distinct(k: number, n: number, skew = 1, exclude = -1): number[] {
    const available = exclude >= 0 && exclude < n ? n - 1 : n;
    const count = Math.min(k, available);
    if (count <= 0) return [];
    if (count > available / 2) {
      const dropped = new Set(this.distinct(available - count, n, 1, exclude));
      const kept: number[] = [];
      for (let i = 0; i < n; i += 1) if (i !== exclude && !dropped.has(i)) kept.push(i);
      return kept;
    }
    const chosen = new Set<number>();
    while (chosen.size < count) {
      const value = Math.floor(Math.pow(this.next(), skew) * n);
      if (value !== exclude) chosen.add(value);
    }
    return [...chosen].sort((a, b) => a - b);
  }
}
