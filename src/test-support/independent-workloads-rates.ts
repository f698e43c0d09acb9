/**
 * Request rates of the independent workload generator's access patterns: an average spread over
 * orders of magnitude, a peak 1 to 8 times higher (sometimes equal), and now and then a pattern
 * that runs only at peak times (average 0).
 */
import type { DraftRate } from "./independent-workloads-model.js";
import {
  between,
  chance,
  logBetween,
  roundSignificant,
  type Random,
} from "./independent-workloads-random.js";

/**
 * A rate `{ avg, peak }` with `avg` in `range` (requests per second) and `peak >= avg`.
 * @example drawRate(createRandom(2), { min: 0.1, max: 3000 }) // { avg: 190, peak: 910 }
 */
export function drawRate(random: Random, range: { readonly min: number; readonly max: number }): DraftRate {
  const avg = roundSignificant(logBetween(random, range.min, range.max), 2);
  if (chance(random, 0.015)) return { avg: 0, peak: avg };
  if (chance(random, 0.1)) return { avg, peak: avg };
  return { avg, peak: Math.max(avg, roundSignificant(avg * between(random, 1, 8), 2)) };
}
