/**
 * Test support for the generated data-access modules: an example planned the way `evaluate`
 * plans it, and a generated module written under `test-output/` and imported.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { evaluateModel } from "../cost/evaluate.js";
import { loadModel } from "../model/load-model.js";
import type { Model } from "../model/types.js";
import type { Plan } from "../planner/types.js";
import type { DataAccessFile } from "../render/code/render-data-access.js";
import { writeDataAccessModule } from "../verify/load-data-access.js";
import type { Workload } from "../workload/types.js";
import { formatIssue } from "../common/issues.js";
import { loadWorkload } from "../workload/load-workload.js";
import { readExample, readExampleWorkload, readWriteFixture } from "./model-examples.js";

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

/** A write-path reproducer (`test/fixtures/writes/<name>/`), planned the way evaluate plans it. */
export function loadWriteFixture(name: string): LoadedExample {
  const text = readWriteFixture(name);
  const workload = loadWorkload(text.workload, { file: `${name}/workload.yaml` });
  if (!workload.ok) throw new Error(workload.issues.map(formatIssue).join("\n"));
  const loaded = loadModel(text.model, { file: `${name}/model.yaml`, workload: workload.value });
  if (!loaded.ok) throw new Error(loaded.issues.map(formatIssue).join("\n"));
  const plans = evaluateModel(workload.value, loaded.value).patterns.map((pattern) => pattern.plan);
  return { workload: workload.value, model: loaded.value, plans };
}

export function writeSource(dir: string, name: string, text: string, extension = "ts"): string {
  const folder = join(OUTPUT_DIR, dir);
  mkdirSync(folder, { recursive: true });
  const file = join(folder, `${name}.${extension}`);
  writeFileSync(file, text);
  return file;
}

/** Writes generated files (the module and its runtime) as TypeScript under test-output/DIR/NAME/. */
export function writeFiles(dir: string, name: string, files: readonly DataAccessFile[]): string {
  const folder = join(OUTPUT_DIR, dir, name);
  rmSync(folder, { recursive: true, force: true });
  for (const file of files) {
    const target = join(folder, file.path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, file.content);
  }
  return folder;
}

/** Transpiles the generated files to an importable folder under test-output/ and imports the module. */
export async function importGenerated(
  name: string,
  files: readonly DataAccessFile[],
): Promise<Record<string, unknown>> {
  const folder = join(OUTPUT_DIR, "runtime", name);
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  return (await import(await writeDataAccessModule(folder, files, ts))) as Record<string, unknown>;
}
