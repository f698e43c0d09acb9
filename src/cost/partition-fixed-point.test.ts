/**
 * The partition-count fixed point on random workloads (a model of one container per entity, and
 * a model a random design evaluated, with the mode and count left to the evaluation): it settles in a bounded number of rounds at counts the
 * containers report, and each provisioned mode is priced at its own fixed point (the same figure
 * as a model that sets that mode on every container).
 */
import { keyTemplate } from "../workload/keys.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Model, Throughput } from "../model/types.js";
import { toWorkload, workloadDocumentArbitrary } from "../test-support/workload-arbitrary.js";
import type { Workload } from "../workload/types.js";
import { formatIssue } from "../common/issues.js";
import { parseModel, readEvaluateFixture } from "../test-support/evaluate-fixtures.js";
import { loadWorkload } from "../workload/load-workload.js";
import { evaluateModel } from "./evaluate.js";

/**
 * A model of one container per entity, partitioned by its key: every query on another attribute
 * fans out over its partitions (what makes a count depend on itself).
 */
function containerPerEntity(workload: Workload): Model {
  const containers = workload.entities.map((entity, index) => {
    const type = `t${index}`;
    return [
      `  - name: c${index}`,
      `    partitionKey: [/${entity.key[0] ?? ""}]`,
      `    items:`,
      `      - { type: ${type}, entity: ${entity.name}, id: "${keyTemplate(entity.key)}", partitionKey: ["{${entity.key[0] ?? ""}}"] }`,
    ].join("\n");
  });
  return parseModel(["version: 1", "containers:", ...containers].join("\n"), workload);
}

/** Random workloads (one to four entities) and a model of one container per entity. */
const SAMPLES = fc
  .sample(workloadDocumentArbitrary({ maxEntities: 4 }), { numRuns: 40, seed: 20261125 })
  .map((document) => {
    const workload = toWorkload(document);
    return { workload, model: containerPerEntity(workload) };
  });

/**
 * A random workload (fast-check seed 42, maxEntities 4, sample 180) and a model its design
 * evaluated, whose orders container crept one partition a round (a fan-out costing most of a
 * partition's RU/s per partition: 7,183 -> 57,450 partitions in 40 rounds, still growing).
 */
function creeping(): { workload: Workload; model: Model } {
  const loaded = loadWorkload(readEvaluateFixture("fixed-point-creep.workload.yaml"));
  if (!loaded.ok) throw new Error(loaded.issues.map(formatIssue).join("\n"));
  const workload = loaded.value;
  return { workload, model: parseModel(readEvaluateFixture("fixed-point-creep.model.yaml"), workload) };
}

/** The model with every container's throughput set to `mode` (or left open) and no pinned count. */
function withMode(model: Model, mode: "manual" | "autoscale" | undefined): Model {
  return {
    ...model,
    containers: model.containers.map((container) => {
      const { throughput: _throughput, physicalPartitions: _count, ...rest } = container;
      const throughput: Throughput | undefined = mode === undefined ? undefined : { mode };
      return throughput === undefined ? rest : { ...rest, throughput };
    }),
  };
}

function diverging(workload: Workload, model: Model): Set<string> {
  const evaluation = evaluateModel(workload, model);
  return new Set(
    evaluation.issues.flatMap((issue) =>
      issue.code === "evaluate.fanOutCannotScale" ? [issue.container] : [],
    ),
  );
}

describe("partition fixed point", () => {
  it("settles in a few rounds, at the counts each container reports, with a bounded number of solves", () => {
    for (const { workload, model } of [...SAMPLES, creeping()]) {
      const evaluation = evaluateModel(workload, withMode(model, undefined), { maxIterations: 12 });
      expect(evaluation.fixedPoint.settled).toBe(true);
      expect(evaluation.fixedPoint.solves).toBeLessThanOrEqual(160 * model.containers.length * 12);
      for (const container of evaluation.containers) {
        expect(container.partitionLayout.partitions).toBe(evaluation.partitions[container.name]);
        const chosen = container.throughputOptions.find((o) => o.mode === container.throughput.mode);
        if (chosen !== undefined && chosen.mode !== "serverless")
          expect(chosen.physicalPartitions).toBe(evaluation.partitions[container.name]);
      }
    }
  });

  it("jumps to the fixed point a creeping container reaches, where one partition fewer needs more", () => {
    const { workload, model } = creeping();
    const evaluation = evaluateModel(workload, model, { maxIterations: 12 });
    expect(evaluation.fixedPoint.settled).toBe(true);
    const orders = evaluation.containers.find((c) => c.name === "orders");
    const count = evaluation.partitions.orders ?? 0;
    expect(count).toBeGreaterThan(57_450);
    // At the count it settles on, its load needs no more partitions than it has; with the count
    // pinned one lower, the busiest partition or the even split needs more than that count gives.
    expect(orders?.partitionLayout.partitions).toBe(count);
    const lower = {
      ...model,
      containers: model.containers.map((c) =>
        c.name === "orders" ? { ...c, physicalPartitions: count - 1 } : c,
      ),
    };
    const below = evaluateModel(workload, lower).containers.find((c) => c.name === "orders");
    expect(below?.rus.peak ?? 0).toBeGreaterThan((count - 1) * 10_000);
  });

  it("gives the fixed point iterating would reach: more rounds allowed change nothing", () => {
    for (const { workload, model } of SAMPLES.slice(0, 6)) {
      const open = withMode(model, undefined);
      const few = evaluateModel(workload, open, { maxIterations: 40 });
      const many = evaluateModel(workload, open, { maxIterations: 4_000 });
      expect(many.partitions).toEqual(few.partitions);
      expect(many.totals.monthlyCostUSD).toBeCloseTo(few.totals.monthlyCostUSD, 6);
    }
  });

  it("prices manual and autoscale each at its own fixed point, and chooses between the two", () => {
    let compared = 0;
    for (const { workload, model } of SAMPLES) {
      const open = evaluateModel(workload, withMode(model, undefined));
      const stopped = diverging(workload, withMode(model, "manual"));
      for (const mode of ["manual", "autoscale"] as const) {
        const pinned = evaluateModel(workload, withMode(model, mode));
        for (const [index, container] of open.containers.entries()) {
          if (stopped.has(container.name) || open.account.mode === "serverless") continue;
          const own = pinned.containers[index]?.throughputOptions.find((o) => o.mode === mode);
          const priced = container.throughputOptions.find((o) => o.mode === mode);
          expect(priced?.physicalPartitions, `${container.name} ${mode}`).toBe(own?.physicalPartitions);
          expect(priced?.monthlyThroughputUSD, `${container.name} ${mode}`).toBeCloseTo(
            own?.monthlyThroughputUSD ?? Number.NaN,
            6,
          );
          compared++;
        }
      }
      for (const container of open.containers) {
        if (container.throughput.mode === "serverless") continue;
        const provisioned = container.throughputOptions.filter((o) => o.mode !== "serverless");
        const allowed = provisioned.filter((o) => o.allowed);
        const pool = allowed.length > 0 ? allowed : provisioned;
        const cheapest = Math.min(...pool.map((o) => o.monthlyThroughputUSD));
        const chosen = provisioned.find((o) => o.mode === container.throughput.mode);
        expect(chosen?.monthlyThroughputUSD).toBeCloseTo(cheapest, 6);
      }
    }
    expect(compared).toBeGreaterThan(10);
  });
});
