/**
 * The property `design` must satisfy on any valid workload, shared by its test
 * (src/design/design-robustness.test.ts, a sample small enough for `npm test`) and its bench
 * (src/bench/design-property.ts, many more workloads in `npm run bench`): it never throws; the
 * model it returns is written as model.yaml, loads back against the workload and evaluates to the
 * same figures; its decisions never call a model that breaks a hard limit "the cheapest that
 * respects every limit", and every error that remains is named in the "unmet-limits" decision;
 * no decision keeps a choice with more hard-limit errors than an alternative it priced, nor one
 * dearer than an alternative with as many errors beyond the premiums the search declares (fewer
 * frequent fan-outs, headroom, no support ticket, a rule's preference, a tie); every pair of
 * atomic writes the evaluation finds split (`evaluate.notAtomic`) has a decision saying why; no
 * bounded set it keeps is too small for a read in its order (`evaluate.boundedSetTooSmall`).
 */
import { briefIssue } from "../common/brief-issue.js";
import { formatIssue, formatPath } from "../common/issues.js";
import { evaluateModel } from "../cost/evaluate.js";
import { designModel, type DesignResult } from "../design/design-model.js";
import {
  FAN_OUT_AVOIDANCE_PREMIUM,
  HEADROOM_PREMIUM,
  OVER_MAXIMUM_AVOIDANCE_PREMIUM,
  PREFERENCE_PREMIUM,
  TIE_SHARE,
} from "../design/search.js";
import { loadModel } from "../model/load-model.js";
import { parseTemplate, templateAttributes } from "../model/templates.js";
import { createPlanningContext } from "../planner/context.js";
import { deriveIndexingPolicy } from "../planner/indexing.js";
import type { Model } from "../model/types.js";
import type { Workload } from "../workload/types.js";
import { serializeModel } from "../model/serialize-model.js";
import { toWorkload, workloadDocumentArbitrary, type WorkloadDocument } from "./workload-arbitrary.js";

/** The workloads the property is checked on: random valid workloads of one to five entities. */
export const designPropertyWorkloads = workloadDocumentArbitrary({ maxEntities: 5 });

/**
 * The most a choice may cost over an alternative with as many hard-limit errors: the largest
 * premium the search grants for something the alternative lacks (`isBetter` in search.ts decides
 * on the first criterion that differs, so one premium applies at a time).
 */
const LARGEST_PREMIUM = Math.max(
  FAN_OUT_AVOIDANCE_PREMIUM,
  OVER_MAXIMUM_AVOIDANCE_PREMIUM,
  HEADROOM_PREMIUM,
  PREFERENCE_PREMIUM,
  1 + TIE_SHARE,
);

/** Each decision's choice against the alternatives it priced and avoided. */
function choiceProblems(result: DesignResult): string[] {
  const problems: string[] = [];
  for (const decision of result.decisions) {
    // The horizon decision lists the model at larger scales, not models to choose from.
    if (decision.subject.kind === "horizon") continue;
    const chosen = decision.alternatives.find((a) => a.name === decision.chosen);
    if (chosen === undefined) {
      if (decision.alternatives.length > 0)
        problems.push(
          `decision ${decision.id} chose "${decision.chosen}", none of the alternatives it lists`,
        );
      continue;
    }
    for (const avoided of decision.alternatives) {
      if (avoided === chosen) continue;
      // Errors of a model that does not work weigh first (search.ts isBetter), then all of them.
      if (avoided.unsound < chosen.unsound)
        problems.push(
          `decision ${decision.id} keeps ${chosen.unsound} error(s) of a model that does not work where "${avoided.name}" has ${avoided.unsound}`,
        );
      else if (avoided.unsound === chosen.unsound && avoided.errors < chosen.errors)
        problems.push(
          `decision ${decision.id} keeps ${chosen.errors} hard-limit error(s) where "${avoided.name}" has ${avoided.errors}`,
        );
      else if (
        avoided.unsound === chosen.unsound &&
        avoided.errors === chosen.errors &&
        chosen.monthlyCostUSD > avoided.monthlyCostUSD * LARGEST_PREMIUM
      )
        problems.push(
          `decision ${decision.id} chose $${chosen.monthlyCostUSD.toFixed(0)}/month over "${avoided.name}" at $${avoided.monthlyCostUSD.toFixed(0)} with as many errors`,
        );
    }
  }
  return problems;
}

/** Every split pair of atomic writes is one the design said it could not keep together. */
function atomicityProblems(result: DesignResult): string[] {
  const problems: string[] = [];
  for (const issue of result.evaluation.issues) {
    if (issue.code !== "evaluate.notAtomic") continue;
    const decision = result.decisions.find(
      (d) =>
        d.subject.kind === "atomicity" &&
        [d.subject.pattern, d.subject.partner].sort().join() === [issue.pattern, issue.partner].sort().join(),
    );
    if (decision?.subject.kind !== "atomicity" || decision.subject.together)
      problems.push(
        `${issue.pattern} and ${issue.partner} are split (${issue.reason}) and no decision says so`,
      );
  }
  return problems;
}

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
    if (unmet !== undefined && !unmet.why.includes(briefIssue(error)))
      problems.push(`the unmet-limits decision does not name ${error.code} at ${formatPath(error.path)}`);
  }
  if (errors.length === 0 && unmet !== undefined) problems.push("an unmet-limits decision without errors");
  // A bounded set too small for a read it would otherwise answer fails verify: the design sizes
  // each set for the largest limit of the reads in its order (design/rules-access.ts).
  for (const issue of result.evaluation.issues)
    if (issue.code === "evaluate.boundedSetTooSmall")
      problems.push(`a bounded set too small: ${issue.message}`);
  if (errors.length > result.baseline.errors)
    problems.push(`${errors.length} error(s), more than the baseline's ${result.baseline.errors}`);
  if (
    errors.length === result.baseline.errors &&
    result.evaluation.totals.monthlyCostUSD > result.baseline.monthlyCostUSD * LARGEST_PREMIUM
  )
    problems.push(
      `$${result.evaluation.totals.monthlyCostUSD.toFixed(0)}/month, dearer than the baseline's $${result.baseline.monthlyCostUSD.toFixed(0)} with as many errors`,
    );
  problems.push(...choiceProblems(result), ...atomicityProblems(result), ...duplicateItemTypes(result.model));
  return problems;
}

/**
 * Two item types of one entity under one partition key template and addressed by the same
 * attributes in one container (issue 26: a change-feed copy `menuItem2` beside `menuItem`, both
 * keyed `{restaurantId}`): every write of the entity pays twice, and any read one of them answers
 * the other answers in the same logical partitions. Literal text in a key template does not
 * count (`order-{orderId}` and `order2-{orderId}` in a container keyed by /id: one logical
 * partition per order each); a shard, replica or bucket placeholder does.
 */
export function duplicateItemTypes(model: Model): string[] {
  const keyShape = (template: string): string =>
    parseTemplate(template)
      .map((part) =>
        part.kind === "literal" ? "" : part.kind === "attribute" ? `{${part.name}}` : part.kind,
      )
      .join("");
  const problems: string[] = [];
  for (const container of model.containers) {
    const seen = new Map<string, string>();
    for (const item of container.items) {
      // Addressed by the same attributes: a lookup item (id `{email}`) beside a copy keyed by the
      // same value (id `{userId}`) enforces uniqueness, it does not hold the records twice.
      const addressedBy = [...new Set(templateAttributes(item.id))].sort().join(",");
      const place = [item.entity, ...item.partitionKey.map(keyShape), addressedBy].join("\u0000");
      const first = seen.get(place);
      if (first === undefined) seen.set(place, item.type);
      else
        problems.push(
          `${container.name} holds ${item.entity} twice under the key ${item.partitionKey.join(", ")}: ${first} and ${item.type}`,
        );
    }
  }
  return problems;
}

/**
 * Index paths of the written model that no query on their container names and that its upkeep
 * does not need (issue 26: indexes follow the container's queries). Read the other way from
 * `usedIndexingPolicy`: every top-level included path must be `/type/?`, named as `c.x` or
 * `c["x"]` by a query step of the evaluation's plans on that container, or in the policy derived
 * without the reads.
 */
export function unusedIndexPaths(workload: Workload, result: DesignResult): string[] {
  const sqlOf = new Map<string, string>();
  for (const pattern of result.evaluation.patterns)
    for (const step of pattern.plan.operations)
      if (step.kind === "query") sqlOf.set(step.container, `${sqlOf.get(step.container) ?? ""}\n${step.sql}`);
  const context = createPlanningContext(workload, result.model);
  const unused: string[] = [];
  for (const container of result.model.containers) {
    if (container.indexing.kind !== "custom") continue;
    const upkeep = new Set(deriveIndexingPolicy(context, container, { reads: false }).included);
    const sql = sqlOf.get(container.name) ?? "";
    for (const path of container.indexing.included) {
      const name = /^\/(\w+)\/\?$/.exec(path)?.[1];
      if (name === undefined || name === "type" || upkeep.has(path)) continue;
      if (!sql.includes(`c.${name}`) && !sql.includes(`c["${name}"]`))
        unused.push(`${container.name} indexes ${path}, which no query on it uses`);
    }
  }
  return unused;
}

/**
 * Designs the workload of `document` and returns every way the design fails the property (none:
 * an empty list); a design that throws is one failure.
 */
export function designPropertyFailures(document: WorkloadDocument): string[] {
  return designPropertyOutcome(document).problems;
}

/**
 * The property's failures with the hard-limit errors the design ends with (their codes, one per
 * error) and its `evaluate.noHeadroom` warnings: the census of issue 26's "0 designs with
 * hard-limit errors" on random workloads.
 */
export function designPropertyOutcome(document: WorkloadDocument): {
  readonly problems: string[];
  readonly errors: readonly string[];
  readonly noHeadroom: number;
} {
  const workload = toWorkload(document);
  let result: DesignResult;
  try {
    result = designModel(workload);
  } catch (error) {
    return {
      problems: [`design threw ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`],
      errors: [],
      noHeadroom: 0,
    };
  }
  const errors = result.evaluation.issues
    .filter((issue) => issue.severity === "error")
    .map((issue) => issue.code);
  const noHeadroom = result.evaluation.issues.filter((issue) => issue.code === "evaluate.noHeadroom").length;
  return { problems: designResultProblems(workload, result), errors, noHeadroom };
}

function designResultProblems(workload: Workload, result: DesignResult): string[] {
  const reload = (text: string) => loadModel(text, { file: "model.yaml", workload });
  // Where hard limits remain, cutting an index can move a follow-up from point reads to a query
  // and add an error: the design then keeps the uncut policy (design-model.ts, writtenModel).
  const limited = result.evaluation.issues.some((issue) => issue.severity === "error");
  const problems = [
    ...designProblems(result, reload),
    ...(limited ? [] : unusedIndexPaths(workload, result)),
  ];
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
