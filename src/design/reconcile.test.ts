/**
 * Every total reconciles with its parts: each pattern's RU/s are its requests plus its
 * change-feed work minus the change-feed updates summed per parent; the patterns add up to the
 * containers, the containers to the totals, and each container's bill to its throughput and
 * storage. Checked on every example (expert and case-study models, and the baseline), and on
 * generated workloads.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { baselineModel } from "./model-edits.js";
import { generateWorkload } from "./generate-workload.js";
import { loadExample } from "../test-support/evaluate-fixtures.js";
import { EXAMPLE_MODELS } from "../test-support/model-examples.js";
import type { Model } from "../model/types.js";
import type { Workload } from "../workload/types.js";
import { evaluateModel } from "../cost/evaluate.js";

const close = (actual: number, expected: number, what: string): void => {
  expect(Math.abs(actual - expected), `${what}: ${actual} vs ${expected}`).toBeLessThanOrEqual(
    1e-6 * Math.max(1, Math.abs(expected)),
  );
};

function expectReconciled(workload: Workload, model: Model): void {
  const evaluation = evaluateModel(workload, model);
  for (const rate of ["avg", "peak"] as const) {
    for (const pattern of evaluation.patterns) {
      const parts = pattern.rusBreakdown;
      close(
        pattern.rus[rate],
        parts.requests[rate] + parts.changeFeed[rate] - parts.aggregatedChangeFeed[rate],
        `${pattern.id} ${rate}`,
      );
      expect(parts.aggregatedChangeFeed[rate]).toBeLessThanOrEqual(parts.changeFeed[rate] + 1e-9);
    }
    const patterns = evaluation.patterns.reduce((sum, p) => sum + p.rus[rate], 0);
    const containers = evaluation.containers.reduce((sum, c) => sum + c.rus[rate], 0);
    close(patterns, containers, `patterns vs containers, ${rate}`);
    close(containers, evaluation.totals.rus[rate], `containers vs totals, ${rate}`);
  }
  for (const container of evaluation.containers) {
    close(
      container.monthlyCostUSD,
      container.costBreakdown.throughputUSD + container.costBreakdown.storageUSD,
      `${container.name} bill`,
    );
    // The provisioned RU/s cover the peak (serverless provisions none).
    if (container.throughput.mode !== "serverless")
      expect(container.throughput.provisionedRus).toBeGreaterThanOrEqual(container.rus.peak - 1e-6);
  }
  close(
    evaluation.totals.monthlyCostUSD,
    evaluation.containers.reduce((sum, c) => sum + c.monthlyCostUSD, 0),
    "total bill",
  );
  // One capacity mode for the account.
  const serverless = evaluation.containers.filter((c) => c.throughput.mode === "serverless").length;
  expect([0, evaluation.containers.length]).toContain(serverless);
}

describe("totals reconcile with their parts", () => {
  it.each(EXAMPLE_MODELS)("%s %s", (name, file) => {
    const { workload, model } = loadExample(name, file.split("/")[1]);
    expectReconciled(workload, model);
  });

  it.each(EXAMPLE_MODELS.filter(([, file]) => file.endsWith("expert-model.yaml")))(
    "%s: the baseline (one container per entity)",
    (name) => {
      const { workload } = loadExample(name);
      expectReconciled(workload, baselineModel(workload));
    },
  );

  it("on generated workloads", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), (entities) => {
        const workload = generateWorkload(entities);
        expectReconciled(workload, baselineModel(workload));
      }),
      { numRuns: 8 },
    );
  });
});
