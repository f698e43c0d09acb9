/**
 * The physical partition layout a container gets from its throughput and storage, and the RU/s
 * it must be provisioned with so that its busiest physical partition is served.
 *
 * Rules (facts in `cosmos/limits.ts`):
 * - a container created with manual throughput gets ceil(RU/s / 6,000) physical partitions, with
 *   autoscale ceil(max RU/s / 10,000); raising RU/s later splits to ceil(RU/s / 10,000); each
 *   partition also holds at most 50 GB, so storage adds partitions;
 * - provisioned RU/s are divided evenly among the physical partitions, so the busiest partition
 *   gets RU/s / partitions: the container needs max(peak, busiest x partitions) ("the RU/s needed
 *   for an even split"), and more RU/s mean more partitions, so this is solved as a fixed point;
 * - no physical partition serves more than 10,000 RU/s, whatever is provisioned: when the busiest
 *   partition needs more, the layout is over the limit (an error). More partitions can still
 *   bring it under: they separate distinct hot keys that share a range and shrink the share of
 *   the evenly spread load each partition carries. The layout looks for the fewest partitions at
 *   which the busiest fits (up to {@link MAX_LAYOUT_PARTITIONS}) and provisions the RU/s that
 *   create them, and says so; a single logical key over 10,000 RU/s never fits, and such a layout
 *   is priced at the RU/s its even split would need if a partition could serve it (a figure for
 *   comparing alternatives that are all over the limit, which the reason states as such);
 * - a container created with manual throughput gives each partition at most 6,000 RU/s (RU/s /
 *   ceil(RU/s / 6,000)), so a partition that needs more cannot be served by creating it with manual
 *   throughput (create it with autoscale, or raise manual RU/s after creation, which splits by
 *   10,000): the layout says so;
 * - serverless: partitions follow storage only, and each serves at most 5,000 RU/s.
 */
import {
  AUTOSCALE_MAX_RUS_STEP,
  INITIAL_RUS_PER_PARTITION_AUTOSCALE,
  INITIAL_RUS_PER_PARTITION_MANUAL,
  MANUAL_RUS_STEP,
  MAX_PHYSICAL_PARTITION_GB,
  MAX_PHYSICAL_PARTITION_RUS,
  SERVERLESS_MAX_PHYSICAL_PARTITION_RUS,
  minimumAutoscaleMaxRus,
  minimumManualRus,
  physicalPartitionsFor,
  MAX_EXACT_NUMBER,
} from "../cosmos/limits.js";

export type LayoutMode = "manual" | "autoscale" | "serverless";

export interface LayoutInput {
  /** RU/s the container consumes at peak. */
  readonly peak: number;
  readonly storageGB: number;
  /** RU/s at peak on the busiest physical partition when the container has `partitions`. */
  readonly hottestAt: (partitions: number) => number;
  /**
   * A lower bound of `hottestAt` at every count (the largest key plus its share of the spread
   * load): counts where it is over the limit cannot fit and are not tried.
   */
  readonly hottestLowerBound?: (partitions: number) => number;
  /** How many heavy keys `hottestAt` places (bounds the partition counts tried). */
  readonly heavyKeys?: number;
  /** The model pins the partition count. */
  readonly pinnedPartitions?: number;
  /** The model pins the RU/s (manual) or the autoscale maximum. */
  readonly pinnedRus?: number;
  /**
   * At least this many partitions (the count the access patterns were planned with): the RU/s
   * are raised to create them when fewer RU/s would create fewer.
   */
  readonly minPartitions?: number;
}

export interface PartitionLayout {
  readonly mode: LayoutMode;
  readonly partitions: number;
  /** Partitions its storage alone needs (50 GB each). */
  readonly partitionsForStorage: number;
  /** RU/s at peak on the busiest physical partition. */
  readonly hottest: number;
  /** RU/s to provision (manual RU/s or autoscale maximum, in the mode's steps); 0 for serverless. */
  readonly provisionedRus: number;
  /** The RU/s the even split needs (busiest x partitions) when that is more than the peak. */
  readonly evenSplitRus?: number;
  /**
   * More partitions than the peak's RU/s would create, so that the busiest partition fits in
   * 10,000 RU/s (its hot keys apart, its share of the spread load smaller).
   */
  readonly splitForBusiest: boolean;
  /** The RU/s were raised to create `minPartitions` (the plans' partition count). */
  readonly raisedForPartitions: boolean;
  /** RU/s one physical partition can serve in this mode (10,000; 5,000 serverless). */
  readonly partitionLimit: number;
  /** The busiest partition needs more than `partitionLimit`. */
  readonly overPartitionLimit: boolean;
  /** Pinned RU/s give the busiest partition less than it needs (throttling at peak). */
  readonly underProvisioned: boolean;
  /**
   * Manual throughput only: the busiest partition needs more than the 6,000 RU/s per partition a
   * container created with manual throughput gets, however many RU/s it is created with.
   */
  readonly overCreationShare: boolean;
}

/**
 * Most physical partitions a layout goes to for its busiest partition to fit, when that is more
 * than four times what it starts from: 1,000 (10,000,000 RU/s, ten times the default maximum per
 * container); beyond both the partition stays over the limit.
 */
export const MAX_LAYOUT_PARTITIONS = 1_000;
/** Partition counts tried beyond the start: up to this many times it (or {@link MAX_LAYOUT_PARTITIONS}). */
const MAX_SPLIT_FACTOR = 4;
/**
 * Key placements the search may make trying counts one by one (a split adds a partition); past
 * it, the counts follow a geometric sequence of {@link SPLIT_TRIALS_GEOMETRIC} steps to the end. So
 * the search costs the same for 10 partitions or 10 million, and is exact (every count tried) for
 * the partition counts real containers have.
 */
const SPLIT_PLACEMENTS = 200_000;
const SPLIT_TRIALS_GEOMETRIC = 64;

/**
 * The partition counts a layout tries, in increasing order, from `base` to the larger of four
 * times `base` and {@link MAX_LAYOUT_PARTITIONS}; with `from`, only those from `from` on (the
 * same counts, reached without walking the ones before).
 * @example [...splitTrials(3, 8)].slice(0, 4) // [3, 4, 5, 6]
 */
export function* splitTrials(base: number, heavyKeys: number, from = base): Generator<number> {
  const last = Math.max(base * MAX_SPLIT_FACTOR, MAX_LAYOUT_PARTITIONS);
  const oneByOne = Math.max(SPLIT_TRIALS_GEOMETRIC, Math.floor(SPLIT_PLACEMENTS / Math.max(1, heavyKeys)));
  let count = base;
  if (count >= from) yield count;
  // The one-by-one counts end at base + oneByOne - 1 (or `last`); jump to `from` within them.
  // Past 2^53 counts have no next integer: the walk below stops there, so no jump.
  const end = Math.min(last, base + oneByOne - 1);
  let tried = 1;
  if (from > base + 1 && end < Number.MAX_SAFE_INTEGER) {
    const skip = Math.min(from, end + 1) - 1 - base;
    count += skip;
    tried += skip;
  }
  for (; tried < oneByOne && count < last && count + 1 > count; tried++) {
    count++;
    if (count >= from) yield count;
  }
  const ratio = (last / count) ** (1 / SPLIT_TRIALS_GEOMETRIC);
  while (count < last) {
    count = Math.min(last, Math.max(count + 1, Math.ceil(count * ratio)));
    if (count >= from) yield count;
  }
}

/**
 * The fewest partitions at which the lower bound fits the limit (it falls as partitions grow),
 * or Infinity when none does.
 */
export function firstPossibleCount(
  bound: (partitions: number) => number,
  limit: number,
  last: number,
): number {
  // Counts are whole numbers a double holds exactly: the bisection below always narrows.
  const end = Math.min(Math.floor(last), MAX_EXACT_NUMBER);
  if (!(end >= 1) || !(bound(end) <= limit)) return Number.POSITIVE_INFINITY;
  let low = 1;
  let high = end;
  // bound(high) fits; find the least count that fits by bisection (at most 53 steps).
  while (low < high) {
    const middle = low + Math.floor((high - low) / 2);
    if (bound(middle) <= limit) high = middle;
    else low = middle + 1;
  }
  return low;
}

/** Rounds of the RU/s <-> partitions fixed point (it converges in a few). */
const MAX_ROUNDS = 64;

const roundUp = (value: number, step: number): number => Math.ceil(value / step) * step;

/** Serverless: the partitions storage (or the model) gives, each serving at most 5,000 RU/s. */
function serverlessLayout(input: LayoutInput, partitionsForStorage: number): PartitionLayout {
  const partitions = input.pinnedPartitions ?? partitionsForStorage;
  const hottest = input.hottestAt(partitions);
  return {
    mode: "serverless",
    partitions,
    partitionsForStorage,
    hottest,
    provisionedRus: 0,
    splitForBusiest: false,
    raisedForPartitions: false,
    partitionLimit: SERVERLESS_MAX_PHYSICAL_PARTITION_RUS,
    overPartitionLimit: hottest > SERVERLESS_MAX_PHYSICAL_PARTITION_RUS,
    underProvisioned: false,
    overCreationShare: false,
  };
}

/**
 * The fewest physical partitions above `partitions` whose busiest stays under the per-partition
 * limit, or undefined when none up to the search's end does. Counts where even the lower bound is
 * over the limit cannot fit: the search starts past them (none fits when the largest key alone is
 * over it).
 */
function fewestPartitionsUnderLimit(input: LayoutInput, partitions: number): number | undefined {
  const last = Math.max(partitions * MAX_SPLIT_FACTOR, MAX_LAYOUT_PARTITIONS);
  const from =
    input.hottestLowerBound === undefined
      ? partitions + 1
      : Math.max(
          partitions + 1,
          firstPossibleCount(input.hottestLowerBound, MAX_PHYSICAL_PARTITION_RUS, last),
        );
  if (from > last) return undefined;
  for (const count of splitTrials(partitions, input.heavyKeys ?? 1, from)) {
    if (count > partitions && input.hottestAt(count) <= MAX_PHYSICAL_PARTITION_RUS) return count;
  }
  return undefined;
}

/**
 * The layout and RU/s of a container in `mode`.
 * @example layoutFor("autoscale", { peak: 38_212, storageGB: 0, hottestAt: (p) => 9_553 }).provisionedRus
 */
export function layoutFor(mode: LayoutMode, input: LayoutInput): PartitionLayout {
  const partitionsForStorage = Math.max(1, Math.ceil(input.storageGB / MAX_PHYSICAL_PARTITION_GB));
  if (mode === "serverless") return serverlessLayout(input, partitionsForStorage);
  const perPartition =
    mode === "manual" ? INITIAL_RUS_PER_PARTITION_MANUAL : INITIAL_RUS_PER_PARTITION_AUTOSCALE;
  const step = mode === "manual" ? MANUAL_RUS_STEP : AUTOSCALE_MAX_RUS_STEP;
  const minimum =
    mode === "manual" ? minimumManualRus(input.storageGB) : minimumAutoscaleMaxRus(input.storageGB);
  const partitionsOf = (rus: number): number =>
    input.pinnedPartitions ?? physicalPartitionsFor({ rus, mode, storageGB: input.storageGB });
  // The least RU/s that create `count` partitions.
  const rusFor = (count: number): number => roundUp((count - 1) * perPartition + 1, step);
  const forPartitions =
    input.minPartitions !== undefined && input.minPartitions > partitionsForStorage
      ? rusFor(input.minPartitions)
      : 0;
  const result = (rus: number, partitions: number, splitForBusiest: boolean): PartitionLayout => {
    const hottest = input.hottestAt(partitions);
    const evenSplit = hottest * partitions;
    return {
      mode,
      partitions,
      partitionsForStorage,
      hottest,
      provisionedRus: rus,
      ...(evenSplit > input.peak * 1.001 && evenSplit > minimum ? { evenSplitRus: evenSplit } : {}),
      splitForBusiest,
      raisedForPartitions: forPartitions > 0 && rus <= forPartitions && forPartitions > input.peak,
      partitionLimit: MAX_PHYSICAL_PARTITION_RUS,
      overPartitionLimit: hottest > MAX_PHYSICAL_PARTITION_RUS,
      underProvisioned: input.pinnedRus !== undefined && hottest > rus / partitions + 1e-9,
      overCreationShare:
        mode === "manual" &&
        input.pinnedPartitions === undefined &&
        input.pinnedRus === undefined &&
        hottest > perPartition,
    };
  };
  if (input.pinnedRus !== undefined) return result(input.pinnedRus, partitionsOf(input.pinnedRus), false);
  let rus = roundUp(Math.max(input.peak, minimum, forPartitions), step);
  let splits = false;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    let partitions = partitionsOf(rus);
    if (input.hottestAt(partitions) > MAX_PHYSICAL_PARTITION_RUS && input.pinnedPartitions === undefined) {
      // More partitions may bring the busiest under the limit: find the fewest that do.
      const fits = fewestPartitionsUnderLimit(input, partitions);
      // Nothing fits: no RU/s serve it (an error). It is priced at the RU/s the even split would
      // need if a partition could serve it, so that alternatives that are all over the limit
      // still compare by how far over they are.
      if (fits === undefined)
        return result(
          Math.max(rus, roundUp(input.hottestAt(partitions) * partitions, step)),
          partitions,
          splits,
        );
      rus = Math.max(rus, rusFor(fits));
      splits = true;
      partitions = partitionsOf(rus);
    }
    const hottest = input.hottestAt(partitions);
    // No RU/s at creation give a partition more than `perPartition`: stop, the layout says so.
    if (hottest > perPartition && input.pinnedPartitions === undefined)
      return result(rus, partitions, splits);
    const needed = roundUp(hottest * partitions, step);
    if (needed <= rus) return result(rus, partitions, splits);
    rus = needed;
  }
  return result(rus, partitionsOf(rus), splits);
}
