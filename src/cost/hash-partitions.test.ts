import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { PartitionKeyHashing } from "../cosmos/partition-key-hash.js";
import { hottestPhysicalLoad, physicalPartitionOf } from "./hash-partitions.js";

const V2: PartitionKeyHashing = { kind: "Hash", version: 2 };
const MULTI: PartitionKeyHashing = { kind: "MultiHash", version: 2 };

function counts(keys: readonly string[], partitions: number): number[] {
  const result = new Array<number>(partitions).fill(0);
  for (const key of keys) {
    const index = physicalPartitionOf([key], partitions, V2);
    result[index] = (result[index] ?? 0) + 1;
  }
  return result;
}

describe("physicalPartitionOf", () => {
  it("spreads 1,000 keys over 10 partitions roughly evenly (none above twice the mean, none empty)", () => {
    for (const prefix of ["user-", "post-", ""]) {
      const keys = Array.from({ length: 1000 }, (_, index) => `${prefix}${index}`);
      const spread = counts(keys, 10);
      expect(spread.reduce((a, b) => a + b, 0)).toBe(1000);
      expect(Math.max(...spread)).toBeLessThanOrEqual(200);
      expect(Math.min(...spread)).toBeGreaterThan(0);
    }
  });

  it("places the blogging feed's replica keys where the service's hash puts them (post-2 and post-3 share a range of 4)", () => {
    // The SDK's hashPartitionKey gives 1335EE4C... and 110A926F...: both in [0x10, 0x20), the
    // second quarter of the V2 space [0x00, 0x40).
    expect(physicalPartitionOf(["post-2"], 4, V2)).toBe(physicalPartitionOf(["post-3"], 4, V2));
  });

  it("is within range, and 1 partition holds every key", () => {
    fc.assert(
      fc.property(
        fc.array(fc.string(), { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 1, max: 2000 }),
        (key, partitions) => {
          const hashing = key.length > 1 ? MULTI : V2;
          const index = physicalPartitionOf(key, partitions, hashing);
          expect(Number.isInteger(index)).toBe(true);
          expect(index).toBeGreaterThanOrEqual(0);
          expect(index).toBeLessThan(partitions);
          expect(physicalPartitionOf(key, 1, hashing)).toBe(0);
        },
      ),
    );
  });

  it("splits ranges as Cosmos DB does: doubling the partitions sends a key to one of the two halves of its range", () => {
    fc.assert(
      fc.property(fc.string(), fc.integer({ min: 1, max: 500 }), (key, partitions) => {
        const before = physicalPartitionOf([key], partitions, V2);
        expect([2 * before, 2 * before + 1]).toContain(physicalPartitionOf([key], 2 * partitions, V2));
      }),
    );
  });

  it("keeps every key of one tenant of a hierarchical key on one partition", () => {
    const partitions = new Set(
      Array.from({ length: 50 }, (_, i) => physicalPartitionOf(["tenant-7", `user-${i}`], 64, MULTI)),
    );
    expect(partitions.size).toBe(1);
  });
});

describe("hottestPhysicalLoad", () => {
  it("is the even share when no key is heavy", () => {
    expect(hottestPhysicalLoad([], 1000, 4, V2)).toBeCloseTo(250, 10);
  });

  it("adds the heavy keys that collide on one partition", () => {
    const keys = Array.from({ length: 200 }, (_, index) => `hot-${index}`);
    const where = (key: string): number => physicalPartitionOf([key], 4, V2);
    const first = keys[0] ?? "";
    const partner = keys.find((key) => key !== first && where(key) === where(first));
    const loner = keys.find((key) => where(key) !== where(first));
    if (partner === undefined || loner === undefined) throw new Error("no collision among 200 keys");
    const heavy = [
      { components: [first], load: 3000 },
      { components: [partner], load: 2000 },
      { components: [loner], load: 4000 },
    ];
    expect(hottestPhysicalLoad(heavy, 400, 4, V2)).toBeCloseTo(3000 + 2000 + 100, 10);
    // One partition holds everything.
    expect(hottestPhysicalLoad(heavy, 400, 1, V2)).toBeCloseTo(9400, 10);
  });
});
