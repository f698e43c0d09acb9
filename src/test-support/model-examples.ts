/**
 * Test support for the model tests: reads the shared example workloads and models.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { formatIssue } from "../common/issues.js";
import { loadWorkload } from "../workload/load-workload.js";
import type { Workload } from "../workload/types.js";

/** The shared examples directory. */
export const EXAMPLES_DIR = fileURLToPath(new URL("../../../shared/examples/", import.meta.url));

/** The example workloads that have an expert model. */
export const EXAMPLE_NAMES = [
  "accounts-sessions",
  "blogging",
  "ecommerce",
  "iot-telemetry",
  "multitenant-saas",
  "social-reactions",
] as const;

/** Text of a file under the shared examples directory. */
export function readExample(relativePath: string): string {
  return readFileSync(`${EXAMPLES_DIR}${relativePath}`, "utf8");
}

/** Loads an example workload (`blogging`) with the workload loader; throws if it has errors. */
export function readExampleWorkload(name: string): Workload {
  const file = `${name}/workload.yaml`;
  const result = loadWorkload(readExample(file), { file });
  if (!result.ok) throw new Error(`${file}: ${result.issues.map(formatIssue).join("\n")}`);
  return result.value;
}

/** Every shared model file: [label, example, path under the examples directory]. */
export const SHARED_MODELS: readonly (readonly [string, string])[] = [
  ...EXAMPLE_NAMES.map((name) => [name, `${name}/expert-model.yaml`] as const),
  ["blogging", "blogging/model-v1.yaml"],
  ["blogging", "blogging/model-v2.yaml"],
  ["blogging", "blogging/model-v3.yaml"],
];
