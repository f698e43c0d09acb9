/**
 * Reads the workload and model files a command is given, and reports every issue of both
 * (warnings allowed); stops with exit status 1 when either has errors.
 */
import { hasErrors, type Issue } from "../common/issues.js";
import { loadModel } from "../model/load-model.js";
import type { Model } from "../model/types.js";
import { loadWorkload } from "../workload/load-workload.js";
import type { Workload } from "../workload/types.js";
import { readInputFile } from "./io.js";

export type Inputs<T> =
  | { readonly ok: true; readonly value: T; readonly issues: readonly Issue[] }
  | { readonly ok: false; readonly issues: readonly Issue[] };

/** Loads a workload file (or `-` for standard input). */
export async function readWorkloadFile(path: string): Promise<Inputs<Workload>> {
  const result = loadWorkload(await readInputFile(path), { file: path });
  return result.ok && !hasErrors(result.issues) ? result : { ok: false, issues: result.issues };
}

/** Loads a workload file and a model file checked against it. */
export async function readWorkloadAndModel(
  workloadPath: string,
  modelPath: string,
): Promise<Inputs<{ workload: Workload; model: Model }>> {
  const workload = await readWorkloadFile(workloadPath);
  if (!workload.ok) return workload;
  const model = loadModel(await readInputFile(modelPath), { file: modelPath, workload: workload.value });
  const issues = [...workload.issues, ...model.issues];
  if (!model.ok || hasErrors(model.issues)) return { ok: false, issues };
  return { ok: true, value: { workload: workload.value, model: model.value }, issues };
}
