/**
 * The differential bench (STYLE.md rule 21): the two views of a model, `evaluate` and `verify`,
 * run against each other on generated inputs, counting the models evaluate accepts and verify
 * refutes ("silent failures", the worst bug the product can have).
 *
 * 1. `DIFFERENTIAL_WORKLOADS` workloads (default 300) are drawn from the workload sources (in
 *    turn), designed, and each design judged (src/test-support/differential.ts: loaded against
 *    the workload, evaluated, verified on one embedded endpoint with small data, every verify
 *    failure caught or silent). Every design must pass verify.
 * 2. `DIFFERENTIAL_MUTATIONS` mutations (default 300) of the designs that pass verify
 *    (src/test-support/model-mutations.ts), spread over the kinds and the designs, each judged.
 *
 * The report: workloads judged, mutations by kind and verdict, caught / silent / false alarms,
 * designs failing verify, every silent failure with its reproducer (source, seed, mutation) and
 * detail (the first 30 in full, then counts by mutation kind and failure), and the time per
 * judged model. Passes with no silent failure and no design failing verify.
 */
import type { Bench } from "./bench.js";

const WORKLOADS = Number(process.env.DIFFERENTIAL_WORKLOADS ?? 300);
const MUTATIONS = Number(process.env.DIFFERENTIAL_MUTATIONS ?? 300);
/** Silent failures printed in full (all are counted); `DIFFERENTIAL_SHOWN` prints more. */
const SHOWN = Number(process.env.DIFFERENTIAL_SHOWN ?? 30);

export const bench: Bench = {
  name: "differential: evaluate against verify on designs and their mutations",
  async run() {
    // The judge, the mutations and the sources are test helpers, loaded only when this runs.
    const { runDifferential } = await import("../test-support/differential-run.js");
    const { workloadSources } = await import("../test-support/workload-sources.js");
    const { startEmbeddedEndpoint } = await import("../verify/endpoint.js");
    const endpoint = await startEmbeddedEndpoint();
    try {
      const outcome = await runDifferential(endpoint, await workloadSources(), {
        workloads: WORKLOADS,
        mutations: MUTATIONS,
        shown: SHOWN,
        onProgress: (line) => process.stderr.write(`${line}\n`),
      });
      return { passed: outcome.passed, ran: true, report: outcome.report };
    } finally {
      await endpoint.close();
    }
  },
};
