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

function positionOf(components: readonly PartitionKeyComponent[], hashing: PartitionKeyHashing): number {
  const cacheKey = `${hashing.kind}${hashing.version}${JSON.stringify(components)}`;
  let position = positions.get(cacheKey);
  if (position === undefined) {
    if (positions.size >= MAX_CACHED_POSITIONS) positions.clear();
    position = hashSpacePosition(components, hashing);
    positions.set(cacheKey, position);
  }
  return position;
}

/**
 * Physical partition (0..partitions-1) of a key when the hash space is split in equal ranges.
 * @example physicalPartitionOf(["post-2"], 56, { kind: "Hash", version: 2 })
 */
export function physicalPartitionOf(
  components: readonly PartitionKeyComponent[],
  partitions: number,
  hashing: PartitionKeyHashing,
): number {
  return Math.min(partitions - 1, Math.floor(positionOf(components, hashing) * partitions));
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
  let hottest = 0;
  for (const load of heavyPartitionLoads(heavyKeys, partitions, hashing).values())
    hottest = Math.max(hottest, load);
  return spreadLoad / partitions + hottest;
}
