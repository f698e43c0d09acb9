/**
 * Document consistency on many generated workloads (issue 18): runs the consistency test of
 * `src/render/document-consistency.test.ts` (render both documents, read them back, compare every
 * statement with the evaluation, the analysis and the decisions) on 300 generated workloads
 * instead of the 10 of `npm test`. The test needs the test helpers (fast-check, marked, the
 * workload generator), so it runs through vitest in the checkout, as `npm test` runs it.
 * Target: no contradiction in any of them.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Bench } from "./bench.js";

/** Generated workloads designed, rendered and checked. */
export const DOCUMENT_CONSISTENCY_BENCH_RUNS = 300;
const TEST_FILE = "src/render/document-consistency.test.ts";
const TEST_NAME = "designed generated workloads";

export const bench: Bench = {
  name: `document consistency (${DOCUMENT_CONSISTENCY_BENCH_RUNS} generated workloads)`,
  async run(context) {
    const vitest = join(context.root, "node_modules", "vitest", "vitest.mjs");
    if (!existsSync(vitest) || !existsSync(join(context.root, TEST_FILE))) {
      return { passed: false, ran: false, report: `needs the checkout's ${TEST_FILE} and vitest` };
    }
    const start = performance.now();
    const result = spawnSync(process.execPath, [vitest, "run", TEST_FILE, "-t", TEST_NAME], {
      cwd: context.root,
      env: { ...process.env, DOCUMENT_CONSISTENCY_RUNS: String(DOCUMENT_CONSISTENCY_BENCH_RUNS) },
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    });
    const seconds = (performance.now() - start) / 1000;
    const passed = result.status === 0;
    const output = `${result.stdout}${result.stderr}`;
    const report = [
      `${DOCUMENT_CONSISTENCY_BENCH_RUNS} generated workloads designed, rendered and read back in ${seconds.toFixed(0)} s: ${passed ? "no contradiction" : "CONTRADICTIONS FOUND"}`,
      // On failure, the counterexample and the contradictions vitest printed.
      ...(passed ? [] : [output.split("\n").slice(-80).join("\n")]),
    ].join("\n");
    return { passed, ran: true, report };
  },
};
