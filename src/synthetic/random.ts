/**
 * Deterministic pseudo-random numbers for synthetic data: the same seed gives the same data on
 * every machine. The generator is mulberry32 (Tommy Ettinger's 32-bit generator, public domain:
 * https://gist.github.com/tommyettinger/46a874533244883189143505d203312c), seeded per purpose
 * through a string hash, so adding an attribute does not change the values of the others.
 */

/** A source of numbers in [0, 1). */
export type Rng = () => number;

/**
 * mulberry32: a fast 32-bit generator with a period of 2^32, good enough for test data (not for
 * cryptography).
 * @example const rng = mulberry32(42); rng(); // 0.6011037519201636
 */
export function mulberry32(seed: number): Rng {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a 32-bit hash of a text, mixed with a seed: a stable seed per purpose. */
export function hashSeed(seed: number, ...parts: readonly (string | number)[]): number {
  let hash = (0x811c9dc5 ^ (seed >>> 0)) >>> 0;
  for (const char of parts.join("\u0000")) {
    hash ^= char.codePointAt(0) ?? 0;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/** A generator for one purpose (entity, attribute, ...) derived from the dataset seed. */
export function createRng(seed: number, ...purpose: readonly (string | number)[]): Rng {
  return mulberry32(hashSeed(seed, ...purpose));
}

/** An integer in [min, max] (inclusive). */
export function randomInt(rng: Rng, min: number, max: number): number {
  return min + Math.floor(rng() * (max - min + 1));
}

/** One element of a non-empty array. */
export function pickOne<T>(rng: Rng, values: readonly T[]): T {
  const value = values[Math.floor(rng() * values.length)];
  if (value === undefined) throw new RangeError("pickOne needs a non-empty array");
  return value;
}

/** A shuffled copy (Fisher-Yates). */
export function shuffled<T>(rng: Rng, values: readonly T[]): T[] {
  const copy = [...values];
  for (let index = copy.length - 1; index > 0; index--) {
    const other = Math.floor(rng() * (index + 1));
    [copy[index], copy[other]] = [copy[other] as T, copy[index] as T];
  }
  return copy;
}

/**
 * Zipf weights 1/(rank+1)^exponent for `count` ranks (exponent 0 = uniform): how often the
 * value of each rank is used.
 */
export function zipfWeights(count: number, exponent: number): number[] {
  return Array.from({ length: count }, (_, rank) => 1 / Math.pow(rank + 1, exponent));
}

/**
 * A sampler of ranks 0..count-1 following Zipf's law with the given exponent (binary search in
 * the cumulative weights).
 */
export function zipfSampler(count: number, exponent: number): (rng: Rng) => number {
  if (exponent <= 0) return (rng) => Math.floor(rng() * count);
  const cumulative: number[] = [];
  let total = 0;
  for (const weight of zipfWeights(count, exponent)) {
    total += weight;
    cumulative.push(total);
  }
  return (rng) => {
    const target = rng() * total;
    let low = 0;
    let high = cumulative.length - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((cumulative[middle] ?? 0) < target) low = middle + 1;
      else high = middle;
    }
    return low;
  };
}

/**
 * Splits `total` into integer shares proportional to `weights`, none above `max` (water-filling:
 * shares that would exceed the cap are fixed at it and the rest is shared again), rounding by
 * largest remainder so the shares add up to exactly `total`. Needs total <= max x weights.length.
 * @example distributeCounts(10, [1, 1, 2], 4) // [3, 3, 4]
 */
export function distributeCounts(total: number, weights: readonly number[], max = Infinity): number[] {
  const counts = weights.map(() => 0);
  if (weights.length === 0 || total <= 0) return counts;
  if (total > max * weights.length) {
    throw new RangeError(`cannot split ${total} into ${weights.length} shares of at most ${max}`);
  }
  const open = new Set(weights.map((_, index) => index));
  let remaining = total;
  for (;;) {
    const weightSum = [...open].reduce((sum, index) => sum + (weights[index] ?? 0), 0);
    const capped = [...open].filter((index) => (remaining * (weights[index] ?? 0)) / weightSum >= max);
    if (capped.length === 0) {
      const exact = [...open].map((index) => ({
        index,
        share: (remaining * (weights[index] ?? 0)) / weightSum,
      }));
      let assigned = 0;
      for (const { index, share } of exact) {
        counts[index] = Math.floor(share);
        assigned += Math.floor(share);
      }
      const byRemainder = [...exact].sort(
        (a, b) => b.share - Math.floor(b.share) - (a.share - Math.floor(a.share)) || a.index - b.index,
      );
      for (let extra = 0; extra < remaining - assigned; extra++) {
        const entry = byRemainder[extra % byRemainder.length];
        if (entry !== undefined) counts[entry.index] = (counts[entry.index] ?? 0) + 1;
      }
      return counts;
    }
    for (const index of capped) {
      counts[index] = max;
      remaining -= max;
      open.delete(index);
    }
    if (open.size === 0 || remaining <= 0) return counts;
  }
}
