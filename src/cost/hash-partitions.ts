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

/** Physical partition (0..partitions-1) of a key when the hash space is split in equal ranges. */
export function physicalPartitionOf(key: string, partitions: number): number {
  return Math.min(partitions - 1, Math.floor((keyHash(key) / 2 ** 32) * partitions));
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
  const loads = new Array<number>(partitions).fill(spreadLoad / partitions);
  for (const heavy of heavyKeys) {
    const index = physicalPartitionOf(heavy.key, partitions);
    loads[index] = (loads[index] ?? 0) + heavy.load;
  }
  return loads.reduce((max, value) => Math.max(max, value), 0);
}
