/**
 * Reads the workload and model files a command is given, and reports every issue of both
 * (warnings allowed); stops with exit status 1 when either has errors. The texts read are kept
 * (`sources`) so that the evaluation's findings can be located in them (`cost/locate-issues`).
 */
import { hasErrors, type Issue } from "../common/issues.js";
import type { SourceText } from "../cost/locate-issues.js";
import { loadModel } from "../model/load-model.js";
import type { Model } from "../model/types.js";
import { loadWorkload } from "../workload/load-workload.js";
import type { Workload } from "../workload/types.js";
import { inputName, MODEL_INPUT, readInputFile, WORKLOAD_INPUT } from "./io.js";

/** The input files read, by role. */
export interface InputSources {
  readonly workload: SourceText;
  readonly model?: SourceText;
}

export type Inputs<T> =
  | { readonly ok: true; readonly value: T; readonly issues: readonly Issue[] }
  | { readonly ok: false; readonly issues: readonly Issue[] };

/** Inputs read from files, with the texts read. */
export type InputFiles<T> =
  | (Inputs<T> & { readonly ok: true; readonly sources: InputSources })
  | { readonly ok: false; readonly issues: readonly Issue[] };

/** Loads a workload file (or `-` for standard input). */
export async function readWorkloadFile(path: string): Promise<InputFiles<Workload>> {
  const text = await readInputFile(path, WORKLOAD_INPUT);
  const file = inputName(path);
  const result = loadWorkload(text, { file });
  return result.ok && !hasErrors(result.issues)
    ? { ...result, sources: { workload: { file, text } } }
    : { ok: false, issues: result.issues };
}

/** Loads a workload file and a model file checked against it. */
export async function readWorkloadAndModel(
  workloadPath: string,
  modelPath: string,
): Promise<InputFiles<{ workload: Workload; model: Model }>> {
  const workload = await readWorkloadFile(workloadPath);
  if (!workload.ok) return workload;
  const text = await readInputFile(modelPath, MODEL_INPUT);
  const model = loadModel(text, { file: inputName(modelPath), workload: workload.value });
  const issues = [...workload.issues, ...model.issues];
  if (!model.ok || hasErrors(model.issues)) return { ok: false, issues };
  return {
    ok: true,
    value: { workload: workload.value, model: model.value },
    issues,
    sources: { ...workload.sources, model: { file: inputName(modelPath), text } },
  };
}
