/**
 * What a write of a vectorised or full-text indexed item adds to its charge: the upkeep of the
 * container's vector indexes and full-text index for the vectors and text the item holds
 * (`estimator/search-charge.ts`, figures not documented: assumptions with their range). Added to
 * the synchronous item writes and batches of a write plan; deletes and patches that leave the
 * vectors and texts alone add nothing.
 */
import { DEFAULT_VECTOR_SEARCH_FACTS, type VectorSearchFacts } from "../cosmos/vector-search.js";
import { add, searchWriteTerm } from "../estimator/search-charge.js";
import type { WritePattern } from "../workload/types.js";
import type { PlanEnvironment } from "./environment.js";
import { searchPolicyOf, workloadSearches } from "./search-policy.js";
import type { PlanStep, WritePlan, WriteStep } from "./types.js";
import type { RuEstimate } from "../estimator/operation.js";

/** The plan with each item write's search-index upkeep added to its charge. */
export function withSearchUpkeep(
  env: PlanEnvironment,
  pattern: WritePattern,
  plan: WritePlan,
  facts: VectorSearchFacts = DEFAULT_VECTOR_SEARCH_FACTS,
): WritePlan {
  // (never `env.context.model`: a plan that reads it depends on the whole model, cost/model-answers.ts)
  if (!workloadSearches(env.context.workload)) return plan;
  let changed = false;
  const upkeep = (step: WriteStep): RuEstimate | undefined => {
    if (step.operation === "delete") return undefined;
    const container = env.context.container(step.container);
    const placement = env.context.placement(step.container, step.itemType);
    if (container === undefined || placement === undefined) return undefined;
    const policy = searchPolicyOf(env, container);
    if (policy === undefined) return undefined;
    const entity = env.context.entity(placement.item.entity);
    const holds = (name: string) =>
      entity.attributes.some((a) => a.name === name) &&
      (placement.item.select === undefined || placement.item.select.includes(name));
    const written = (name: string) =>
      step.operation !== "patch" ||
      (step.sets?.includes(name) ?? false) ||
      (placement.item.entity === pattern.entity &&
        (pattern.changes === undefined || pattern.changes.includes(name)));
    const vectors = policy.vectors.filter((v) => holds(v.path.slice(1)) && written(v.path.slice(1)));
    const texts = policy.fullText.filter((t) => holds(t.path.slice(1)) && written(t.path.slice(1)));
    if (vectors.length === 0 && texts.length === 0) return undefined;
    const textBytes = texts.reduce(
      (sum, t) => sum + (entity.attributes.find((a) => a.name === t.path.slice(1))?.avgBytes ?? 0),
      0,
    );
    const term = searchWriteTerm(
      vectors.map((v) => v.index),
      textBytes,
      facts,
    );
    return term.ru.estimate > 0 ? term.ru : undefined;
  };
  const withUpkeep = (step: PlanStep): PlanStep => {
    if (step.kind === "write") {
      const extra = upkeep(step);
      if (extra === undefined) return step;
      changed = true;
      return { ...step, ru: add(step.ru, extra) };
    }
    if (step.kind === "batch") {
      let ru = step.ru;
      const operations = step.operations.map((operation) => {
        const extra = upkeep(operation);
        if (extra === undefined) return operation;
        ru = add(ru, extra);
        return { ...operation, ru: add(operation.ru, extra) };
      });
      if (ru === step.ru) return step;
      changed = true;
      return { ...step, ru, operations };
    }
    return step;
  };
  const operations = plan.operations.map(withUpkeep);
  return changed ? { ...plan, operations } : plan;
}
