/**
 * The seeded pseudo-random source of the independent workload generator
 * (`independent-workloads.ts`): mulberry32, with the few draws the generator needs. Same seed,
 * same sequence, on every platform (32-bit integer arithmetic only).
 */

/** A deterministic pseudo-random source: the same seed gives the same draws. */
export interface Random {
  /** The next number in [0, 1). */
  readonly next: () => number;
}

/**
 * A mulberry32 generator seeded with `seed` (any number; its low 32 bits are used).
 * @example const random = createRandom(42); random.next() // 0.6011037519201636
 */
export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  return {
    next: () => {
      state = (state + 0x6d2b79f5) >>> 0;
      let t = state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    },
  };
}

/** True with probability `p`. */
export function chance(random: Random, p: number): boolean {
  return random.next() < p;
}

/** A whole number from `low` to `high`, both included. */
export function intBetween(random: Random, low: number, high: number): number {
  return low + Math.floor(random.next() * (high - low + 1));
}

/** A number from `low` (included) to `high` (excluded), uniformly. */
export function between(random: Random, low: number, high: number): number {
  return low + random.next() * (high - low);
}

/** A number from `low` to `high` spread evenly over orders of magnitude (both > 0). */
export function logBetween(random: Random, low: number, high: number): number {
  return Math.exp(between(random, Math.log(low), Math.log(high)));
}

/** One of `items` (not empty), uniformly. */
export function pick<T>(random: Random, items: readonly T[]): T {
  const item = items[Math.floor(random.next() * items.length)];
  if (item === undefined) throw new Error("pick: no items to pick from");
  return item;
}

/** One of `items` (not empty), each as likely as its weight (weights >= 0, at least one > 0). */
export function pickWeighted<T>(random: Random, items: readonly (readonly [T, number])[]): T {
  const total = items.reduce((sum, [, weight]) => sum + weight, 0);
  let left = random.next() * total;
  for (const [item, weight] of items) {
    left -= weight;
    if (left < 0 && weight > 0) return item;
  }
  const last = items.findLast(([, weight]) => weight > 0);
  if (last === undefined) throw new Error("pickWeighted: no item has a positive weight");
  return last[0];
}

/** A shuffled copy of `items` (Fisher-Yates). */
export function shuffle<T>(random: Random, items: readonly T[]): T[] {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index -= 1) {
    const other = Math.floor(random.next() * (index + 1));
    const here = copy[index] as T;
    copy[index] = copy[other] as T;
    copy[other] = here;
  }
  return copy;
}

/** Up to `count` distinct items of `items`, in random order. */
export function sample<T>(random: Random, items: readonly T[], count: number): T[] {
  return shuffle(random, items).slice(0, Math.max(0, count));
}

/**
 * `value` rounded to `digits` significant digits (what a person would write in a file).
 * @example roundSignificant(1234.5, 2) // 1200
 */
export function roundSignificant(value: number, digits: number): number {
  if (value === 0 || !Number.isFinite(value)) return value;
  return Number(value.toPrecision(digits));
}
