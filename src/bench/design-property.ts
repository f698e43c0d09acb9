/**
 * The design property at scale: the property `npm test` checks on 50 random workloads
 * (src/design/design-robustness.test.ts) checked on 600 more, drawn with other seeds. Each failing
 * workload is reported with its seed and index (`fc.sample(designPropertyWorkloads, { numRuns,
 * seed })` gives it back) and its problems; the first one's workload is printed in full.
 * `DESIGN_BENCH_RUNS` changes the number of workloads per seed.
 */
import fc from "fast-check";
import type { Bench } from "./bench.js";

/** Seeds other than the test's (20261123): the bench explores workloads the test does not. */
const SEEDS = [1, 2, 3] as const;
const RUNS_PER_SEED = Number(process.env.DESIGN_BENCH_RUNS ?? 200);
/** Failures printed in detail (all are counted). */
const SHOWN = 5;

interface Failure {
  readonly seed: number;
  readonly index: number;
  readonly document: Record<string, unknown>;
  readonly problems: readonly string[];
}

function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

export const bench: Bench = {
  name: "design property on random workloads (many runs)",
  async run() {
    // The property lives with the test helpers (the test runs it too), loaded only when this runs.
    const { designPropertyFailures, designPropertyWorkloads } =
      await import("../test-support/design-property.js");
    const { workloadText } = await import("../test-support/workload-arbitrary.js");
    const failures: Failure[] = [];
    const times: number[] = [];
    for (const seed of SEEDS) {
      const documents = fc.sample(designPropertyWorkloads, { numRuns: RUNS_PER_SEED, seed });
      documents.forEach((document, index) => {
        const start = performance.now();
        const problems = designPropertyFailures(document);
        times.push(performance.now() - start);
        if (problems.length > 0) failures.push({ seed, index, document, problems });
      });
    }
    times.sort((a, b) => a - b);
    const lines = [
      `${times.length} workloads (seeds ${SEEDS.join(", ")}, ${RUNS_PER_SEED} each): ${failures.length} failing`,
      `design + checks per workload: median ${quantile(times, 0.5).toFixed(0)} ms, p95 ${quantile(times, 0.95).toFixed(0)} ms, max ${quantile(times, 1).toFixed(0)} ms`,
      ...failures
        .slice(0, SHOWN)
        .map(
          (failure) => `seed ${failure.seed}, workload ${failure.index}:\n  ${failure.problems.join("\n  ")}`,
        ),
      ...(failures.length > SHOWN ? [`... and ${failures.length - SHOWN} more`] : []),
      ...(failures[0] === undefined ? [] : ["first failing workload:", workloadText(failures[0].document)]),
      failures.length === 0 ? "targets met" : "targets MISSED",
    ];
    return { passed: failures.length === 0, ran: true, report: lines.join("\n") };
  },
};
