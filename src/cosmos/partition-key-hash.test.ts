import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  effectivePartitionKey,
  hashSpacePosition,
  type PartitionKeyComponent,
  type PartitionKeyHashing,
} from "./partition-key-hash.js";

// The SDK's own hashing, loaded from its file (the package does not export it): the oracle.
type SdkHash = (
  key: readonly PartitionKeyComponent[],
  definition: { paths: string[]; kind: string; version?: number },
) => string;
const sdkRoot = dirname(createRequire(import.meta.url).resolve("@azure/cosmos/package.json"));
const sdk = (await import(pathToFileURL(join(sdkRoot, "dist/esm/utils/hashing/hash.js")).href)) as {
  hashPartitionKey: SdkHash;
};

const V1: PartitionKeyHashing = { kind: "Hash", version: 1 };
const V2: PartitionKeyHashing = { kind: "Hash", version: 2 };
const MULTI: PartitionKeyHashing = { kind: "MultiHash", version: 2 };

function sdkHash(components: readonly PartitionKeyComponent[], hashing: PartitionKeyHashing): string {
  return sdk.hashPartitionKey(components, {
    paths: components.map((_, i) => `/k${i}`),
    kind: hashing.kind,
    version: hashing.version,
  });
}

const component: fc.Arbitrary<PartitionKeyComponent> = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 120 }),
  fc.double({ noNaN: true }),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
);

describe("effectivePartitionKey agrees with the SDK's hashPartitionKey", () => {
  it("for the values of the examples' keys", () => {
    for (const key of ["post-0", "post-1", "post-2", "post-3", "tenant-42", "", "ünïcødé", "a".repeat(150)]) {
      expect(effectivePartitionKey([key], V2)).toBe(sdkHash([key], V2));
      expect(effectivePartitionKey([key], V1)).toBe(sdkHash([key], V1));
    }
    expect(effectivePartitionKey(["t1", "u1", "s1"], MULTI)).toBe(sdkHash(["t1", "u1", "s1"], MULTI));
  });

  it("hash V1 and V2 of any single component", () => {
    fc.assert(
      fc.property(component, (value) => {
        expect(effectivePartitionKey([value], V2)).toBe(sdkHash([value], V2));
        expect(effectivePartitionKey([value], V1)).toBe(sdkHash([value], V1));
      }),
      { numRuns: 400 },
    );
  });

  it("hierarchical (MultiHash) keys of two and three levels", () => {
    fc.assert(
      fc.property(fc.array(component, { minLength: 2, maxLength: 3 }), (levels) => {
        expect(effectivePartitionKey(levels, MULTI)).toBe(sdkHash(levels, MULTI));
      }),
      { numRuns: 200 },
    );
  });
});

describe("hashSpacePosition", () => {
  it("is in [0, 1) and follows the order of the effective partition keys", () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        const [pa, pb] = [hashSpacePosition([a], V2), hashSpacePosition([b], V2)];
        expect(pa).toBeGreaterThanOrEqual(0);
        expect(pa).toBeLessThan(1);
        const [ea, eb] = [effectivePartitionKey([a], V2), effectivePartitionKey([b], V2)];
        if (pa < pb) expect(ea < eb).toBe(true);
      }),
    );
  });

  it("puts every key of one first level of a hierarchical key at one position", () => {
    const tenant = hashSpacePosition(["tenant-1", "user-1"], MULTI);
    expect(hashSpacePosition(["tenant-1", "user-2"], MULTI)).toBe(tenant);
    expect(hashSpacePosition(["tenant-2", "user-1"], MULTI)).not.toBe(tenant);
  });

  it("spreads sequential names evenly (about a quarter in each quarter of the space)", () => {
    const quarters = [0, 0, 0, 0];
    for (let i = 0; i < 4000; i++) {
      const q = Math.floor(hashSpacePosition([`post-${i}`], V2) * 4);
      quarters[q] = (quarters[q] ?? 0) + 1;
    }
    for (const count of quarters) expect(count).toBeGreaterThan(900);
  });
});
