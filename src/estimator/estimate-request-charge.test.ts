import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CONSISTENCY_LEVELS } from "../cosmos/consistency.js";
import { SYSTEM_PROPERTIES_BYTES } from "../cosmos/limits.js";
import { DEFAULT_RU_COEFFICIENTS } from "./coefficients.js";
import { estimateRequestCharge } from "./estimate-request-charge.js";
import type { Operation, OperationKind, RuEstimate } from "./operation.js";

/** User JSON bytes of an item whose stored size is `kb` KiB (the documentation's sizes). */
const itemOfKB = (kb: number): number => kb * 1024 - SYSTEM_PROPERTIES_BYTES;
const within = (charge: RuEstimate, measured: number): boolean =>
  charge.low <= measured && measured <= charge.high;

describe("documented anchor points (optimize-cost-reads-writes, plan-manage-costs)", () => {
  it("reads a 1 KB item for 1 RU", () => {
    expect(estimateRequestCharge({ op: "read", itemBytes: itemOfKB(1) }).estimate).toBeCloseTo(1, 2);
  });
  it("reads a 100 KB item for about 10 RU (inside the range, estimate within 25%)", () => {
    const charge = estimateRequestCharge({ op: "read", itemBytes: itemOfKB(100) });
    expect(within(charge, 10)).toBe(true);
    expect(Math.abs(charge.estimate - 10) / 10).toBeLessThan(0.25);
  });
  it("inserts a 1 KB item without indexing for about 5.5 RU", () => {
    const charge = estimateRequestCharge({ op: "create", itemBytes: itemOfKB(1), indexedValues: 0 });
    expect(charge.estimate).toBeGreaterThan(5);
    expect(charge.estimate).toBeLessThan(6);
  });
  it("replaces an item for about two times its insert", () => {
    const item = { itemBytes: itemOfKB(1), indexedValues: 0 };
    const insert = estimateRequestCharge({ op: "create", ...item }).estimate;
    const replace = estimateRequestCharge({ op: "replace", ...item, changedValues: 0 }).estimate;
    expect(replace / insert).toBeCloseTo(2, 1);
  });
  it("prices the serverless table's 1 KB operations (create 5, update 10, delete 5, read 1) inside the range", () => {
    const item = { itemBytes: itemOfKB(1), indexedValues: 1 };
    expect(within(estimateRequestCharge({ op: "create", ...item }), 5)).toBe(true);
    expect(within(estimateRequestCharge({ op: "replace", ...item, changedValues: 1 }), 10)).toBe(true);
    expect(within(estimateRequestCharge({ op: "delete", ...item }), 5)).toBe(true);
    expect(within(estimateRequestCharge({ op: "read", itemBytes: itemOfKB(1) }), 1)).toBe(true);
  });
  it("charges a query about 2.8-3 RU per physical partition visited, not 2.5", () => {
    const one = estimateRequestCharge({ op: "query", returned: 0, returnedBytes: 0, partitions: 1 }).estimate;
    const hundred = estimateRequestCharge({
      op: "query",
      returned: 0,
      returnedBytes: 0,
      partitions: 100,
    }).estimate;
    expect(one).toBeGreaterThanOrEqual(2.7);
    expect(one).toBeLessThanOrEqual(3);
    expect(hundred / 100).toBeCloseTo(one, 5);
  });
  it("bills patch as a replace plus 0.4 RU per modified property (understand-request-unit-consumption)", () => {
    // The page's example: a patch of two modified indexed terms is the replace's 10.8 RU plus
    // "0.4 * 2 (base charge for patch)" = 11.6 RU.
    const item = { itemBytes: 2000, indexedValues: 20, changedValues: 2 };
    const patch = estimateRequestCharge({ op: "patch", ...item });
    const replace = estimateRequestCharge({ op: "replace", ...item });
    expect(patch.estimate - replace.estimate).toBeCloseTo(0.8, 10);
    // a patch modifies at least one property, even one the index does not hold
    const unindexed = { itemBytes: 2000, indexedValues: 20, changedValues: 0 };
    expect(
      estimateRequestCharge({ op: "patch", ...unindexed }).estimate -
        estimateRequestCharge({ op: "replace", ...unindexed }).estimate,
    ).toBeCloseTo(0.4, 10);
  });
  it("prices an upsert as an insert unless changedValues says it updates", () => {
    const item = { itemBytes: 2000, indexedValues: 20 };
    expect(estimateRequestCharge({ op: "upsert", ...item })).toEqual(
      estimateRequestCharge({ op: "create", ...item }),
    );
    expect(estimateRequestCharge({ op: "upsert", ...item, changedValues: 3 })).toEqual(
      estimateRequestCharge({ op: "replace", ...item, changedValues: 3 }),
    );
  });
});

describe("consistency", () => {
  it("doubles point reads and queries under strong and bounded staleness", () => {
    for (const op of [
      { op: "read", itemBytes: 5000 },
      { op: "query", returned: 10, returnedBytes: 10_000, partitions: 3 },
    ] as const) {
      const session = estimateRequestCharge({ ...op, consistency: "session" });
      for (const consistency of ["strong", "bounded"] as const) {
        const strong = estimateRequestCharge({ ...op, consistency });
        expect(strong.estimate).toBeCloseTo(2 * session.estimate, 10);
        expect(strong.high).toBeCloseTo(2 * session.high, 10);
      }
      expect(estimateRequestCharge({ ...op, consistency: "eventual" })).toEqual(session);
    }
  });
  it("does not change writes", () => {
    const write = { op: "create", itemBytes: 900, indexedValues: 9 } as const;
    expect(estimateRequestCharge({ ...write, consistency: "strong" })).toEqual(estimateRequestCharge(write));
  });
});

const kinds: readonly OperationKind[] = ["read", "create", "replace", "upsert", "delete", "patch", "query"];
const operationArbitrary: fc.Arbitrary<Operation> = fc.record(
  {
    op: fc.constantFrom(...kinds),
    itemBytes: fc.integer({ min: 0, max: 2_000_000 }),
    indexedValues: fc.integer({ min: 0, max: 500 }),
    changedValues: fc.integer({ min: 0, max: 50 }),
    consistency: fc.constantFrom(...CONSISTENCY_LEVELS),
    returned: fc.integer({ min: 0, max: 1000 }),
    returnedBytes: fc.integer({ min: 0, max: 5_000_000 }),
    scannedNotReturned: fc.integer({ min: 0, max: 100_000 }),
    scannedBytes: fc.integer({ min: 0, max: 500_000_000 }),
    partitions: fc.integer({ min: 1, max: 500 }),
  },
  { requiredKeys: ["op"] },
);

describe("properties", () => {
  it("keeps low <= estimate <= high, all positive and finite", () => {
    fc.assert(
      fc.property(operationArbitrary, (op) => {
        const charge = estimateRequestCharge(op);
        expect(Number.isFinite(charge.high)).toBe(true);
        expect(charge.low).toBeGreaterThan(0);
        expect(charge.low).toBeLessThanOrEqual(charge.estimate);
        expect(charge.estimate).toBeLessThanOrEqual(charge.high);
      }),
    );
  });
  it("never charges less for more bytes, indexed values, changed values, items or partitions", () => {
    const growable = [
      "itemBytes",
      "indexedValues",
      "changedValues",
      "returned",
      "returnedBytes",
      "scannedNotReturned",
      "scannedBytes",
      "partitions",
    ] as const;
    fc.assert(
      fc.property(
        operationArbitrary,
        fc.constantFrom(...growable),
        fc.integer({ min: 1, max: 10_000 }),
        (op, field, extra) => {
          // An absent field is not 0 but a default (often derived from the others): grow given ones.
          const value = op[field];
          if (value === undefined) return;
          const grown = { ...op, [field]: value + extra };
          const before = estimateRequestCharge(op);
          const after = estimateRequestCharge(grown);
          expect(after.estimate).toBeGreaterThanOrEqual(before.estimate - 1e-9);
        },
      ),
    );
  });
  it("widens the range when indexedValues is left to the automatic-indexing default", () => {
    // the default: one indexed value per 32 bytes, the density of Microsoft's worked examples
    expect(DEFAULT_RU_COEFFICIENTS.bytesPerIndexedValue).toBe(32);
    const known = estimateRequestCharge({ op: "create", itemBytes: 2000, indexedValues: 62.5 });
    const defaulted = estimateRequestCharge({ op: "create", itemBytes: 2000 });
    expect(defaulted.estimate).toBeCloseTo(known.estimate, 0);
    expect(defaulted.high - defaulted.low).toBeGreaterThan(known.high - known.low);
  });
  it("brackets a scan between all of its charge per item and all of it per byte", () => {
    const scan = (bytesPerItem: number): RuEstimate =>
      estimateRequestCharge({
        op: "query",
        returned: 1,
        returnedBytes: 1000,
        scannedNotReturned: 10_000,
        scannedBytes: 10_000 * bytesPerItem,
      });
    for (const bytes of [60, 300, 6563, 50_000]) {
      const charge = scan(bytes);
      expect(charge.low).toBeLessThan(charge.estimate);
      expect(charge.high).toBeGreaterThan(charge.estimate);
    }
    // The two measured scans the coefficients come from (troubleshoot-query-performance's 60,951
    // items of 6.4 KB for 4,059.95 RU; courselabs' 999 products of 60 bytes for 18.59 RU).
    const upper = estimateRequestCharge({
      op: "query",
      returned: 7,
      returnedBytes: 512,
      scannedNotReturned: 60_951,
      scannedBytes: 399_998_938,
    });
    const products = estimateRequestCharge({
      op: "query",
      returned: 1,
      returnedBytes: 60,
      scannedNotReturned: 999,
      scannedBytes: 59_898,
    });
    expect(within(upper, 4059.95) && within(products, 18.59)).toBe(true);
    expect(Math.abs(upper.estimate / 4059.95 - 1)).toBeLessThan(0.02);
    expect(Math.abs(products.estimate / 18.59 - 1)).toBeLessThan(0.02);
  });
});

describe("transactions (batch, storedProcedure) and aggregates", () => {
  const read = { op: "read", itemBytes: 819 } as const;
  const create = { op: "create", itemBytes: 500, indexedValues: 6 } as const;
  const replace = { op: "replace", itemBytes: 819, indexedValues: 7, changedValues: 1 } as const;

  it("prices a stored procedure of one operation as that operation plus the script's overhead", () => {
    for (const inner of [read, create, replace] as const) {
      const alone = estimateRequestCharge(inner).estimate;
      const procedure = estimateRequestCharge({ op: "storedProcedure", operations: [inner] }).estimate;
      expect(procedure - alone).toBeCloseTo(4.873, 3);
      expect(estimateRequestCharge({ op: "batch", operations: [inner] }).estimate).toBeCloseTo(alone, 9);
    }
  });

  it("pays the per-request base once: a batch costs less than its operations alone, more than the dearest", () => {
    const operations = [read, replace, create];
    const batch = estimateRequestCharge({ op: "batch", operations }).estimate;
    const alone = operations.map((op) => estimateRequestCharge(op).estimate);
    expect(batch).toBeLessThan(alone.reduce((sum, value) => sum + value, 0));
    expect(batch).toBeGreaterThan(Math.max(...alone));
    // The shared part: a read's base (0.864) and an insert's (5.3) are paid within the replace's.
    expect(alone.reduce((sum, value) => sum + value, 0) - batch).toBeCloseTo(0.864 + 5.3, 3);
  });

  it("prices an aggregate's matching items like returned items, not like a scan", () => {
    const count = estimateRequestCharge({
      op: "query",
      returned: 1,
      returnedBytes: 20,
      aggregated: 50,
      aggregatedBytes: 50 * 400,
    }).estimate;
    const fifty = estimateRequestCharge({ op: "query", returned: 51, returnedBytes: 20 + 50 * 400 }).estimate;
    expect(count).toBeCloseTo(fifty, 9);
  });
});
