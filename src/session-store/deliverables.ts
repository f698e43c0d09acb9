/**
 * The session's final step: the design and `cosmosdb_data_model.md` with its artifacts, written
 * into the session folder only when the user confirmed every access pattern and every checklist
 * is complete (the expert prompt's rule). Before that it is refused with the reasons.
 */
import { checkReadiness } from "../session/checklist.js";
import type { SessionState } from "../session/state.js";
import { WORKLOAD_FILE } from "./session-files.js";

export type DataModelOutcome =
  | { readonly ok: false; readonly reasons: readonly string[] }
  | {
      readonly ok: true;
      /** Files written (relative to the session folder); empty for a dry run. */
      readonly files: readonly string[];
      /** Key figures of the design, one line each. */
      readonly highlights: readonly string[];
    };

/**
 * Designs the model and writes the deliverables, or says why it cannot yet.
 * `dryRun` only checks whether they may be written.
 */
export async function writeDataModel(
  dir: string,
  state: SessionState,
  options: { dryRun?: boolean } = {},
): Promise<DataModelOutcome> {
  const readiness = checkReadiness(state, WORKLOAD_FILE);
  if (!readiness.ready || readiness.workload === undefined) return { ok: false, reasons: readiness.reasons };
  if (options.dryRun === true) return { ok: true, files: [], highlights: [] };
  void dir;
  return { ok: false, reasons: ["the design engine (designModel) is not part of this build yet"] };
}
