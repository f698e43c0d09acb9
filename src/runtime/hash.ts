/**
 * The write shard of a value: FNV-1a (32-bit: offset basis 2166136261, prime 16777619, over the
 * UTF-8 bytes). Stable across runs, platforms and languages, so generated code, data loading and
 * the cost model pick the same shard.
 */
import { DataAccessError } from "./errors.js";

const UTF8 = new TextEncoder();

/** FNV-1a 32-bit hash of the UTF-8 bytes of `value`, as an unsigned integer. */
export function fnv1a32(value: string): number {
  let hash = 0x811c9dc5;
  for (const byte of UTF8.encode(value)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/**
 * The write shard of a value: FNV-1a modulo `shards`.
 * @example computeShard("user-42", 20) // a number from 0 to 19, always the same
 */
export function computeShard(value: string, shards: number): number {
  if (!Number.isInteger(shards) || shards < 1) {
    throw new DataAccessError("badShards", `shards must be a positive integer, got ${shards}`);
  }
  return fnv1a32(value) % shards;
}
