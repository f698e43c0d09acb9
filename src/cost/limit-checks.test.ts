/**
 * The evaluation's limit checks (issue 18): three levels with the thresholds of cosmos/limits.ts,
 * and always in step with the findings (an `over` check is the error finding, a `near` storage
 * check with growth is the growth warning).
 */
import { describe, expect, it } from "vitest";
import { NEAR_LOGICAL_PARTITION_GB_SHARE, NEAR_PARTITION_RUS_SHARE } from "../cosmos/limits.js";
import { loadExample, loadFixtureModel, parseModel } from "../test-support/evaluate-fixtures.js";
import { EXAMPLE_MODELS, readExample, readExampleWorkload } from "../test-support/model-examples.js";
import { evaluateModel, type DetailedEvaluation } from "./evaluate.js";
import type { LimitCheck } from "./evaluation-types.js";

/** The status a check's figure alone gives. */
function statusOf(check: LimitCheck): LimitCheck["status"] {
  if (check.value > check.limit) return "over";
  return check.value >= check.limit * check.nearShare ? "near" : "ok";
}

/** Every check agrees with its figure and with the evaluation's findings. */
function expectChecksAgree(evaluation: DetailedEvaluation): void {
  const has = (code: string, container: string): boolean =>
    evaluation.issues.some((i) => i.code === code && "container" in i && i.container === container);
  for (const c of evaluation.containers) {
    const { hottestLogicalPartitionRus, busiestPhysicalPartitionRus, largestLogicalPartitionGB } = c.limits;
    for (const check of [hottestLogicalPartitionRus, busiestPhysicalPartitionRus, largestLogicalPartitionGB])
      expect(check.share).toBeCloseTo(check.value / check.limit, 12);
    expect(hottestLogicalPartitionRus.status).toBe(statusOf(hottestLogicalPartitionRus));
    expect(busiestPhysicalPartitionRus.status).toBe(statusOf(busiestPhysicalPartitionRus));
    expect(hottestLogicalPartitionRus.value).toBe(c.hottestLogicalPartition.rus);
    expect(busiestPhysicalPartitionRus.value).toBe(c.hottestPhysicalPartition.rus);
    expect(largestLogicalPartitionGB.value).toBe(c.hottestLogicalPartition.storageGB);
    expect(hottestLogicalPartitionRus.nearShare).toBe(NEAR_PARTITION_RUS_SHARE);
    expect(largestLogicalPartitionGB.nearShare).toBe(NEAR_LOGICAL_PARTITION_GB_SHARE);
    expect(hottestLogicalPartitionRus.status === "over", c.name).toBe(has("evaluate.hotPartition", c.name));
    if (hottestLogicalPartitionRus.status !== "over")
      expect(busiestPhysicalPartitionRus.status === "over", c.name).toBe(
        has("evaluate.hotPhysicalPartition", c.name),
      );
    expect(largestLogicalPartitionGB.status === "over", c.name).toBe(
      has("evaluate.logicalPartitionTooLarge", c.name),
    );
    // Storage: its figure's status, raised to near by a growth warning.
    const growing = has("evaluate.logicalPartitionGrowth", c.name);
    const bySize = statusOf(largestLogicalPartitionGB);
    expect(largestLogicalPartitionGB.status).toBe(bySize === "ok" && growing ? "near" : bySize);
    const growth = largestLogicalPartitionGB.growth;
    if (growing) expect(growth !== undefined && growth.hoursToLimit < growth.withinHours).toBe(true);
  }
}

describe("limit checks of the evaluation", () => {
  it.each(EXAMPLE_MODELS)("agree with their figures and the findings: %s %s", (example, file) => {
    const workload = readExampleWorkload(example);
    const model = parseModel(readExample(file), workload, file);
    expectChecksAgree(evaluateModel(workload, model));
  });

  it("marks the social-reactions naive model's partition that reaches 20 GB in hours as near, not ok", () => {
    const { workload, model } = loadFixtureModel("social-reactions", "social-reactions-naive-model.yaml");
    const evaluation = evaluateModel(workload, model);
    expectChecksAgree(evaluation);
    const growing = evaluation.containers.filter(
      (c) => (c.limits.largestLogicalPartitionGB.growth?.hoursToLimit ?? Infinity) < 24 * 30,
    );
    expect(growing.length).toBeGreaterThan(0);
    for (const c of growing) {
      const check = c.limits.largestLogicalPartitionGB;
      expect(check.share).toBeLessThan(NEAR_LOGICAL_PARTITION_GB_SHARE);
      expect(check.status).toBe("near");
    }
  });

  it("lists every item type with its items and distinct key values", () => {
    const { workload, model } = loadExample("blogging");
    const evaluation = evaluateModel(workload, model);
    for (const container of model.containers) {
      const evaluated = evaluation.containers.find((c) => c.name === container.name);
      expect(evaluated?.itemTypes.map((i) => i.type)).toEqual(container.items.map((i) => i.type));
      for (const item of evaluated?.itemTypes ?? []) {
        expect(item.keyValues).toBeGreaterThan(0);
        expect(item.items).toBeGreaterThan(0);
      }
    }
  });
});
