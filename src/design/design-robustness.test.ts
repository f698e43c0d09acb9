/**
 * `design` on random valid workloads (src/test-support/workload-arbitrary.ts): the property of
 * src/test-support/design-property.ts (never throws; model.yaml loads back and evaluates to the
 * same figures; no decision calls a model with errors "the cheapest that respects every limit";
 * every remaining error named in the "unmet-limits" decision). `npm test` checks a sample of
 * `DESIGN_PROPERTY_RUNS` workloads (default 50, about 15 s on the 2-core machine);
 * `npm run bench` (src/bench/design-property.ts) checks 600 more with other seeds.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { designPropertyFailures, designPropertyWorkloads } from "../test-support/design-property.js";
import { workloadText } from "../test-support/workload-arbitrary.js";

const RUNS = Number(process.env.DESIGN_PROPERTY_RUNS ?? 50);
const SEED = Number(process.env.DESIGN_PROPERTY_SEED ?? 20261123);

describe("design on random valid workloads", () => {
  it(`returns a model that loads and evaluates, and tells the truth about its limits (${RUNS} workloads)`, () => {
    fc.assert(
      fc.property(designPropertyWorkloads, (document) => {
        expect(designPropertyFailures(document), workloadText(document)).toEqual([]);
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
  }, 600_000);
});
