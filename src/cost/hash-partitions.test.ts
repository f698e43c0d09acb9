import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { PartitionKeyHashing } from "../cosmos/partition-key-hash.js";
import {
  heavyPartitionLoads,
  hottestPhysicalLoad,
  physicalPartitionOf,
  placeHeavyKeys,
} from "./hash-partitions.js";

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

describe("placeHeavyKeys", () => {
  /** The busiest partition as the sparse map gives it: sums in the keys' order. */
  const fromMap = (
    heavy: { components: string[]; load: number }[],
    spread: number,
    partitions: number,
  ): number => {
    let hottest = 0;
    for (const load of heavyPartitionLoads(heavy, partitions, V2).values()) hottest = Math.max(hottest, load);
    return spread / partitions + hottest;
  };

  it("gives the sparse map's figure to the last bit at every count, asked in any order and again", () => {
    fc.assert(
      fc.property(
        // Few distinct names so that keys collide; loads with many significant digits so that
        // the order of a sum shows.
        fc.array(
          fc.record({
            name: fc.integer({ min: 0, max: 40 }).map((i) => `k-${i}`),
            load: fc.double({ min: 0, max: 20_000, noNaN: true }),
          }),
          { maxLength: 60 },
        ),
        fc.double({ min: 0, max: 1e6, noNaN: true }),
        fc.array(fc.integer({ min: 1, max: 300 }), { minLength: 1, maxLength: 20 }),
        (keys, spread, counts) => {
          const heavy = keys.map((k) => ({ components: [k.name], load: k.load }));
          const placed = placeHeavyKeys(heavy, V2);
          for (const count of [...counts, ...counts])
            expect(Object.is(placed.hottestAt(spread, count), fromMap(heavy, spread, count))).toBe(true);
          const largest = Math.max(0, ...heavy.map((h) => h.load));
          expect(placed.largest).toBe(largest);
          for (const count of counts)
            expect(spread / count + placed.largest).toBeLessThanOrEqual(placed.hottestAt(spread, count));
        },
      ),
    );
  });

  it("sums three or more keys of one partition in their given order", () => {
    // 0.1 + 0.2 + 0.3 and 0.3 + 0.2 + 0.1 differ in the last bit; one partition holds all.
    const heavy = [0.1, 0.2, 0.3].map((load, i) => ({ components: [`x-${i}`], load }));
    expect(placeHeavyKeys(heavy, V2).hottestAt(0, 1)).toBe(0.1 + 0.2 + 0.3);
    const reversed = [...heavy].reverse();
    expect(placeHeavyKeys(reversed, V2).hottestAt(0, 1)).toBe(0.3 + 0.2 + 0.1);
  });
});
