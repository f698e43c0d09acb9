/**
 * How concentrated traffic is on the most used values of an attribute, from its Zipf exponent
 * (`skew` in the workload: 0 = uniform, about 1 = a few values dominate).
 */

/** Terms summed exactly before the tail is integrated. */
const EXACT_TERMS = 10_000;

/**
 * The generalized harmonic number H(n, s) = sum of k^-s for k = 1..n: exact for the first 10,000
 * terms, then the integral of x^-s with the trapezoid correction (error far below 0.1%).
 */
export function harmonic(n: number, s: number): number {
  const key = `${n}|${s}`;
  const cached = harmonics.get(key);
  if (cached !== undefined) return cached;
  if (harmonics.size >= MAX_CACHED_HARMONICS) harmonics.clear();
  const value = computeHarmonic(n, s);
  harmonics.set(key, value);
  return value;
}

/** H(n, s) already computed: every placement of a skewed key asks for the same few. */
const harmonics = new Map<string, number>();
const MAX_CACHED_HARMONICS = 10_000;

function computeHarmonic(n: number, s: number): number {
  const exact = Math.min(Math.floor(n), EXACT_TERMS);
  let sum = 0;
  for (let k = 1; k <= exact; k++) sum += k ** -s;
  if (n <= EXACT_TERMS) return sum;
  const a = EXACT_TERMS;
  const tail = s === 1 ? Math.log(n / a) : (n ** (1 - s) - a ** (1 - s)) / (1 - s);
  return sum + tail - 0.5 * a ** -s + 0.5 * n ** -s;
}

/**
 * Share of all requests that go to the k-th most used of `n` values (k = 1 is the hottest).
 * @example zipfShare(500_000_000, 1.5) // 0.383: the viral post of the social-reactions example
 * @example zipfShare(100, 0) // 0.01
 */
export function zipfShare(n: number, s: number, k = 1): number {
  if (n <= 1) return 1;
  if (s <= 0) return 1 / n;
  return k ** -s / harmonic(n, s);
}
