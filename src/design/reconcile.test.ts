/**
 * Every total reconciles with its parts: each pattern's RU/s are its requests plus its
 * change-feed work minus the change-feed updates summed per parent; the patterns add up to the
 * containers, the containers to the totals, and each container's bill to its throughput and
 * storage. Each pattern's parts are checked against the workload's own rates; every cost range
 * (containers, totals, the account's provisioned figure) holds its figure and sums up. Checked on
 * every example (expert and case-study models, and the baseline), on generated workloads and on
 * random workload documents (`workload-arbitrary.ts`), designed and baseline.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { baselineModel } from "./model-edits.js";
import { designModel } from "./design-model.js";
import { generateWorkload } from "./generate-workload.js";
import { loadExample } from "../test-support/evaluate-fixtures.js";
import { EXAMPLE_MODELS } from "../test-support/model-examples.js";
import type { Model } from "../model/types.js";
import type { Workload } from "../workload/types.js";
import { evaluateModel } from "../cost/evaluate.js";
import type { Evaluation } from "../cost/evaluation-types.js";
import { toWorkload, workloadDocumentArbitrary, workloadText } from "../test-support/workload-arbitrary.js";

/** Random documents checked (designing one takes 1-3 s). */
const RANDOM_RUNS = Number(process.env["RECONCILE_RUNS"] ?? 12);

const close = (actual: number, expected: number, what: string): void => {
  expect(Math.abs(actual - expected), `${what}: ${actual} vs ${expected}`).toBeLessThanOrEqual(
    1e-6 * Math.max(1, Math.abs(expected)),
  );
};

function expectReconciled(workload: Workload, model: Model, given?: Evaluation): void {
  const evaluation = given ?? evaluateModel(workload, model);
  for (const rate of ["avg", "peak"] as const) {
    for (const pattern of evaluation.patterns) {
      const parts = pattern.rusBreakdown;
      // The parts from the workload's own rates: RU per request times requests per second (for a
      // read served through the integrated cache, the misses that reach the database).
      const cached = evaluation.integratedCache?.patterns.find((p) => p.id === pattern.id);
      const rps =
        cached?.misses[rate] ?? workload.accessPatterns.find((p) => p.id === pattern.id)?.rps[rate] ?? NaN;
      if (cached !== undefined) expect(cached.misses[rate]).toBeLessThanOrEqual(cached.requests[rate] + 1e-9);
      close(parts.requests[rate], pattern.ru.estimate * rps, `${pattern.id} requests ${rate}`);
      close(parts.changeFeed[rate], pattern.ru.async * rps, `${pattern.id} change feed ${rate}`);
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
    evaluation.containers.reduce((sum, c) => sum + c.monthlyCostUSD, 0) +
      (evaluation.integratedCache?.monthlyCostUSD ?? 0),
    "total bill",
  );
  expectCostRanges(evaluation);
  // One capacity mode for the account.
  const serverless = evaluation.containers.filter((c) => c.throughput.mode === "serverless").length;
  expect([0, evaluation.containers.length]).toContain(serverless);
}

/**
 * Each cost range holds its figure and sums up; a provisioned account chosen by the tool bills
 * each container's cheaper provisioned mode, so its throughput is the account's figure.
 */
function expectCostRanges(evaluation: Evaluation): void {
  for (const c of evaluation.containers) {
    const chosen = c.throughputOptions.find((o) => o.mode === c.throughput.mode);
    const { lowUSD, highUSD } = c.monthlyCostRange;
    expect(lowUSD, `${c.name} low`).toBeLessThanOrEqual(c.monthlyCostUSD + 1e-6);
    expect(highUSD, `${c.name} high`).toBeGreaterThanOrEqual(c.monthlyCostUSD - 1e-6);
    close(highUSD - lowUSD, (chosen?.range?.highUSD ?? 0) - (chosen?.range?.lowUSD ?? 0), `${c.name} spread`);
    // Every mode's figure says its assumption; autoscale's is the account's comparison basis.
    for (const option of c.throughputOptions) {
      expect(option.basis.description.length).toBeGreaterThan(0);
      if (option.mode === "autoscale") expect(option.basis).toEqual(evaluation.account.comparedOn);
    }
  }
  for (const end of ["lowUSD", "highUSD"] as const)
    close(
      evaluation.totals.monthlyCostRange[end],
      evaluation.containers.reduce((sum, c) => sum + c.monthlyCostRange[end], 0) +
        (evaluation.integratedCache?.monthlyCostUSD ?? 0),
      `total ${end}`,
    );
  const { account } = evaluation;
  const throughput = evaluation.containers.reduce((sum, c) => sum + c.costBreakdown.throughputUSD, 0);
  if (account.mode === "provisioned" && !account.setByModel)
    close(throughput, account.provisionedUSD, "provisioned account vs containers' throughput");
  if (account.mode === "serverless" && !account.setByModel)
    close(throughput, account.serverlessUSD ?? NaN, "serverless account vs containers' throughput");
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

  it("on random workload documents, their baseline and their design", () => {
    fc.assert(
      fc.property(workloadDocumentArbitrary({ maxEntities: 4 }), fc.boolean(), (document, design) => {
        const workload = toWorkload(document);
        try {
          if (design) {
            const designed = designModel(workload);
            expectReconciled(workload, designed.model, designed.evaluation);
          } else expectReconciled(workload, baselineModel(workload));
        } catch (error) {
          throw new Error(`${String(error)}\n---\n${workloadText(document)}`, { cause: error });
        }
      }),
      { numRuns: RANDOM_RUNS, seed: 20261125, endOnFailure: true },
    );
  }, 600_000);
});
