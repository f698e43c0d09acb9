import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { placeHeavyKeys } from "./hash-partitions.js";
import { firstPossibleCount, layoutFor, type LayoutInput } from "./layout.js";

describe("layoutFor with the busiest partition's lower bound", () => {
  it("finds the same layout as trying every count (the bound only skips counts that cannot fit)", () => {
    const seen = { split: 0, over: 0 };
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            name: fc.integer({ min: 0, max: 500 }).map((i) => `hot-${i}`),
            load: fc.oneof(fc.double({ min: 0, max: 12_000, noNaN: true }), fc.constant(9_999)),
          }),
          { maxLength: 30 },
        ),
        fc.double({ min: 0, max: 3e6, noNaN: true }),
        fc.double({ min: 0, max: 20_000, noNaN: true }),
        fc.constantFrom("manual", "autoscale", "serverless") as fc.Arbitrary<
          "manual" | "autoscale" | "serverless"
        >,
        (keys, spread, storageGB, mode) => {
          const heavy = keys.map((k) => ({ components: [k.name], load: k.load }));
          const placed = placeHeavyKeys(heavy, { kind: "Hash", version: 2 });
          const peak = spread + heavy.reduce((sum, h) => sum + h.load, 0);
          const input: LayoutInput = {
            peak,
            storageGB,
            hottestAt: (partitions) => placed.hottestAt(spread, partitions),
            heavyKeys: heavy.length,
          };
          const bounded = layoutFor(mode, {
            ...input,
            hottestLowerBound: (partitions) => spread / partitions + placed.largest,
          });
          expect(bounded).toEqual(layoutFor(mode, input));
          if (bounded.splitForBusiest) seen.split++;
          if (bounded.overPartitionLimit) seen.over++;
        },
      ),
      { numRuns: 200 },
    );
    // The sample reaches both ends of the search: split to fit, and nothing fits.
    expect(seen.split).toBeGreaterThan(0);
    expect(seen.over).toBeGreaterThan(0);
  });
});

describe("firstPossibleCount", () => {
  const bound = (spread: number, largest: number) => (partitions: number) => spread / partitions + largest;

  it("finds the fewest partitions whose lower bound fits", () => {
    expect(firstPossibleCount(bound(100_000, 0), 10_000, 1_000)).toBe(10);
    expect(firstPossibleCount(bound(100_000, 9_000), 10_000, 1_000)).toBe(100);
    expect(firstPossibleCount(bound(100_000, 10_001), 10_000, 1_000)).toBe(Number.POSITIVE_INFINITY);
  });

  it("ends for any search end: beyond 2^53 and infinite (it looped forever on an infinite end)", () => {
    expect(firstPossibleCount(bound(1e19, 0), 10_000, Number.POSITIVE_INFINITY)).toBe(1e15);
    expect(firstPossibleCount(bound(1e6, 0), 10_000, 4e300)).toBe(100);
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1e300, noNaN: true }),
        fc.double({ min: 0, max: 1e4, noNaN: true }),
        fc.double({ min: 1, max: Number.POSITIVE_INFINITY, noNaN: true }),
        (spread, largest, last) => {
          const found = firstPossibleCount(bound(spread, largest), 10_000, last);
          return found === Number.POSITIVE_INFINITY || bound(spread, largest)(found) <= 10_000;
        },
      ),
    );
  });
});
