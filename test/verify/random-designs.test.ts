/**
 * Every sampled design passes verify: random valid workloads (src/test-support/
 * design-verification.ts, one to three entities) are designed, written as model.yaml, loaded back
 * and verified on the embedded endpoint (writes through the generated code with their
 * maintenance, reads compared with the oracle's answers). Five fixed seeds here; the
 * design-property bench verifies a larger sample (`npm run bench -- design-property`).
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifiedWorkloads, verifyDesign } from "../../src/test-support/design-verification.js";
import { workloadText } from "../../src/test-support/workload-arbitrary.js";
import { startEmbeddedEndpoint, type CosmosEndpoint } from "../../src/verify/endpoint.js";

const SEEDS = [11, 12, 13, 14, 15] as const;

describe("designs of random workloads pass verify on the embedded endpoint", () => {
  let endpoint: CosmosEndpoint;
  beforeAll(async () => {
    endpoint = await startEmbeddedEndpoint();
  });
  afterAll(async () => {
    await endpoint?.close();
  });

  it.each(SEEDS)(
    "the workload of seed %i",
    async (seed) => {
      const [document] = fc.sample(verifiedWorkloads, { numRuns: 1, seed });
      if (document === undefined) throw new Error(`no workload for seed ${seed}`);
      const outcome = await verifyDesign(endpoint, document);
      expect(outcome.failures, workloadText(document)).toEqual([]);
      // Most of the patterns were checked (a many-to-many `with` without a via attribute is not).
      expect(outcome.notCheckable.length).toBeLessThan(outcome.patterns);
    },
    90_000,
  );
});
