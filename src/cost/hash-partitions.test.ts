import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fnv1a32 as fnv1a } from "../model/materialize-item.js";
import {
  hottestPhysicalLoad,
  hottestPlacedLoad,
  keyHash,
  physicalPartitionOf,
  type PlacedKey,
} from "./hash-partitions.js";

function counts(keys: readonly string[], partitions: number): number[] {
  const result = new Array<number>(partitions).fill(0);
  for (const key of keys) {
    const index = physicalPartitionOf(key, partitions);
    result[index] = (result[index] ?? 0) + 1;
  }
  return result;
}

describe("fnv1a", () => {
  it("matches the published FNV-1a 32-bit test vectors", () => {
    // http://www.isthe.com/chongo/src/fnv/test_fnv.c (FNV1A_32 vectors)
    expect(fnv1a("")).toBe(0x811c9dc5);
    expect(fnv1a("a")).toBe(0xe40c292c);
    expect(fnv1a("foobar")).toBe(0xbf9cf968);
  });
});

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

  it("spreads keys that differ only in their last character (replicas post-0 .. post-7)", () => {
    const keys = Array.from({ length: 8 }, (_, index) => `post-${index}`);
    // With 8 keys over 4 partitions, all in one would be the failure the finalizer prevents.
    expect(new Set(keys.map((key) => physicalPartitionOf(key, 4))).size).toBeGreaterThan(1);
    expect(new Set(keys.map((key) => keyHash(key) >>> 28)).size).toBeGreaterThan(3);
  });

  it("is stable and within range", () => {
    for (const key of ["a", "tenant-1|user-2", "é✓", ""]) {
      for (const partitions of [1, 3, 70, 1023]) {
        const index = physicalPartitionOf(key, partitions);
        expect(index).toBe(physicalPartitionOf(key, partitions));
        expect(Number.isInteger(index)).toBe(true);
        expect(index).toBeGreaterThanOrEqual(0);
        expect(index).toBeLessThan(partitions);
      }
      expect(physicalPartitionOf(key, 1)).toBe(0);
    }
  });

  it("splits ranges as Cosmos DB does: doubling the partitions sends a key to one of the two halves of its range", () => {
    for (let index = 0; index < 500; index++) {
      const key = `k${index}`;
      const before = physicalPartitionOf(key, 7);
      const after = physicalPartitionOf(key, 14);
      expect([2 * before, 2 * before + 1]).toContain(after);
    }
  });
});

describe("hottestPhysicalLoad", () => {
  it("is the even share when no key is heavy", () => {
    expect(hottestPhysicalLoad([], 1000, 4)).toBeCloseTo(250, 10);
  });

  it("adds the heavy keys that collide on one partition", () => {
    const keys = Array.from({ length: 200 }, (_, index) => `hot-${index}`);
    const first = keys[0] ?? "";
    const partner = keys.find(
      (key) => key !== first && physicalPartitionOf(key, 4) === physicalPartitionOf(first, 4),
    );
    const loner = keys.find((key) => physicalPartitionOf(key, 4) !== physicalPartitionOf(first, 4));
    if (partner === undefined || loner === undefined) throw new Error("no collision among 200 keys");
    const heavy = [
      { key: first, load: 3000 },
      { key: partner, load: 2000 },
      { key: loner, load: 4000 },
    ];
    expect(hottestPhysicalLoad(heavy, 400, 4)).toBeCloseTo(3000 + 2000 + 100, 10);
    // One partition holds everything.
    expect(hottestPhysicalLoad(heavy, 400, 1)).toBeCloseTo(9400, 10);
  });
});

describe("hottestPlacedLoad", () => {
  /** The busiest partition by filling one array entry per partition (what the sparse version replaces). */
  function bruteForce(placed: readonly PlacedKey[], spread: number, partitions: number): number {
    const loads = new Array<number>(partitions).fill(spread / partitions);
    for (const key of placed) {
      const index = Math.min(partitions - 1, Math.floor(key.position * partitions));
      loads[index] = (loads[index] ?? 0) + key.load;
    }
    return Math.max(...loads);
  }

  it("equals the busiest entry of a per-partition array", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            position: fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
            load: fc.double({ min: 0, max: 1e6, noNaN: true }),
          }),
          { maxLength: 40 },
        ),
        fc.double({ min: 0, max: 1e7, noNaN: true }),
        fc.integer({ min: 1, max: 2_000 }),
        (placed, spread, partitions) => {
          const expected = bruteForce(placed, spread, partitions);
          expect(hottestPlacedLoad(placed, spread, partitions)).toBeCloseTo(expected, 6);
        },
      ),
      { seed: 14, numRuns: 200 },
    );
  });

  it("takes no memory or time per partition: a trillion partitions answer at once", () => {
    const placed = [
      { position: 0.5, load: 3000 },
      { position: 0.25, load: 2000 },
    ];
    const start = performance.now();
    expect(hottestPlacedLoad(placed, 1e12, 1e12)).toBeCloseTo(3001, 6);
    expect(hottestPhysicalLoad([{ key: "a", load: 5 }], 0, 1e15)).toBe(5);
    expect(performance.now() - start).toBeLessThan(100);
  });
});
