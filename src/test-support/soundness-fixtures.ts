/**
 * The workloads and models of issue 24's soundness regressions (test/fixtures/soundness/<folder>/):
 * a workload.yaml and the models built on it, loaded or thrown with every issue.
 */
import { readFileSync } from "node:fs";
import { formatIssue } from "../common/issues.js";
import { evaluateModel } from "../cost/evaluate.js";
import { loadModel } from "../model/load-model.js";
import type { Model } from "../model/types.js";
import { loadWorkload } from "../workload/load-workload.js";
import type { Workload } from "../workload/types.js";

const FIXTURES = new URL("../../test/fixtures/soundness/", import.meta.url);

/** The workload of `folder` and a loader of its models. */
export function soundnessFixture(folder: string): { workload: Workload; model: (file: string) => Model } {
  const read = (file: string): string => readFileSync(new URL(`${folder}/${file}`, FIXTURES), "utf8");
  const loaded = loadWorkload(read("workload.yaml"), { file: "workload.yaml" });
  if (!loaded.ok) throw new Error(loaded.issues.map(formatIssue).join("\n"));
  const workload = loaded.value;
  return {
    workload,
    model(file) {
      const result = loadModel(read(file), { file, workload });
      if (!result.ok) throw new Error(result.issues.map(formatIssue).join("\n"));
      return result.value;
    },
  };
}

/** The codes of the errors `evaluate` finds in `model`. */
export function evaluationErrorCodes(workload: Workload, model: Model): string[] {
  return evaluateModel(workload, model)
    .issues.filter((issue) => issue.severity === "error")
    .map((issue) => issue.code);
}
