/**
 * The steps write plans are made of: a write of an item type (charged with its indexing), a
 * step of change-feed work on a target, and the sum of steps' charges.
 */
import type { Placement } from "./context.js";
import type { PlanEnvironment } from "./environment.js";
import { countChangedIndexedValues, countIndexedValues } from "./indexing.js";
import type { ChangeFeedStep, PlanStep, WriteStep } from "./types.js";

/** A write of `operation` on `placement`, `times` per request (`changed`: the attributes an update changes). */
export function writeStep(
  env: PlanEnvironment,
  placement: Placement,
  operation: WriteStep["operation"],
  times: number,
  note: string,
  changed?: readonly string[],
  extra: Partial<Pick<WriteStep, "increments" | "sets">> = {},
): WriteStep {
  const shape = env.shape(placement);
  const policy = env.policy(placement.container);
  const indexedValues = countIndexedValues(policy, shape);
  const update = operation === "replace" || operation === "patch";
  return {
    kind: "write",
    container: placement.container.name,
    itemType: placement.item.type,
    operation,
    id: placement.item.id,
    partitionKey: placement.item.partitionKey,
    ...env.charge({
      op: operation,
      itemBytes: shape.avgBytes,
      indexedValues,
      ...(update ? { changedValues: countChangedIndexedValues(policy, shape, changed) } : {}),
    }),
    times,
    note,
    ...extra,
  };
}

/** Change-feed work on `target` fed by the changes of `from`: its steps once per request. */
export function feedStep(
  reason: ChangeFeedStep["reason"],
  from: Placement,
  target: Placement,
  steps: readonly PlanStep[],
  note: string,
): ChangeFeedStep {
  return {
    kind: "changeFeed",
    reason,
    from: { container: from.container.name, itemType: from.item.type },
    container: target.container.name,
    itemType: target.item.type,
    steps,
    ru: sumOf(steps),
    times: 1,
    note,
  };
}

/** Sum of the steps' charges per request (each step's charge times its executions). */
export function sumOf(steps: readonly PlanStep[]): { estimate: number; low: number; high: number } {
  return steps.reduce(
    (sum, step) => ({
      estimate: sum.estimate + step.ru.estimate * step.times,
      low: sum.low + step.ru.low * step.times,
      high: sum.high + step.ru.high * step.times,
    }),
    { estimate: 0, low: 0, high: 0 },
  );
}
