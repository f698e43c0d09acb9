import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_PHYSICAL_PARTITION_GB } from "../cosmos/limits.js";
import { loadExample } from "../test-support/evaluate-fixtures.js";
import type { Workload } from "../workload/types.js";
import { attributeCost } from "./cost-attribution.js";
import { evaluateModel } from "./evaluate.js";
import {
  MAX_PROJECTED_MONTHS,
  MIN_PROJECTED_MONTHS,
  monthsBudget,
  projectCost,
  projectedMonths,
} from "./projection.js";

describe("projectedMonths", () => {
  it("lists every month up to the cap, else evenly spread months ending at the horizon", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 600 }), (horizon) => {
        const months = projectedMonths(horizon);
        expect(months.at(-1)).toBe(horizon);
        expect(months.length).toBe(Math.min(horizon, MAX_PROJECTED_MONTHS));
        months.forEach((m, i) => {
          expect(m).toBeGreaterThanOrEqual(1);
          if (i > 0) expect(m).toBeGreaterThan(months[i - 1] ?? 0);
        });
      }),
    );
  });
});

describe("monthsBudget", () => {
  it("evaluates every month of 36 for small workloads, fewer for large ones, never under the minimum", () => {
    expect(monthsBudget(10)).toBe(MAX_PROJECTED_MONTHS);
    expect(monthsBudget(55)).toBe(MAX_PROJECTED_MONTHS);
    expect(monthsBudget(200)).toBe(10);
    expect(monthsBudget(624)).toBe(MIN_PROJECTED_MONTHS);
    expect(projectedMonths(12, monthsBudget(624))).toEqual([3, 6, 9, 12]);
    expect(projectedMonths(12, monthsBudget(200))).toEqual([1, 2, 4, 5, 6, 7, 8, 10, 11, 12]);
  });
});

describe("projectCost", () => {
  it("ends at the evaluation of the model (month H is evaluate's own figure)", () => {
    const { workload, model } = loadExample("ecommerce");
    const projection = projectCost(workload, model);
    const evaluation = evaluateModel(workload, model);
    const last = projection.months.at(-1);
    expect(last?.month).toBe(workload.scale.horizonMonths);
    expect(last?.asModeled.monthlyCostUSD).toBeCloseTo(evaluation.totals.monthlyCostUSD, 6);
    expect(last?.storageGB).toBeCloseTo(
      evaluation.containers.reduce((sum, c) => sum + c.storageGB, 0),
      6,
    );
    // Growth only adds data: storage and partitions never shrink.
    for (let i = 1; i < projection.months.length; i++) {
      const [before, after] = [projection.months[i - 1], projection.months[i]];
      expect(after?.storageGB ?? 0).toBeGreaterThanOrEqual(before?.storageGB ?? 0);
      expect(after?.physicalPartitions ?? 0).toBeGreaterThanOrEqual(before?.physicalPartitions ?? 0);
    }
    const sum = projection.months.reduce((s, m) => s + m.asModeled.monthlyCostUSD, 0);
    expect(projection.totalUSD.asModeled).toBeCloseTo(sum, 6);
    expect(projection.billing.map((rule) => rule.subject)).toContain("trafficProfile");
  });

  it("records a partition split when growth passes the physical partition's storage", () => {
    const { workload, model } = loadExample("blogging");
    const grown: Workload = {
      ...workload,
      entities: workload.entities.map((e) => (e.name === "Post" ? { ...e, growthPerMonth: 4_000_000 } : e)),
    };
    const projection = projectCost(grown, model);
    const splits = projection.events.filter((e) => e.kind === "partitionSplit");
    expect(splits.length).toBeGreaterThan(0);
    for (const split of splits) {
      if (split.kind !== "partitionSplit") continue;
      expect(split.to).toBeGreaterThan(split.from);
      const month = projection.months.find((m) => m.month === split.month);
      const container = month?.asModeled.containers.find((c) => c.name === split.container);
      expect(container?.physicalPartitions).toBe(split.to);
      // The split follows storage or load, never a count the storage would not need.
      expect(split.to).toBeGreaterThanOrEqual(
        Math.ceil((container?.storageGB ?? 0) / MAX_PHYSICAL_PARTITION_GB),
      );
    }
  });

  it("sizes throughput to each month's need when the model pins it", () => {
    const { workload, model } = loadExample("blogging");
    const pinned = {
      ...model,
      containers: model.containers.map((c) => ({
        ...c,
        throughput: { mode: "manual" as const, rus: 200_000 },
      })),
    };
    const projection = projectCost(workload, pinned);
    for (const month of projection.months) {
      expect(month.asModeled.containers.every((c) => c.provisionedRus === 200_000)).toBe(true);
      expect(month.followingNeed.monthlyCostUSD).toBeLessThan(month.asModeled.monthlyCostUSD);
    }
  });
});

describe("attributeCost", () => {
  it("divides each container's throughput bill among its patterns exactly", () => {
    for (const name of ["blogging", "ecommerce"]) {
      const { workload, model } = loadExample(name);
      const evaluation = evaluateModel(workload, model);
      const attribution = attributeCost(workload, evaluation);
      const throughput = evaluation.containers.reduce((s, c) => s + c.costBreakdown.throughputUSD, 0);
      const attributed = attribution.patterns.reduce((s, p) => s + p.monthlyUSD, 0);
      expect(attributed + attribution.unattributedUSD).toBeCloseTo(throughput, 6);
      const shares = attribution.patterns.reduce((s, p) => s + p.shareOfBill, 0) + attribution.storageShare;
      expect(shares + attribution.unattributedUSD / attribution.totalUSD).toBeCloseTo(1, 9);
      for (const pattern of attribution.patterns) {
        expect(pattern.monthlyUSD).toBeGreaterThanOrEqual(0);
        for (const c of pattern.containers) expect(c.rus.peak).toBeGreaterThanOrEqual(c.rus.avg);
      }
    }
  });
});
