/**
 * The design's search policies: every container that stores vector or full-text attributes gets
 * its vector embedding policy, vector indexes and full-text policy written into the model (the
 * same `planner/search-policy.ts` derives for the evaluation, so the figures do not change), and
 * one decision per vector path: the index types compared on dimensions, recall and what the
 * path's searches and writes cost a month.
 */
import { DEFAULT_PRICES, type Prices } from "../cosmos/prices.js";
import { formatInteger } from "../common/format-number.js";
import type { Model } from "../model/types.js";
import { createPlanEnvironment, type PlanOptions } from "../planner/environment.js";
import { chooseVectorIndex, withSearchPolicies, type VectorIndexOption } from "../planner/search-policy.js";
import type { Workload } from "../workload/types.js";
import type { Alternative, Decision } from "./search.js";

/**
 * Monthly cost of RU/s provisioned for the peak at the manual rate: how the decision compares
 * index types (the evaluation prices the container as a whole, in its own capacity mode).
 */
function monthlyUsd(rusPeak: number, prices: Prices): number {
  return (rusPeak / 100) * prices.manualPer100RusHour * prices.hoursPerMonth;
}

function alternative(option: VectorIndexOption, prices: Prices): Alternative {
  return {
    name: option.index,
    rusPeak: option.rusPeak,
    monthlyCostUSD: monthlyUsd(option.rusPeak, prices),
    errors: option.allowed ? 0 : 1,
    unsound: option.allowed ? 0 : 1,
  };
}

/**
 * The model with its search policies written out, and the decision of each vector path's index.
 * @example designSearchPolicies(workload, model, { partitions: { chunks: 4 } }).decisions[0].chosen // "quantizedFlat"
 */
export function designSearchPolicies(
  workload: Workload,
  model: Model,
  options: PlanOptions & { readonly prices?: Prices } = {},
): { readonly model: Model; readonly decisions: readonly Decision[] } {
  const prices = options.prices ?? DEFAULT_PRICES;
  const env = createPlanEnvironment(workload, model, options);
  const written = withSearchPolicies(env, model);
  const decisions: Decision[] = [];
  for (const container of written.containers) {
    let diskAnnTaken = false;
    for (const vector of container.search?.vectors ?? []) {
      const name = vector.path.slice(1);
      const item = container.items.find(
        (i) => i.source === undefined && env.context.attribute(i.entity, name)?.vector !== undefined,
      );
      const attribute = item === undefined ? undefined : env.context.attribute(item.entity, name);
      if (item === undefined || attribute === undefined) continue;
      const choice = chooseVectorIndex(env, { container, item }, attribute, diskAnnTaken);
      if (vector.index === "diskANN") diskAnnTaken = true;
      const options = choice.options.map((o) => `${o.index}: ${o.allowed ? "" : "not allowed, "}${o.why}`);
      decisions.push({
        id: `vector-index-${container.name}-${name}`,
        subject: { kind: "vectorIndex", container: container.name, path: vector.path },
        title: `Vector index of ${container.name} ${vector.path}`,
        chosen: vector.index,
        alternatives: choice.options.map((o) => alternative(o, prices)),
        why:
          `${formatInteger(vector.dimensions)} ${vector.dataType} dimensions, searches needing a recall of ${choice.recallNeeded}` +
          `${vector.shardKey === undefined ? "" : `, one index per ${vector.shardKey.join(", ")} value (vectorIndexShardKey: every search names it)`}; ` +
          `the allowed index with the fewest RU/s for the searches and the writes' index upkeep (${options.join("; ")})`,
      });
    }
  }
  return { model: written, decisions };
}
