/**
 * Where logical partition keys land among physical partitions. Cosmos DB hashes each key
 * (MurmurHash3, `cosmos/partition-key-hash.ts`, the SDK's own encoding) and gives every physical
 * partition a contiguous range of the hash space; a few hot keys can land on the same physical
 * partition.
 *
 * Range split (our reading of the service, written down here): a container created with N
 * physical partitions has N ranges of equal width over the hash space (its keys hash uniformly,
 * so each holds an equal share of them); a hierarchical key is placed by its first level, so all
 * keys of one first level share a range unless a split cuts inside that prefix (the service does
 * so when one prefix outgrows a partition, which the even split below does not model).
 */
import {
  hashSpacePosition,
  type PartitionKeyComponent,
  type PartitionKeyHashing,
} from "../cosmos/partition-key-hash.js";

/** A logical key with load on it, as its components (one per partition key path). */
export interface HeavyKey {
  readonly components: readonly PartitionKeyComponent[];
  readonly load: number;
}

/** Hash positions already computed (the evaluation places the same keys many times). */
const positions = new Map<string, number>();
/** Entries kept before the cache starts over (bounded memory). */
const MAX_CACHED_POSITIONS = 100_000;

/**
 * The same, per components array (a load's keys keep the arrays of the plans they came from, and
 * a key is placed again for every new load of its container): no JSON text to build.
 */
const positionsOfArrays = new WeakMap<readonly PartitionKeyComponent[], Map<string, number>>();

function positionOf(components: readonly PartitionKeyComponent[], hashing: PartitionKeyHashing): number {
  const hashingKey = `${hashing.kind}${hashing.version}`;
  let byHashing = positionsOfArrays.get(components);
  const known = byHashing?.get(hashingKey);
  if (known !== undefined) return known;
  const cacheKey = `${hashingKey}${JSON.stringify(components)}`;
  let position = positions.get(cacheKey);
  if (position === undefined) {
    if (positions.size >= MAX_CACHED_POSITIONS) positions.clear();
    position = hashSpacePosition(components, hashing);
    positions.set(cacheKey, position);
  }
  if (byHashing === undefined) {
    byHashing = new Map();
    positionsOfArrays.set(components, byHashing);
  }
  byHashing.set(hashingKey, position);
  return position;
}

/** The partition (0..partitions-1) of a hash position when the space is split in equal ranges. */
const partitionAt = (position: number, partitions: number): number =>
  Math.min(partitions - 1, Math.floor(position * partitions));

/**
 * Physical partition (0..partitions-1) of a key when the hash space is split in equal ranges.
 * @example physicalPartitionOf(["post-2"], 56, { kind: "Hash", version: 2 })
 */
export function physicalPartitionOf(
  components: readonly PartitionKeyComponent[],
  partitions: number,
  hashing: PartitionKeyHashing,
): number {
  return partitionAt(positionOf(components, hashing), partitions);
}

/**
 * Load on each physical partition that holds a heavy key (a sparse map: work and memory grow with
 * the heavy keys only, never with the partition count, which may be in the millions), on top of
 * the load spread evenly over every partition (many small keys, fan-out queries).
 */
export function heavyPartitionLoads(
  heavyKeys: readonly HeavyKey[],
  partitions: number,
  hashing: PartitionKeyHashing,
): Map<number, number> {
  const heavyOn = new Map<number, number>();
  for (const heavy of heavyKeys) {
    const index = physicalPartitionOf(heavy.components, partitions, hashing);
    heavyOn.set(index, (heavyOn.get(index) ?? 0) + heavy.load);
  }
  return heavyOn;
}

/** Load of the busiest physical partition: its heavy keys plus its share of the spread load. */
export function hottestPhysicalLoad(
  heavyKeys: readonly HeavyKey[],
  spreadLoad: number,
  partitions: number,
  hashing: PartitionKeyHashing,
): number {
  return placeHeavyKeys(heavyKeys, hashing).hottestAt(spreadLoad, partitions);
}

/** Heavy keys hashed once, to find the busiest partition at many partition counts. */
export interface PlacedKeys {
  /**
   * The load of the heaviest single key (0 without keys): the busiest partition carries at least
   * this much of the heavy load at any count.
   */
  readonly largest: number;
  /**
   * Load of the busiest physical partition at `partitions`: the heavy keys that share its range
   * plus its share of `spreadLoad`; equal to {@link hottestPhysicalLoad} to the last bit.
   */
  hottestAt(spreadLoad: number, partitions: number): number;
}

/** Partition counts remembered per set of placed keys before the memo starts over. */
const MAX_MEMOIZED_COUNTS = 4_096;

/**
 * Hashes the keys once (sorted by position, so that each partition's keys are adjacent) and
 * answers the busiest partition at any count in one pass over the keys, with no allocation, and
 * remembers each count asked (the layout asks the same counts for every capacity mode).
 * Sums follow the keys' given order, as {@link heavyPartitionLoads} does, so that the figures
 * are the same to the last bit (float addition is commutative but not associative).
 */
export function placeHeavyKeys(heavyKeys: readonly HeavyKey[], hashing: PartitionKeyHashing): PlacedKeys {
  const order = heavyKeys.map((heavy, index) => ({
    position: positionOf(heavy.components, hashing),
    load: heavy.load,
    index,
  }));
  order.sort((a, b) => a.position - b.position || a.index - b.index);
  const position = Float64Array.from(order, (entry) => entry.position);
  const load = Float64Array.from(order, (entry) => entry.load);
  const given = Int32Array.from(order, (entry) => entry.index);
  // A lower bound of the busiest partition's heavy load: the heaviest key, when no load is
  // negative (or not a number), which a sum could then make smaller.
  let largest = 0;
  for (const heavy of heavyKeys) largest = heavy.load >= 0 ? Math.max(largest, heavy.load) : Number.NaN;
  if (Number.isNaN(largest)) largest = 0;
  const memo = new Map<number, number>();
  const heaviestRange = (partitions: number): number => {
    let hottest = 0;
    let start = 0;
    while (start < position.length) {
      const range = partitionAt(position[start] ?? 0, partitions);
      let end = start + 1;
      while (end < position.length && partitionAt(position[end] ?? 0, partitions) === range) end++;
      let sum: number;
      if (end - start <= 2) {
        // 0 + a + b: two terms add the same in either order.
        sum = 0 + (load[start] ?? 0) + (end - start === 2 ? (load[start + 1] ?? 0) : 0);
      } else {
        const members = [];
        for (let i = start; i < end; i++) members.push(i);
        members.sort((a, b) => (given[a] ?? 0) - (given[b] ?? 0));
        sum = 0;
        for (const i of members) sum += load[i] ?? 0;
      }
      hottest = Math.max(hottest, sum);
      start = end;
    }
    return hottest;
  };
  return {
    largest,
    hottestAt(spreadLoad, partitions) {
      let heaviest = memo.get(partitions);
      if (heaviest === undefined) {
        if (memo.size >= MAX_MEMOIZED_COUNTS) memo.clear();
        heaviest = heaviestRange(partitions);
        memo.set(partitions, heaviest);
      }
      return spreadLoad / partitions + heaviest;
    },
  };
}
