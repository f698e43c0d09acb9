/**
 * Test support for the planner and evaluation tests: loads the example models and the model
 * fixtures of test/fixtures/evaluate against an example workload.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { formatIssue } from "../common/issues.js";
import { loadModel } from "../model/load-model.js";
import type { Model } from "../model/types.js";
import { loadWorkload } from "../workload/load-workload.js";
import type { Workload } from "../workload/types.js";
import { readExample, readExampleWorkload } from "./model-examples.js";

/** test/fixtures/evaluate. */
export const EVALUATE_FIXTURES_DIR = fileURLToPath(new URL("../../test/fixtures/evaluate/", import.meta.url));

/** Parses workload text; throws if it has errors. */
export function parseWorkload(text: string, file = "workload.yaml"): Workload {
  const result = loadWorkload(text, { file });
  if (!result.ok) throw new Error(`${file}: ${result.issues.map(formatIssue).join("\n")}`);
  return result.value;
}

/** Parses model text against a workload; throws if it has errors. */
export function parseModel(text: string, workload: Workload, file = "model.yaml"): Model {
  const result = loadModel(text, { file, workload });
  if (!result.ok) throw new Error(`${file}: ${result.issues.map(formatIssue).join("\n")}`);
  return result.value;
}

/** An example's workload and one of its models (`expert-model.yaml`, `model-v3.yaml`). */
export function loadExample(
  name: string,
  modelFile = "expert-model.yaml",
): { workload: Workload; model: Model } {
  const workload = readExampleWorkload(name);
  return { workload, model: parseModel(readExample(`${name}/${modelFile}`), workload, modelFile) };
}

/** Text of a fixture under test/fixtures/evaluate. */
export function readEvaluateFixture(file: string): string {
  return readFileSync(`${EVALUATE_FIXTURES_DIR}${file}`, "utf8");
}

/** An example's workload with a model fixture of test/fixtures/evaluate. */
export function loadFixtureModel(example: string, file: string): { workload: Workload; model: Model } {
  const workload = readExampleWorkload(example);
  return { workload, model: parseModel(readEvaluateFixture(file), workload, file) };
}

/** test/fixtures/food-delivery: the audit's food-delivery workload and the model designed for it. */
export const FOOD_DELIVERY_DIR = fileURLToPath(
  new URL("../../test/fixtures/food-delivery/", import.meta.url),
);

/** The food-delivery fixture's workload and model (test/fixtures/food-delivery/README.md). */
export function loadFoodDelivery(): { workload: Workload; model: Model } {
  const loaded = loadWorkload(readFileSync(`${FOOD_DELIVERY_DIR}workload.yaml`, "utf8"), {
    file: "workload.yaml",
  });
  if (!loaded.ok) throw new Error(`workload.yaml: ${loaded.issues.map(formatIssue).join("\n")}`);
  const workload = loaded.value;
  return { workload, model: parseModel(readFileSync(`${FOOD_DELIVERY_DIR}model.yaml`, "utf8"), workload) };
}
