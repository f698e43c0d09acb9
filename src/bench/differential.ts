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
 *
 * The first run (200 workloads, 200 mutations, 2026-11-26: 72 silent failures in 31 models, 41
 * caught, no false alarm) found these causes, each with a reproducer (`arbitrary` seed, mutation):
 * - a `with` follow-up of children (count, all, latest, min) matches the child's `via` against the
 *   parent's attribute of the same name, not the parent's key (seed 13, relationship.swapVia
 *   "via tags instead"; seed 15, attribute.renameConsistently of Account.accountId);
 * - a copy whose source is no longer addressed by its key alone (the parent's id or partition key
 *   changed): the child's create cannot read it, evaluate says nothing (seed 1, id.changeTemplate
 *   "account-{accountId} -> account-{email}"); through a same-named attribute of the child, the
 *   counter's holder is addressed wrongly too (seed 9, "account-{accountId} -> account-{active}");
 * - an id template that is not unique in its logical partition (seed 145, "order-{orderId} ->
 *   order-{accountId}");
 * - a projection without an attribute a read filters on (seed 16, select without priority), or
 *   without the parent key a follow-up needs (the designs of seeds 22, 56, 195; seed 171,
 *   derived.drop of the copy accountPriority);
 * - a bounded set one below a read's limit: a warning for evaluate, a failure for verify
 *   (seed 134, boundedSet.shrink);
 * - verify's paging probe compares whole items of two replicas, whose replica key differs
 *   (likely; the design of seed 58): a false refutation of verify's.
 *
 * The run of 2026-11-28 (300 + 300, 18 designs and 48 mutations silent before) closed the rest;
 * each cause has a regression test where it was fixed (`independent` seeds unless named):
 * ids from a non-key `id` attribute (65, 125: refused by the workload check), a `/id` key path
 * shared with co-located children (106), paging compared across replicas and over 16 KB
 * continuation headers (127, 3), a self-relationship's `latest` taken for a lookup (33), `with`
 * entries answered by a lookup's copies the function never returns (74), a re-parenting patch
 * that looked for its copies by the parent key's name instead of the via (49, 13), records
 * buckets ordered by an attribute they do not hold and created without their bucket (58), reads
 * of a record's own attribute through `with` (149), moves the embedded endpoint refuses judged as
 * failures (72), newest-N sets and embeds nothing refills (87, 146: evaluate errors), copies
 * across many-to-many offered one at a time (6), unserved reads traded for capacity errors (21),
 * counter probes without many-to-many links (61); mutations: copies addressed by what their
 * source's select leaves out (19), complete records keyed by a sparse attribute (arbitrary 39).
 * After it: 0 silent, 0 designs failing verify.
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
      const rss = (process.memoryUsage().rss / 2 ** 20).toFixed(0);
      return {
        passed: outcome.passed,
        ran: true,
        report: `${outcome.report}\nresident memory at the end: ${rss} MiB`,
      };
    } finally {
      await endpoint.close();
    }
  },
};
