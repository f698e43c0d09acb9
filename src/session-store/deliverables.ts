/**
 * The session's final step: the design and `cosmosdb_data_model.md` with its artifacts, written
 * into the session folder only when the user confirmed every access pattern and every checklist
 * is complete (the expert prompt's rule). Before that it is refused with the reasons. The
 * designed model is verified on the embedded Cosmos DB endpoint before it is written: the
 * document shows each pattern's result, a failure as a failure.
 */
import { writeOutputs } from "../files/write-outputs.js";
import type { Prices } from "../cosmos/prices.js";
import { renderDesignDeliverables } from "../deliverables/render-deliverables.js";
import { designModel, type DesignResult } from "../design/design-model.js";
import { checkReadiness, requirementsState } from "../session/checklist.js";
import type { SessionState } from "../session/state.js";
import type { Model } from "../model/types.js";
import type { VerificationReport } from "../verify/run-verification.js";
import type { Workload } from "../workload/types.js";
import { REQUIREMENTS_FILE, WORKLOAD_FILE } from "./session-files.js";

export type DataModelOutcome =
  | { readonly ok: false; readonly reasons: readonly string[] }
  | {
      readonly ok: true;
      /** Files written (relative to the session folder); empty for a dry run. */
      readonly files: readonly string[];
      /** Files that already had this content. */
      readonly unchanged: readonly string[];
      /** Key figures of the design, one line each. */
      readonly highlights: readonly string[];
      readonly design?: DesignResult;
      /** The verify run of the written model, or why none ran (absent with `verify: false`). */
      readonly verification?: ModelVerification;
    };

/** The verify run of a designed model, or why it could not run. */
export type ModelVerification =
  | { readonly kind: "ran"; readonly report: VerificationReport }
  | { readonly kind: "notRun"; readonly reason: string };

export interface DataModelOptions {
  /** Only check whether the data model may be written. */
  readonly dryRun?: boolean;
  /** Overwrite deliverables edited by hand since they were written. */
  readonly force?: boolean;
  readonly prices?: Prices;
  /** Write only inside `dir` after following links (the MCP server's rule). */
  readonly confine?: boolean;
  /** Progress of the design (and of the verification, when it runs): done of total steps. */
  readonly onProgress?: (done: number, total: number | undefined, step: string) => void;
  /** Verify the model on the embedded endpoint before writing it. Default true. */
  readonly verify?: boolean;
}

/**
 * Designs the model and writes `cosmosdb_data_model.md`, `model.yaml`, `evaluation.json` and the
 * artifacts into `dir`, or says why it cannot yet. A deliverable edited by hand is not
 * overwritten unless `force` (`HandEditedError` of files/write-outputs.ts, code `cli.handEdited`).
 */
export async function writeDataModel(
  dir: string,
  state: SessionState,
  options: DataModelOptions = {},
): Promise<DataModelOutcome> {
  const readiness = checkReadiness(state, WORKLOAD_FILE);
  if (!readiness.ready || readiness.workload === undefined) return { ok: false, reasons: readiness.reasons };
  if (options.dryRun === true) return { ok: true, files: [], unchanged: [], highlights: [] };
  const workload = readiness.workload;
  let designSteps = 0;
  const design = designModel(workload, {
    ...(options.prices === undefined ? {} : { prices: options.prices }),
    onProgress: (done, total, step) => {
      designSteps = total;
      options.onProgress?.(done, total, step);
    },
  });
  const verification =
    options.verify === false
      ? undefined
      : await verifyOnEmbeddedEndpoint(workload, design.model, (done, step) =>
          options.onProgress?.(designSteps + done, undefined, step),
        );
  const rendered = await renderDesignDeliverables(workload, design, {
    requirementsState: requirementsState(state),
    ...(options.prices === undefined ? {} : { prices: options.prices }),
    ...(verification?.kind === "ran" ? { verification: verification.report } : {}),
    ...(verification?.kind === "notRun" ? { verificationNotRun: verification.reason } : {}),
  });
  // The session keeps cosmosdb_requirements.md itself (with the interview's status).
  const files = rendered.filter((file) => file.path !== REQUIREMENTS_FILE);
  const report = await writeOutputs(dir, files, options.force === true, {
    confine: options.confine === true,
  });
  return {
    ok: true,
    files: report.written,
    unchanged: report.unchanged,
    highlights: [
      ...highlights(workload, design),
      ...(verification === undefined ? [] : [verificationLine(verification)]),
    ],
    design,
    ...(verification === undefined ? {} : { verification }),
  };
}

/**
 * Runs `verify` on the embedded endpoint (started for the run, closed after it). A run that
 * cannot start or stops with an error is reported as not run, with the reason.
 */
export async function verifyOnEmbeddedEndpoint(
  workload: Workload,
  model: Model,
  onProgress?: (done: number, step: string) => void,
): Promise<ModelVerification> {
  // The adapter loads @azure/cosmos and the embedded server: only when a model is verified.
  const verify = await import("../verify/index.js");
  let steps = 0;
  let endpoint;
  try {
    endpoint = await verify.startEmbeddedEndpoint();
  } catch (error) {
    return { kind: "notRun", reason: `the embedded Cosmos DB endpoint did not start: ${messageOf(error)}` };
  }
  try {
    const report = await verify.verifyOnEndpoint(endpoint, workload, model, {
      onProgress: (progress) => {
        steps += 1;
        onProgress?.(
          steps,
          progress.kind === "deploy"
            ? "verify: deploying the model"
            : `verify: ${progress.kind} ${progress.done}/${progress.total}`,
        );
      },
    });
    return { kind: "ran", report };
  } catch (error) {
    return { kind: "notRun", reason: `verify stopped: ${messageOf(error)}` };
  } finally {
    await endpoint.close().catch(() => undefined);
  }
}

function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0] ?? "";
}

/** The verification in one line: passed of total, and the failures by id. */
function verificationLine(verification: ModelVerification): string {
  if (verification.kind === "notRun") return `NOT VERIFIED: ${verification.reason}.`;
  const { passed, failed, notCheckable } = verification.report.counts;
  const total = verification.report.patterns.length;
  const failures = verification.report.patterns.filter((p) => p.status === "failed").map((p) => p.patternId);
  const probes = verification.report.probeCounts;
  const probeText = `; probes of the generated code: ${probes.passed} passed, ${probes.failed} failed`;
  return failed === 0 && probes.failed === 0
    ? `Verified on the embedded Cosmos DB endpoint: ${passed} of ${total} access patterns passed${notCheckable === 0 ? "" : ` (${notCheckable} not checkable there)`}${probeText}.`
    : `VERIFY FAILED on the embedded Cosmos DB endpoint: ${failed} of ${total} access patterns failed${failures.length === 0 ? "" : ` (${failures.join(", ")})`}; ${passed} passed${probeText}. See the verification section of cosmosdb_data_model.md.`;
}

function highlights(workload: Workload, design: DesignResult): readonly string[] {
  const usd = (value: number): string => `$${value.toLocaleString("en-US", { maximumFractionDigits: 0 })}`;
  const rus = (value: number): string => Math.round(value).toLocaleString("en-US");
  const totals = design.evaluation.totals;
  return [
    `${workload.name}: ${design.model.containers.length} container(s), ${rus(totals.rus.peak)} RU/s at peak (${rus(totals.rus.avg)} on average), ${usd(totals.monthlyCostUSD)} per month.`,
    ...design.evaluation.containers.map(
      (container) =>
        `  ${container.name}: ${container.physicalPartitions} physical partition(s), ${rus(container.rus.peak)} RU/s at peak, ${usd(container.monthlyCostUSD)} per month`,
    ),
    `Baseline (one container per entity): ${rus(design.baseline.rusPeak)} RU/s at peak, ${usd(design.baseline.monthlyCostUSD)} per month.`,
  ];
}
