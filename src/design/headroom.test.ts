/**
 * Headroom (issue 26): a partition's peak is checked at the top of the RU estimates' range
 * against the workload's target share of its limits (`scale.targetUtilization`, default 80%):
 * over it is `evaluate.noHeadroom`, a warning the search spreads away where a move does it.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { evaluateModel } from "../cost/evaluate.js";
import { MAX_LOGICAL_PARTITION_GB, MAX_PHYSICAL_PARTITION_RUS } from "../cosmos/limits.js";
import { DEFAULT_RU_COEFFICIENTS } from "../estimator/coefficients.js";
import type { Model } from "../model/types.js";
import { loadWorkload } from "../workload/load-workload.js";
import type { Workload } from "../workload/types.js";
import { designModel } from "./design-model.js";
import { baselineModel } from "./model-edits.js";

const FIXTURES = new URL("../../test/fixtures/headroom/", import.meta.url);

function workloadOf(file: string, edit: (text: string) => string = (text) => text): Workload {
  const loaded = loadWorkload(edit(readFileSync(new URL(file, FIXTURES), "utf8")), { file });
  if (!loaded.ok) throw new Error(loaded.issues.map((issue) => issue.message).join("; "));
  return loaded.value;
}

const withTarget = (target: number) => (text: string) =>
  text.replace(/^name: (.*)$/m, `name: $1\nscale: { targetUtilization: ${target} }`);

describe("headroom at the top of the RU range", () => {
  it("warns when a hot concert's page needs over 80% of a partition at the top of its range, not at the estimate", () => {
    const workload = workloadOf("concerts.yaml");
    const evaluation = evaluateModel(workload, baselineModel(workload));
    const [container] = evaluation.containers;
    const high = container?.limits.hottestLogicalPartitionRusHigh;
    // The estimate is under the target; its range's top is over it, under the limit.
    expect(container?.hottestLogicalPartition.rus).toBeLessThan(0.8 * MAX_PHYSICAL_PARTITION_RUS);
    expect(high?.value).toBeGreaterThan(0.8 * MAX_PHYSICAL_PARTITION_RUS);
    expect(high?.value).toBeLessThan(MAX_PHYSICAL_PARTITION_RUS);
    expect(high?.nearShare).toBe(0.8);
    expect(high?.status).toBe("near");
    // A point read's range reaches its band's top times its estimate (estimator/coefficients.ts).
    expect((high?.value ?? 0) / (container?.hottestLogicalPartition.rus ?? 1)).toBeCloseTo(
      DEFAULT_RU_COEFFICIENTS.bands.read.high,
      1,
    );
    const warnings = evaluation.issues.filter((issue) => issue.code === "evaluate.noHeadroom");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ measure: "rus", value: high?.value, targetUtilization: 0.8 });
    expect(evaluation.issues.filter((issue) => issue.severity === "error")).toEqual([]);
  });

  it("takes the target from the workload: at 95% the same concert page has headroom", () => {
    const workload = workloadOf("concerts.yaml", withTarget(0.95));
    expect(workload.scale.targetUtilization).toBe(0.95);
    const evaluation = evaluateModel(workload, baselineModel(workload));
    expect(evaluation.issues.filter((issue) => issue.code === "evaluate.noHeadroom")).toEqual([]);
  });

  it("warns when a venue's concerts reach over 80% of 20 GB at the horizon", () => {
    const workload = workloadOf("concerts.yaml", (text) =>
      text
        .replace("count: 2000", "count: 150000000")
        .replace("avgBytes: 900", "avgBytes: 1000")
        .replace(
          "concertId: { type: string, skew: 1.4 }",
          "concertId: string\n      venue2: { type: string, distinct: 10 }",
        ),
    );
    const base = baselineModel(workload);
    const model: Model = {
      ...base,
      containers: base.containers.map((c) => ({
        ...c,
        partitionKey: ["/venue2"],
        items: c.items.map((item) => ({ ...item, partitionKey: ["{venue2}"] })),
      })),
    };
    const evaluation = evaluateModel(workload, model);
    const storage = evaluation.issues.find(
      (issue) => issue.code === "evaluate.noHeadroom" && issue.measure === "storage",
    );
    const largest = evaluation.containers[0]?.limits.largestLogicalPartitionGB.value ?? 0;
    expect(storage).toBeDefined();
    expect(largest).toBeGreaterThan(0.8 * MAX_LOGICAL_PARTITION_GB);
    expect(largest).toBeLessThanOrEqual(MAX_LOGICAL_PARTITION_GB);
    expect(storage).toMatchObject({ value: largest, limit: MAX_LOGICAL_PARTITION_GB });
  });
});

describe("the design spreads a partition without headroom", () => {
  /** The meter readings' write shards and the hottest logical partition at the top of its range. */
  function shardsOf(workload: Workload) {
    const { model, evaluation } = designModel(workload);
    const item = model.containers.flatMap((c) => c.items).find((i) => i.entity === "Reading");
    const high = Math.max(...evaluation.containers.map((c) => c.limits.hottestLogicalPartitionRusHigh.value));
    return { shards: item?.shards ?? 1, high, evaluation };
  }

  it("shards a hot meter's readings until the top of the range is under the target", () => {
    const standard = shardsOf(workloadOf("meters.yaml"));
    expect(standard.shards).toBeGreaterThan(1);
    expect(standard.high).toBeLessThanOrEqual(0.8 * MAX_PHYSICAL_PARTITION_RUS);
    expect(standard.evaluation.issues.filter((i) => i.code === "evaluate.noHeadroom")).toEqual([]);
    // A stricter target (10% of a partition) needs more shards, and gets them.
    const strict = shardsOf(workloadOf("meters.yaml", withTarget(0.1)));
    expect(strict.shards).toBeGreaterThan(standard.shards);
    expect(strict.high).toBeLessThanOrEqual(0.1 * MAX_PHYSICAL_PARTITION_RUS);
    expect(strict.evaluation.issues.filter((i) => i.code === "evaluate.noHeadroom")).toEqual([]);
  });
});

describe("a hot primary item read by its key", () => {
  /** The design of the concert pages at `peak` reads/s: where the reads go and what is left. */
  function concertDesign(peak: number) {
    const workload = workloadOf("concerts.yaml", (text) => text.replace("peak: 22000", `peak: ${peak}`));
    const { model, evaluation } = designModel(workload);
    const read = evaluation.patterns.find((p) => p.id === "R1")?.plan;
    const first = read?.type === "read" ? read : undefined;
    const item = model.containers
      .find((c) => c.name === first?.container)
      ?.items.find((i) => i.type === first?.itemType);
    return { item, evaluation };
  }

  it.each([22_000, 40_000])(
    "at %i reads/s is served by a replicated copy kept from the change feed, with headroom",
    (peak) => {
      const { item, evaluation } = concertDesign(peak);
      // A primary item cannot be replicated in place (its writes would not be one transaction).
      expect(item?.source).toEqual({ container: "concerts", type: "concert" });
      expect(item?.replicas).toBeGreaterThan(1);
      expect(evaluation.issues.filter((i) => i.severity === "error")).toEqual([]);
      expect(evaluation.issues.filter((i) => i.code === "evaluate.noHeadroom")).toEqual([]);
      for (const container of evaluation.containers)
        expect(container.limits.hottestLogicalPartitionRusHigh.value).toBeLessThanOrEqual(
          0.8 * MAX_PHYSICAL_PARTITION_RUS,
        );
    },
  );

  it("at 5,000 reads/s stays a point read of the item itself", () => {
    const { item } = concertDesign(5_000);
    expect(item?.source).toBeUndefined();
    expect(item?.replicas).toBeUndefined();
  });
});

describe("scale.targetUtilization", () => {
  it("is a share of the limits, more than 0 and at most 1", () => {
    for (const bad of ["0", "1.5", "-0.2", '"high"']) {
      const loaded = loadWorkload(
        readFileSync(new URL("concerts.yaml", FIXTURES), "utf8").replace(
          /^name: (.*)$/m,
          `name: $1\nscale: { targetUtilization: ${bad} }`,
        ),
        { file: "concerts.yaml" },
      );
      expect(loaded.ok).toBe(false);
      if (!loaded.ok)
        expect(loaded.issues[0]).toMatchObject({
          code: "workload.invalidValue",
          path: ["scale", "targetUtilization"],
        });
    }
  });
});
