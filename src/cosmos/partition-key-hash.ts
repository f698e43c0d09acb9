/**
 * The partition-key hashing of Azure Cosmos DB: how a partition key value becomes the effective
 * partition key (EPK) whose position in the hash space picks the physical partition.
 *
 * Facts (checked 2026-11-24):
 * - Partition key values are hashed with MurmurHash3 into effective partition key ranges, each
 *   range owned by one physical partition; hash V2 (128-bit) serves keys over 100 bytes and is the
 *   version the SDKs create containers with; hierarchical keys (kind MultiHash) hash each level
 *   with V2 and concatenate the hashes, so every key with the same first level sits in one range
 *   until a split cuts inside that prefix.
 *   Sources: https://learn.microsoft.com/azure/cosmos-db/partitioning-overview and
 *   https://learn.microsoft.com/azure/cosmos-db/hierarchical-partition-keys.
 * - The byte encoding below is a port of the JavaScript SDK's own implementation
 *   (@azure/cosmos 4.9.3, `dist/esm/utils/hashing/{hash,v1,v2,multiHash}.js` and
 *   `encoding/{prefix,number,string}.js`, MIT licence); `partition-key-hash.test.ts` checks it
 *   against the SDK's `hashPartitionKey` value by value. MurmurHash3 itself comes from
 *   `murmurhash3js-revisited` (the algorithm the SDK vendors from murmurHash3js).
 */
// A CommonJS package: Node's ESM loader exposes its exports as the default import only.
import murmurHash3 from "murmurhash3js-revisited";

const { x64, x86 } = murmurHash3;

/** A partition key component as the SDK accepts it (`undefined`: the key path is absent). */
export type PartitionKeyComponent = string | number | boolean | null | undefined;

/** How a container hashes its key: its partition key definition's kind and version. */
export interface PartitionKeyHashing {
  readonly kind: "Hash" | "MultiHash";
  readonly version: 1 | 2;
}

/** Type markers of the binary encoding (the SDK's `BytePrefix`). */
const PREFIX = {
  undefined: 0x00,
  null: 0x01,
  false: 0x02,
  true: 0x03,
  number: 0x05,
  string: 0x08,
  infinity: 0xff,
} as const;

/** V1 hashes and encodes at most this many characters of a string key. */
const V1_MAX_STRING_CHARS = 100;

const utf8 = new TextEncoder();

function bytes(...parts: readonly (Uint8Array | readonly number[])[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

function hex(data: Uint8Array): string {
  return Array.from(data, (byte) => byte.toString(16).padStart(2, "0"))
    .join("")
    .toUpperCase();
}

function fromHex(text: string): Uint8Array {
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(text.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** The IEEE-754 bits of a double as an unsigned 64-bit integer. */
function doubleBits(value: number): bigint {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, value);
  return view.getBigUint64(0);
}

/** The double's bits, least significant byte first (what the hash reads for a number). */
function doubleBytesLittleEndian(value: number): Uint8Array {
  const bits = doubleBits(value);
  return Uint8Array.from({ length: 8 }, (_, i) => Number((bits >> BigInt(i * 8)) & 0xffn));
}

/** The bytes a V2 hash reads for one component: type marker, payload, and 0xFF after strings. */
function v2Bytes(component: PartitionKeyComponent): Uint8Array {
  switch (typeof component) {
    case "string":
      return bytes([PREFIX.string], utf8.encode(component), [PREFIX.infinity]);
    case "number":
      return bytes([PREFIX.number], doubleBytesLittleEndian(component));
    case "boolean":
      return Uint8Array.of(component ? PREFIX.true : PREFIX.false);
    case "undefined":
      return Uint8Array.of(PREFIX.undefined);
    default:
      return Uint8Array.of(component === null ? PREFIX.null : PREFIX.undefined);
  }
}

/**
 * Hash V2 of a list of components: MurmurHash3 x64 128-bit (seed 0) of their encodings, bytes
 * reversed, the top two bits cleared; 32 hex digits.
 */
function hashV2(components: readonly PartitionKeyComponent[]): string {
  // murmurhash3js-revisited prints the digest in memory order (h1 then h2, each little-endian,
  // as the C++ reference does); the SDK's copy prints h1 and h2 as big-endian words and then
  // reverses all 16 bytes. Reversing each word and then the whole is reversing the word order.
  const digest = fromHex(x64.hash128(bytes(...components.map(v2Bytes))));
  const sdkOrder = bytes(digest.subarray(8, 16), digest.subarray(0, 8));
  sdkOrder[0] = (sdkOrder[0] ?? 0) & 0x3f;
  return hex(sdkOrder);
}

/** The order-preserving binary encoding of a number (the SDK's `writeNumberForBinaryEncoding`). */
function encodeNumber(value: number): Uint8Array {
  const bits = doubleBits(value);
  const mask = 0x8000000000000000n;
  const full = 0xffffffffffffffffn;
  let payload = mask > bits ? bits ^ mask : (~bits + 1n) & full;
  const out: number[] = [PREFIX.number, Number((payload >> 56n) & 0xffn)];
  payload = (payload << 8n) & full;
  let byte = 0n;
  let first = true;
  do {
    if (!first && byte !== 0n) out.push(Number(byte));
    first = false;
    byte = ((payload >> 56n) & 0xffn) | 1n;
    payload = (payload << 7n) & full;
  } while (payload !== 0n);
  const last = byte & 0xfen;
  if (last !== 0n) out.push(Number(last));
  return Uint8Array.from(out);
}

/** The V1 encoding of a string: each UTF-8 byte plus one, then a 0x00 terminator. */
function encodeString(value: string): Uint8Array {
  // The SDK truncates to 100 characters before this, so the string is always "short" and ends
  // with the terminator.
  const encoded = utf8.encode(value);
  return bytes(
    [PREFIX.string],
    Array.from(encoded, (byte) => (byte < 0xff ? byte + 1 : byte)),
    [PREFIX.undefined],
  );
}

/** The bytes V1 hashes for a component: strings cut to 100 characters and ended with 0x00. */
function v1HashedBytes(component: PartitionKeyComponent): Uint8Array {
  if (typeof component === "string")
    return bytes([PREFIX.string], utf8.encode(component.slice(0, V1_MAX_STRING_CHARS)), [PREFIX.undefined]);
  return v2Bytes(component);
}

/** Hash V1 of the first component: MurmurHash3 x86 32-bit, then the encoded hash and value. */
function hashV1(component: PartitionKeyComponent): string {
  const encoded =
    typeof component === "string"
      ? encodeString(component.slice(0, V1_MAX_STRING_CHARS))
      : typeof component === "number"
        ? encodeNumber(component)
        : v2Bytes(component);
  return hex(bytes(encodeNumber(x86.hash32(v1HashedBytes(component))), encoded));
}

/**
 * The effective partition key of `components` under `hashing`, as the SDK computes it: upper-case
 * hex; for MultiHash the V2 hashes of the levels, concatenated.
 * @example effectivePartitionKey(["post-1"], { kind: "Hash", version: 2 }).length // 32
 */
export function effectivePartitionKey(
  components: readonly PartitionKeyComponent[],
  hashing: PartitionKeyHashing,
): string {
  if (hashing.kind === "MultiHash") return components.map((component) => hashV2([component])).join("");
  return hashing.version === 2 ? hashV2(components) : hashV1(components[0]);
}

/** V2 hashes have their top two bits cleared: the hash space is [0, 2^62) in the first 8 bytes. */
const V2_SPACE = 2n ** 62n;
/** V1 hashes are unsigned 32-bit values. */
const V1_SPACE = 2 ** 32;

/**
 * Where a key falls in its container's hash space, from 0 (inclusive) to 1 (exclusive): the
 * leading 64 bits of the (first level's) V2 hash, or the V1 32-bit hash. Keys that share a first
 * level of a hierarchical key get the same position, as they share an EPK prefix.
 * @example hashSpacePosition(["tenant-1", "user-7"], { kind: "MultiHash", version: 2 }) // 0 <= x < 1
 */
export function hashSpacePosition(
  components: readonly PartitionKeyComponent[],
  hashing: PartitionKeyHashing,
): number {
  if (hashing.kind === "Hash" && hashing.version === 1)
    return x86.hash32(v1HashedBytes(components[0])) / V1_SPACE;
  const leading = hashing.kind === "MultiHash" ? hashV2([components[0]]) : hashV2(components);
  return Number(BigInt(`0x${leading.slice(0, 16)}`)) / Number(V2_SPACE);
}
