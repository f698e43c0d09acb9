/**
 * Test support for the generated data-access modules: an example planned the way `evaluate`
 * plans it, and a generated module written under `test-output/` and imported.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import ts from "typescript";
import { evaluateModel } from "../cost/evaluate.js";
import { loadModel } from "../model/load-model.js";
import type { Model } from "../model/types.js";
import type { Plan } from "../planner/types.js";
import type { Workload } from "../workload/types.js";
import { readExample, readExampleWorkload } from "./model-examples.js";

const OUTPUT_DIR = fileURLToPath(new URL("../../test-output/render-code/", import.meta.url));

export interface LoadedExample {
  readonly workload: Workload;
  readonly model: Model;
  readonly plans: readonly Plan[];
}

/** An example with one of its models, planned at the partition counts evaluate solves for. */
export function loadExampleModel(
  name: string,
  modelFile = "expert-model.yaml",
  workload = readExampleWorkload(name),
): LoadedExample {
  const loaded = loadModel(readExample(`${name}/${modelFile}`), { file: modelFile, workload });
  if (!loaded.ok) throw new Error(`${name}/${modelFile}: ${JSON.stringify(loaded.issues)}`);
  const plans = evaluateModel(workload, loaded.value).patterns.map((pattern) => pattern.plan);
  return { workload, model: loaded.value, plans };
}

export function writeSource(dir: string, name: string, text: string, extension = "ts"): string {
  const folder = join(OUTPUT_DIR, dir);
  mkdirSync(folder, { recursive: true });
  const file = join(folder, `${name}.${extension}`);
  writeFileSync(file, text);
  return file;
}

/** Transpiles a module to an importable .mjs under test-output/ and imports it. */
export async function importGenerated(name: string, source: string): Promise<Record<string, unknown>> {
  const output = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  const file = writeSource("runtime", name, output, "mjs");
  return (await import(pathToFileURL(file).href)) as Record<string, unknown>;
}
