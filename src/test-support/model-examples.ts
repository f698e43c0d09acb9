/**
 * Test support: where the tests find the examples, resolved from the repository root (never the
 * working directory, never a folder beside the repository).
 * - `examples/<name>/workload.yaml`: the example workloads the package ships;
 * - `test/fixtures/examples/<name>/`: the expert model of each example (`expert-model.yaml`, with
 *   the expert's notes in `README.md`) and the case study's `model-v1.yaml` ... `model-v3.yaml`;
 * - `bench/data/`: the published RU measurements and the case study's measured charges.
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { formatIssue } from "../common/issues.js";
import { loadWorkload } from "../workload/load-workload.js";
import type { Workload } from "../workload/types.js";

/** The repository root, with a trailing slash (this file is src/test-support/model-examples.ts). */
export const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The shipped example workloads: `examples/<name>/workload.yaml`. */
export const EXAMPLES_DIR = `${REPO_ROOT}examples/`;

/** The examples' expert and case-study models: `test/fixtures/examples/<name>/<model>.yaml`. */
export const EXAMPLE_MODELS_DIR = `${REPO_ROOT}test/fixtures/examples/`;

/** The bench's measurements: `bench/data/ru-measurements.jsonl`, `bench/data/blogging-case-study.json`. */
export const BENCH_DATA_DIR = `${REPO_ROOT}bench/data/`;

/** Every example folder under examples/ that holds a workload.yaml. */
export const EXAMPLE_WORKLOAD_NAMES: readonly string[] = readdirSync(EXAMPLES_DIR).filter((name) =>
  existsSync(`${EXAMPLES_DIR}${name}/workload.yaml`),
);

/** The example workloads that have an expert model. */
export const EXAMPLE_NAMES = [
  "accounts-sessions",
  "blogging",
  "ecommerce",
  "iot-telemetry",
  "multitenant-saas",
  "social-reactions",
] as const;

/**
 * Absolute path of an example file given as `<name>/<file>`: `<name>/workload.yaml` is the
 * shipped workload under examples/, any other file (a model) is under test/fixtures/examples/.
 */
export function examplePath(relativePath: string): string {
  const dir = relativePath.endsWith("/workload.yaml") ? EXAMPLES_DIR : EXAMPLE_MODELS_DIR;
  return `${dir}${relativePath}`;
}

/** Text of an example file given as `<name>/<file>` (see {@link examplePath}). */
export function readExample(relativePath: string): string {
  return readFileSync(examplePath(relativePath), "utf8");
}

/** Loads an example workload (`blogging`) with the workload loader; throws if it has errors. */
export function readExampleWorkload(name: string): Workload {
  const file = `${name}/workload.yaml`;
  const result = loadWorkload(readExample(file), { file });
  if (!result.ok) throw new Error(`${file}: ${result.issues.map(formatIssue).join("\n")}`);
  return result.value;
}

/** Every model of the examples: [example, path given as `<name>/<file>`]. */
export const EXAMPLE_MODELS: readonly (readonly [string, string])[] = [
  ...EXAMPLE_NAMES.map((name) => [name, `${name}/expert-model.yaml`] as const),
  ["blogging", "blogging/model-v1.yaml"],
  ["blogging", "blogging/model-v2.yaml"],
  ["blogging", "blogging/model-v3.yaml"],
];

/**
 * The reproducers of the write-path audit: `test/fixtures/writes/<name>/workload.yaml` and the
 * `model.yaml` the design wrote for it (a partition key patched in place, a copy keyed by a
 * changing attribute, a many-to-many copy, select and truncate, binning, ...).
 */
export const WRITE_FIXTURES_DIR = `${REPO_ROOT}test/fixtures/writes/`;

/** A reproducer's workload and model text. */
export function readWriteFixture(name: string): { readonly workload: string; readonly model: string } {
  return {
    workload: readFileSync(`${WRITE_FIXTURES_DIR}${name}/workload.yaml`, "utf8"),
    model: readFileSync(`${WRITE_FIXTURES_DIR}${name}/model.yaml`, "utf8"),
  };
}
