/**
 * Splits `total` into `n` counts that fall off with rank like a power law (the count at rank r is
 * about A / r^exponent): a few items get a lot, most get few or none, as likes, comments and
 * follows do on a real site. Each count is at most `cap`; the counts sum to exactly
 * min(total, n × cap) and come back largest first (index 0 is rank 1).
 */
export function longTail(total: number, n: number, cap: number, exponent: number): Int32Array {
  const counts = new Int32Array(n);
  const target = Math.min(total, n * cap);
  if (n === 0 || target <= 0) return counts;
  const weights = new Float64Array(n);
  for (let rank = 0; rank < n; rank += 1) weights[rank] = 1 / Math.pow(rank + 1, exponent);

  const sumFor = (scale: number): number => {
    let sum = 0;
    for (let rank = 0; rank < n; rank += 1) sum += Math.min(cap, Math.floor(scale * weights[rank]));
    return sum;
  };
  // The largest scale whose floored, capped counts do not overshoot; the sum is monotonic in it.
  let low = 0;
  let high = 1;
  while (sumFor(high) < target) high *= 2;
  for (let step = 0; step < 64 && high - low > 1e-9 * high; step += 1) {
    const middle = (low + high) / 2;
    if (sumFor(middle) <= target) low = middle;
    else high = middle;
  }
  let remaining = target;
  for (let rank = 0; rank < n; rank += 1) {
    const count = Math.min(cap, Math.floor(low * weights[rank]));
    counts[rank] = count;
    remaining -= count;
  }
  // Rounding leaves a few over: one more each to the highest ranks with room keeps the order.
  while (remaining > 0) {
    for (let rank = 0; rank < n && remaining > 0; rank += 1) {
      if (counts[rank] < cap) {
        counts[rank] = counts[rank] + 1;
        remaining -= 1;
      }
    }
  }
  return counts;
}
