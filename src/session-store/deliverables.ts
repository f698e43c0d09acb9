/**
 * The session's final step: the design and `cosmosdb_data_model.md` with its artifacts, written
 * into the session folder only when the user confirmed every access pattern and every checklist
 * is complete (the expert prompt's rule). Before that it is refused with the reasons.
 */
import { writeOutputs } from "../files/write-outputs.js";
import type { Prices } from "../cosmos/prices.js";
import { renderDesignDeliverables } from "../deliverables/render-deliverables.js";
import { designModel, type DesignResult } from "../design/design-model.js";
import { checkReadiness, requirementsState } from "../session/checklist.js";
import type { SessionState } from "../session/state.js";
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
    };

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
  const design = designModel(workload, {
    ...(options.prices === undefined ? {} : { prices: options.prices }),
    ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
  });
  const rendered = await renderDesignDeliverables(workload, design, {
    requirementsState: requirementsState(state),
    ...(options.prices === undefined ? {} : { prices: options.prices }),
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
    highlights: highlights(workload, design),
    design,
  };
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
