/**
 * Where logical partition keys land among physical partitions. Cosmos DB hashes each key and
 * gives every physical partition a contiguous range of the hash space; a few hot keys can land on
 * the same physical partition. This simulates that placement with FNV-1a (not the service's own
 * MurmurHash3 of the binary-encoded key, so individual placements differ; what matters, and what
 * it reproduces, is how often a few keys collide).
 */
import { fnv1a32 } from "../model/materialize-item.js";

/**
 * FNV-1a (the one the write shards use) followed by MurmurHash3's 32-bit finalizer, so that keys differing only in their last
 * characters (`post-0`, `post-1`) spread over the whole hash space as they do under Murmur.
 */
export function keyHash(text: string): number {
  let hash = fnv1a32(text);
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b) >>> 0;
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35) >>> 0;
  hash ^= hash >>> 16;
  return hash >>> 0;
}

/** Where a key's hash falls in the hash space, as a share 0 <= position < 1. */
export function hashPosition(key: string): number {
  return keyHash(key) / 2 ** 32;
}

/** Physical partition (0..partitions-1) of a key when the hash space is split in equal ranges. */
export function physicalPartitionOf(key: string, partitions: number): number {
  return partitionAt(hashPosition(key), partitions);
}

function partitionAt(position: number, partitions: number): number {
  return Math.min(partitions - 1, Math.floor(position * partitions));
}

/** A heavy key by where it falls in the hash space ({@link hashPosition}), with its load. */
export interface PlacedKey {
  readonly position: number;
  readonly load: number;
}

/**
 * Load of the busiest physical partition: named heavy keys placed by hash, plus load that is
 * spread evenly over every partition (many small keys, fan-out queries).
 */
export function hottestPhysicalLoad(
  heavyKeys: readonly { readonly key: string; readonly load: number }[],
  spreadLoad: number,
  partitions: number,
): number {
  return hottestPlacedLoad(
    heavyKeys.map((heavy) => ({ position: hashPosition(heavy.key), load: heavy.load })),
    spreadLoad,
    partitions,
  );
}

/**
 * {@link hottestPhysicalLoad} of keys already placed: work and memory grow with the heavy keys
 * only, never with the partition count (a container may have millions of partitions).
 */
export function hottestPlacedLoad(
  placed: readonly PlacedKey[],
  spreadLoad: number,
  partitions: number,
): number {
  const heavyOn = new Map<number, number>();
  for (const key of placed) {
    const index = partitionAt(key.position, partitions);
    heavyOn.set(index, (heavyOn.get(index) ?? 0) + key.load);
  }
  let hottest = 0;
  for (const load of heavyOn.values()) hottest = Math.max(hottest, load);
  return spreadLoad / partitions + hottest;
}
