import { describe, expect, it } from "vitest";
import type {
  AccessPattern,
  Entity,
  ReadPattern,
  Relationship,
  Workload,
  WritePattern,
} from "../workload/types.js";
import { analyzeAccessCorrelation, identifyingRelationshipCheck } from "./aggregate-analysis.js";

function entity(name: string, key: string, avgBytes: number, maxBytes: number): Entity {
  return { name, key: [key], count: 1000, growthPerMonth: 0, avgBytes, maxBytes, attributes: [] };
}
function read(
  id: string,
  entityName: string,
  avg: number,
  peak: number,
  extra: Partial<ReadPattern> = {},
): ReadPattern {
  return {
    id,
    name: id,
    entity: entityName,
    rps: { avg, peak },
    standalone: false,
    type: "read",
    where: [],
    orderBy: [],
    truncate: [],
    with: [],
    ...extra,
  };
}
function write(
  id: string,
  entityName: string,
  avg: number,
  peak: number,
  extra: Partial<WritePattern> = {},
): WritePattern {
  return {
    id,
    name: id,
    entity: entityName,
    rps: { avg, peak },
    standalone: false,
    type: "write",
    operation: "create",
    atomicWith: [],
    bufferedRecords: 1,
    batch: 1,
    ...extra,
  };
}
function workloadOf(relationships: Relationship[], accessPatterns: AccessPattern[]): Workload {
  return {
    version: 1,
    name: "shop",
    scale: {
      regions: 1,
      multiRegionWrites: false,
      consistency: "session",
      horizonMonths: 12,
      targetUtilization: 0.8,
    },
    entities: [
      entity("User", "userId", 1000, 4000),
      entity("Order", "orderId", 1000, 2000),
      entity("OrderLine", "lineId", 200, 500),
    ],
    relationships,
    accessPatterns,
  };
}
const userOrders: Relationship = {
  parent: "User",
  child: "Order",
  kind: "one-to-many",
  via: ["userId"],
  avg: 5,
  max: 100,
  owned: true,
};
const orderLines: Relationship = {
  parent: "Order",
  child: "OrderLine",
  kind: "one-to-many",
  via: ["orderId"],
  avg: 3,
  max: 50,
  owned: true,
};
const basePatterns: AccessPattern[] = [
  read("Q1", "User", 100, 200, { where: [{ attribute: "userId", op: "eq" }] }),
  read("Q2", "Order", 60, 100, {
    where: [{ attribute: "userId", op: "eq" }],
    with: [{ kind: "attribute", entity: "User", attribute: "name" }],
  }),
  read("Q3", "Order", 40, 100, { where: [{ attribute: "orderId", op: "eq" }] }),
  write("C1", "User", 10, 20, { operation: "upsert", changes: ["email"] }),
  write("C2", "Order", 10, 40),
];

describe("analyzeAccessCorrelation", () => {
  it("weights the pattern uses by average and by peak rates", () => {
    const [pair] = analyzeAccessCorrelation(workloadOf([userOrders], basePatterns));
    // avg: parent Q1 100 + C1 10, child Q3 40 + C2 10, both Q2 60 -> 220 in all.
    expect(pair?.byAverage.both).toBeCloseTo(60 / 220, 10);
    expect(pair?.byAverage.parentOnly).toBeCloseTo(110 / 220, 10);
    expect(pair?.byAverage.childOnly).toBeCloseTo(50 / 220, 10);
    // peak: parent 220, child 140, both 100.
    expect(pair?.byPeak.both).toBeCloseTo(100 / 460, 10);
    expect(pair?.rps).toEqual({ avg: 220, peak: 460 });
    expect(pair?.patterns.find((p) => p.patternId === "Q2")?.use).toBe("both");
    expect(pair?.updates.kind).toBe("independent");
    expect(pair?.recommendation.decision).toBe("separate");
  });

  it("counts a write that changes an attribute another read returns as needing both", () => {
    const patterns = basePatterns.map((p) =>
      p.id === "C1" ? write("C1", "User", 10, 20, { operation: "upsert", changes: ["name"] }) : p,
    );
    const [pair] = analyzeAccessCorrelation(workloadOf([userOrders], patterns));
    expect(pair?.byAverage.both).toBeCloseTo(70 / 220, 10);
    expect(pair?.updates.coupledWrites).toEqual(["C1"]);
    expect(pair?.updates.kind).toBe("related");
    expect(pair?.recommendation.decision).toBe("compare-costs");
  });

  it("recommends a single-document aggregate for children always read with a bounded parent", () => {
    const patterns: AccessPattern[] = [
      read("Q4", "Order", 90, 300, {
        where: [{ attribute: "orderId", op: "eq" }],
        with: [{ kind: "all", entity: "OrderLine" }],
      }),
      write("C2", "Order", 1, 5),
      write("C3", "OrderLine", 5, 10),
    ];
    const [pair] = analyzeAccessCorrelation(workloadOf([orderLines], patterns));
    // Q4 and C3 (a line write changes what Q4 returns) need both; C2 only the order.
    expect(pair?.correlation).toBeCloseTo(95 / 96, 12);
    // 2,000 + 50 x 500 bytes.
    expect(pair?.size.maxCombinedBytes).toBe(27000);
    expect(pair?.size.avgCombinedBytes).toBe(1000 + 3 * 200);
    expect(pair?.size.fitsInOneItem).toBe(true);
    expect(pair?.recommendation).toMatchObject({ decision: "consolidate", aggregate: "single-document" });
  });

  it("keeps separate items in one partition when children churn or only their count is read", () => {
    const churn: AccessPattern[] = [
      read("Q4", "Order", 90, 300, { with: [{ kind: "all", entity: "OrderLine" }] }),
      write("C2", "Order", 1, 5),
      write("C3", "OrderLine", 50, 100),
    ];
    const [churning] = analyzeAccessCorrelation(workloadOf([orderLines], churn));
    expect(churning?.recommendation).toMatchObject({ decision: "consolidate", aggregate: "multi-document" });
    expect(churning?.recommendation.reasons.join(" ")).toMatch(/written over 10 times/);
    const countOnly: AccessPattern[] = [
      read("Q4", "Order", 90, 300, { with: [{ kind: "count", entity: "OrderLine" }] }),
      write("C2", "Order", 1, 5),
      write("C3", "OrderLine", 5, 10),
    ];
    const [counted] = analyzeAccessCorrelation(workloadOf([orderLines], countOnly));
    expect(counted?.correlation).toBeCloseTo(95 / 96, 12);
    expect(counted?.recommendation).toMatchObject({ decision: "consolidate", aggregate: "multi-document" });
  });

  it("does not consolidate an unbounded or many-to-many pair even when highly correlated", () => {
    const patterns: AccessPattern[] = [
      read("Q4", "Order", 90, 300, { with: [{ kind: "count", entity: "OrderLine" }] }),
      write("C3", "OrderLine", 5, 10),
    ];
    const unbounded: Relationship = {
      parent: "Order",
      child: "OrderLine",
      kind: "one-to-many",
      via: ["orderId"],
      avg: 3,
      owned: true,
    };
    const [pair] = analyzeAccessCorrelation(workloadOf([unbounded], patterns));
    expect(pair?.size.bounded).toBe(false);
    expect(pair?.recommendation.decision).toBe("compare-costs");
    expect(pair?.recommendation.reasons.join(" ")).toMatch(/unbounded/);
    const manyToMany: Relationship = { ...orderLines, kind: "many-to-many" };
    const [m2m] = analyzeAccessCorrelation(workloadOf([manyToMany], patterns));
    expect(m2m?.recommendation.decision).toBe("compare-costs");
  });

  it("reports zero shares when no pattern touches the pair", () => {
    const [pair] = analyzeAccessCorrelation(workloadOf([orderLines], [read("Q1", "User", 1, 1)]));
    expect(pair?.byAverage).toEqual({ parentOnly: 0, childOnly: 0, both: 0 });
    expect(pair?.patterns).toEqual([]);
  });
});

describe("identifyingRelationshipCheck", () => {
  it("recommends the parent key as partition key when every child read has it", () => {
    const patterns: AccessPattern[] = [
      read("Q2", "Order", 60, 100, { where: [{ attribute: "userId", op: "eq" }] }),
      read("Q5", "Order", 6, 10, {
        where: [
          { attribute: "userId", op: "eq" },
          { attribute: "orderId", op: "eq" },
        ],
      }),
    ];
    const check = identifyingRelationshipCheck(workloadOf([userOrders], patterns), userOrders);
    expect(check).toMatchObject({
      childIndependent: false,
      alwaysQueriedWithParentKey: true,
      crossPartitionIfSeparate: true,
      useIdentifyingRelationship: true,
      parentChildQueries: ["Q2", "Q5"],
      readsWithoutParentKey: [],
    });
  });
  it("does not when a child read lacks the parent key or the child is independent", () => {
    const check = identifyingRelationshipCheck(workloadOf([userOrders], basePatterns), userOrders);
    expect(check.alwaysQueriedWithParentKey).toBe(false);
    expect(check.readsWithoutParentKey).toEqual(["Q3"]);
    expect(check.useIdentifyingRelationship).toBe(false);
    const independent = identifyingRelationshipCheck(
      workloadOf([{ ...userOrders, owned: false }], [basePatterns[1] as AccessPattern]),
      {
        ...userOrders,
        owned: false,
      },
    );
    expect(independent.childIndependent).toBe(true);
    expect(independent.useIdentifyingRelationship).toBe(false);
  });
  it("counts reads of the parent that return its children as parent → child queries (food-delivery Q2: all(MenuItem))", () => {
    const patterns: AccessPattern[] = [
      read("Q4", "Order", 90, 300, {
        where: [{ attribute: "orderId", op: "eq" }],
        with: [{ kind: "all", entity: "OrderLine" }],
      }),
    ];
    const check = identifyingRelationshipCheck(workloadOf([orderLines], patterns), orderLines);
    expect(check).toMatchObject({
      alwaysQueriedWithParentKey: true,
      crossPartitionIfSeparate: true,
      useIdentifyingRelationship: true,
      parentChildQueries: ["Q4"],
    });
    expect(check.why).not.toMatch(/No read pattern reads/);
  });
});

describe("consolidation and the identifying check never contradict each other (issue 18)", () => {
  it("does not call an owned child identifying, nor consolidate it, when a child read lacks the parent key (blogging User + Post)", () => {
    const patterns: AccessPattern[] = [
      read("Q1", "User", 100, 200, {
        where: [{ attribute: "userId", op: "eq" }],
        with: [{ kind: "latest", entity: "Order", n: 5 }],
      }),
      read("Q3", "Order", 5, 10, { where: [{ attribute: "orderId", op: "eq" }] }),
    ];
    const [pair] = analyzeAccessCorrelation(workloadOf([userOrders], patterns));
    expect(pair?.correlation).toBeGreaterThan(0.5);
    expect(pair?.identifying.useIdentifyingRelationship).toBe(false);
    expect(pair?.recommendation.decision).toBe("compare-costs");
    const reasons = pair?.recommendation.reasons ?? [];
    expect(reasons).not.toContain("identifying relationship");
    expect(reasons.join("; ")).toMatch(
      /not an identifying relationship: Q3 read Order without its User's key/,
    );
  });

  it.each([
    ["separate", 0.1],
    ["compare-costs", 0.4],
    ["consolidate", 0.9],
  ])("says 'identifying relationship' in a %s recommendation only when the check says Yes", (_, share) => {
    for (const owned of [true, false]) {
      for (const withParentKey of [true, false]) {
        const relationship = { ...orderLines, owned };
        const patterns: AccessPattern[] = [
          read("Q4", "Order", share * 100, share * 100, {
            where: [{ attribute: "orderId", op: "eq" }],
            with: [{ kind: "all", entity: "OrderLine" }],
          }),
          read("Q5", "OrderLine", (1 - share) * 100, (1 - share) * 100, {
            where: [{ attribute: withParentKey ? "orderId" : "lineId", op: "eq" }],
          }),
        ];
        const [pair] = analyzeAccessCorrelation(workloadOf([relationship], patterns));
        const says = pair?.recommendation.reasons.includes("identifying relationship");
        if (says) expect(pair?.identifying.useIdentifyingRelationship).toBe(true);
        if (pair?.recommendation.decision === "consolidate")
          expect(pair.identifying.useIdentifyingRelationship).toBe(true);
      }
    }
  });
});
