/**
 * "Every sampled design passes verify": a random valid workload is designed and its model run on
 * an endpoint (`verifyOnEndpoint`: synthetic data loaded, every write pattern run through the
 * generated data-access code with its maintenance, every read compared with the oracle's answer).
 * Shared by its test (test/verify/random-designs.test.ts, a few fixed seeds in `npm test`) and
 * the design-property bench (src/bench/design-property.ts, a larger sample).
 */
import { formatIssue } from "../common/issues.js";
import { designModel } from "../design/design-model.js";
import { loadModel } from "../model/load-model.js";
import { serializeModel } from "../model/serialize-model.js";
import type { CosmosEndpoint } from "../verify/endpoint.js";
import type { Workload } from "../workload/types.js";
import { verifyOnEndpoint, type RunOptions } from "../verify/run-verification.js";
import type { VerificationOptions } from "../verify/verification-plan.js";
import { toWorkload, workloadDocumentArbitrary, type WorkloadDocument } from "./workload-arbitrary.js";

/**
 * The workloads verified: random valid workloads of one to three entities (the embedded endpoint
 * scans a container per query, so small models keep a run to a few seconds).
 */
export const verifiedWorkloads = workloadDocumentArbitrary({ maxEntities: 3 });

/**
 * The same workloads as they were drawn before composite keys existed (the composite-key draw
 * comes last, so every other draw is the same): the regression workloads named by (seed, index)
 * in test/verify/random-designs.test.ts are samples of this one.
 */
export const regressionWorkloads = workloadDocumentArbitrary({ maxEntities: 3, compositeKeys: false });

/** Small data: a few hundred records per entity, two requests per read pattern. */
export const SAMPLE_VERIFY_OPTIONS: VerificationOptions = {
  maxItemsPerEntity: 200,
  maxItemsPerContainer: 1000,
  requestsPerPattern: 2,
};

export interface DesignVerification {
  /** What failed: the design, the written model, the load, or a pattern (with its detail). */
  readonly failures: readonly string[];
  /** Patterns the endpoint could not check, with the reason it gives. */
  readonly notCheckable: readonly string[];
  readonly patterns: number;
  /** Probes that failed (`probe patternId: detail`); the paging probes read every page size asked. */
  readonly probeFailures: readonly string[];
  /** Reads whose pages the paging probe compared (it found an item to page). */
  readonly paged: readonly string[];
}

const NO_PROBES = { probeFailures: [], paged: [] } as const;

/** Designs the workload of `document`, writes and reloads its model, and verifies it on `endpoint`. */
export async function verifyDesign(
  endpoint: CosmosEndpoint,
  document: WorkloadDocument,
  options: VerificationOptions & Pick<RunOptions, "pagingPageSizes"> = SAMPLE_VERIFY_OPTIONS,
): Promise<DesignVerification> {
  return verifyWorkloadDesign(endpoint, toWorkload(document), options);
}

/** Designs `workload`, writes and reloads its model, and verifies it on `endpoint`. */
export async function verifyWorkloadDesign(
  endpoint: CosmosEndpoint,
  workload: Workload,
  options: VerificationOptions & Pick<RunOptions, "pagingPageSizes"> = SAMPLE_VERIFY_OPTIONS,
): Promise<DesignVerification> {
  const patterns = workload.accessPatterns.length;
  let text: string;
  try {
    text = serializeModel(designModel(workload).model);
  } catch (error) {
    return { failures: [`design threw ${String(error)}`], notCheckable: [], patterns, ...NO_PROBES };
  }
  const loaded = loadModel(text, { file: "model.yaml", workload });
  if (!loaded.ok)
    return {
      failures: [`model.yaml does not load back: ${loaded.issues.map(formatIssue).join("; ")}`],
      notCheckable: [],
      patterns,
      ...NO_PROBES,
    };
  try {
    const report = await verifyOnEndpoint(endpoint, workload, loaded.value, options);
    return {
      failures: [
        ...(report.load.status === "failed" ? [`load: ${report.load.detail ?? "failed"}`] : []),
        ...report.patterns.filter((p) => p.status === "failed").map((p) => p.detail ?? p.patternId),
      ],
      notCheckable: report.patterns
        .filter((p) => p.status === "notCheckable")
        .map((p) => `${p.patternId}: ${p.detail ?? ""}`),
      patterns,
      probeFailures: report.probes
        .filter((p) => p.status === "failed")
        .map((p) => `${p.probe} ${"patternId" in p ? p.patternId : ""}: ${p.detail ?? ""}`),
      paged: report.probes.flatMap((p) =>
        p.probe === "paging" && p.status === "passed" ? [p.patternId] : [],
      ),
    };
  } catch (error) {
    return { failures: [`verify threw ${String(error)}`], notCheckable: [], patterns, ...NO_PROBES };
  }
}
