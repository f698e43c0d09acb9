/**
 * The property `design` must satisfy on any valid workload, shared by its test
 * (src/design/design-robustness.test.ts, a sample small enough for `npm test`) and its bench
 * (src/bench/design-property.ts, many more workloads in `npm run bench`): it never throws; the
 * model it returns is written as model.yaml, loads back against the workload and evaluates to the
 * same figures; its decisions never call a model that breaks a hard limit "the cheapest that
 * respects every limit", and every error that remains is named in the "unmet-limits" decision.
 */
import { formatIssue, formatPath } from "../common/issues.js";
import { evaluateModel } from "../cost/evaluate.js";
import { designModel, type DesignResult } from "../design/design-model.js";
import { loadModel } from "../model/load-model.js";
import { serializeModel } from "../model/serialize-model.js";
import { toWorkload, workloadDocumentArbitrary, type WorkloadDocument } from "./workload-arbitrary.js";

/** The workloads the property is checked on: random valid workloads of one to five entities. */
export const designPropertyWorkloads = workloadDocumentArbitrary({ maxEntities: 5 });

/** What a design must satisfy, whatever the workload; returns the failures found. */
export function designProblems(
  result: DesignResult,
  reload: (text: string) => ReturnType<typeof loadModel>,
): string[] {
  const problems: string[] = [];
  const loaded = reload(serializeModel(result.model));
  if (!loaded.ok) {
    problems.push(`model.yaml does not load back: ${loaded.issues.map(formatIssue).join("; ")}`);
  }
  const errors = result.evaluation.issues.filter((issue) => issue.severity === "error");
  for (const decision of result.decisions) {
    const chosen = decision.alternatives.find((a) => a.name === decision.chosen);
    if (decision.why.includes("respects every limit") && chosen !== undefined && chosen.errors > 0) {
      problems.push(
        `decision ${decision.id} says "respects every limit" of a choice with ${chosen.errors} error(s)`,
      );
    }
  }
  const unmet = result.decisions.find((d) => d.id === "unmet-limits");
  if (errors.length > 0 && unmet === undefined)
    problems.push(`${errors.length} error(s) remain and no decision says so`);
  for (const error of errors) {
    if (unmet !== undefined && !unmet.why.includes(formatPath(error.path)))
      problems.push(`the unmet-limits decision does not name ${error.code} at ${formatPath(error.path)}`);
  }
  if (errors.length === 0 && unmet !== undefined) problems.push("an unmet-limits decision without errors");
  if (errors.length > result.baseline.errors)
    problems.push(`${errors.length} error(s), more than the baseline's ${result.baseline.errors}`);
  return problems;
}

/**
 * Designs the workload of `document` and returns every way the design fails the property (none:
 * an empty list); a design that throws is one failure.
 */
export function designPropertyFailures(document: WorkloadDocument): string[] {
  const workload = toWorkload(document);
  let result: DesignResult;
  try {
    result = designModel(workload);
  } catch (error) {
    return [`design threw ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`];
  }
  const reload = (text: string) => loadModel(text, { file: "model.yaml", workload });
  const problems = designProblems(result, reload);
  const loaded = reload(serializeModel(result.model));
  if (loaded.ok) {
    const again = evaluateModel(workload, loaded.value);
    if (
      Math.abs(again.totals.monthlyCostUSD - result.evaluation.totals.monthlyCostUSD) >
      1e-6 * (1 + again.totals.monthlyCostUSD)
    )
      problems.push(
        `the reloaded model costs ${again.totals.monthlyCostUSD}, the design said ${result.evaluation.totals.monthlyCostUSD}`,
      );
  }
  return problems;
}
