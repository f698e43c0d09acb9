/**
 * Plans every access pattern of a workload on a model (the entry point of the planner).
 */
import type { Model } from "../model/types.js";
import type { AccessPattern, Workload } from "../workload/types.js";
import { createPlanEnvironment, type PlanEnvironment, type PlanOptions } from "./environment.js";
import { planRead } from "./plan-read.js";
import { planWrite } from "./plan-write.js";
import { withSearchUpkeep } from "./search-writes.js";
import type { Plan } from "./types.js";

/** Plans one access pattern in a prepared environment. */
export function planAccessPattern(env: PlanEnvironment, pattern: AccessPattern): Plan {
  switch (pattern.type) {
    case "read":
      return planRead(env, pattern);
    case "write":
      return withSearchUpkeep(env, pattern, planWrite(env, pattern));
    default:
      return pattern satisfies never;
  }
}

/**
 * The plan of every access pattern, in the workload's order.
 * @example planModel(workload, model, { partitions: { posts: 70 } })[0].kind // "write"
 */
export function planModel(workload: Workload, model: Model, options: PlanOptions = {}): readonly Plan[] {
  const env = createPlanEnvironment(workload, model, options);
  return workload.accessPatterns.map((pattern) => planAccessPattern(env, pattern));
}
