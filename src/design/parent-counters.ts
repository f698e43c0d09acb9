/**
 * A count of a parent's children kept on the parent (issue 26): a read of a parent with
 * `count(Child)` is served by a counter on the parent's item (a point read returns it) instead of
 * a query of the children per returned parent. The counter costs its upkeep on every write that
 * changes the count (child creates and deletes, and updates that re-parent or move a child): in
 * the child's transactional batch when both share a logical partition and no write re-parents a
 * child, else from the change feed (summed per parent per batch, exactly once:
 * `src/runtime/counters.ts`). The search keeps it only when the whole model is cheaper (errors
 * first, then cost: `decide`); this module gives the figures of that decision.
 */
import { formatFigure, formatInteger } from "../common/format-number.js";
import { MAX_PHYSICAL_PARTITION_RUS } from "../cosmos/limits.js";
import type { PlanStep } from "../planner/types.js";
import type { ReadPattern, Workload } from "../workload/types.js";
import type { Scored } from "./search.js";

/** The counter a candidate adds: its holder item type and the counted child. */
export interface CounterMove {
  readonly container: string;
  readonly itemType: string;
  readonly child: string;
  /** The holder's property (`counts[].as`). */
  readonly as: string;
}

/** RU/s at peak of a pattern's steps: each step's charge times its executions times the peak rate. */
function rusOf(steps: readonly PlanStep[], peak: number): number {
  return steps.reduce((sum, step) => sum + step.ru.estimate * step.times * peak, 0);
}

/** RU/s at peak that the reads of `scored` spend counting `child` at read time (follow-up queries). */
export function countingRus(workload: Workload, scored: Scored, child: string): number {
  const label = `count(${child})`;
  let total = 0;
  for (const evaluated of scored.evaluation.patterns) {
    const pattern = workload.accessPatterns.find((p) => p.id === evaluated.id);
    if (pattern?.type !== "read") continue;
    const steps = evaluated.plan.operations.filter((step) => step.withEntry === label);
    total += rusOf(steps, pattern.rps.peak);
  }
  return total;
}

type Evaluated = Scored["evaluation"]["patterns"][number];

/**
 * RU/s at peak that one write pattern spends keeping `counter` (the increments batched with the
 * child's writes, and the change-feed work of the counter: increments and counted flags), less
 * the increments the change feed sums per parent per batch.
 */
function patternUpkeep(evaluated: Evaluated, peak: number, counter: CounterMove): number {
  const plan = evaluated.plan;
  if (plan.type !== "write") return 0;
  const holds = (step: PlanStep): boolean =>
    step.kind === "write" &&
    step.container === counter.container &&
    step.itemType === counter.itemType &&
    step.increments?.some((increment) => increment.property === counter.as) === true;
  const batched = plan.operations.flatMap((step) => (step.kind === "batch" ? step.operations : []));
  const fed = plan.async.filter(
    (step) =>
      step.reason === "counter" &&
      step.container === counter.container &&
      step.itemType === counter.itemType &&
      step.steps.some(holds),
  );
  const work = rusOf(batched.filter(holds), peak) + rusOf(fed, peak);
  const aggregated = fed.length > 0 ? evaluated.rusBreakdown.aggregatedChangeFeed.peak : 0;
  return Math.max(0, work - aggregated);
}

/** RU/s at peak that the writes of `scored` spend keeping `counter` (`patternUpkeep` summed). */
export function upkeepRus(workload: Workload, scored: Scored, counter: CounterMove): number {
  return writesKeeping(workload, scored, counter).reduce((sum, entry) => sum + entry.rus, 0);
}

/** The write patterns of `scored` that keep `counter`: their RU/s of upkeep and records/s at peak. */
function writesKeeping(
  workload: Workload,
  scored: Scored,
  counter: CounterMove,
): { readonly rus: number; readonly records: number }[] {
  return scored.evaluation.patterns.flatMap((evaluated) => {
    const pattern = workload.accessPatterns.find((p) => p.id === evaluated.id);
    if (pattern?.type !== "write") return [];
    const rus = patternUpkeep(evaluated, pattern.rps.peak, counter);
    return rus > 0 ? [{ rus, records: pattern.rps.peak * pattern.batch }] : [];
  });
}

/** True when the counter is incremented in the child's transactional batch (no change-feed work). */
function batched(scored: Scored, counter: CounterMove): boolean {
  return scored.evaluation.patterns.some(
    (p) =>
      p.plan.type === "write" &&
      p.plan.operations.some(
        (step) =>
          step.kind === "batch" &&
          step.operations.some(
            (inner) => inner.container === counter.container && inner.itemType === counter.itemType,
          ),
      ),
  );
}

/** RU/s at peak of the hottest logical partition of the holder's container. */
function hottest(scored: Scored, container: string): number {
  return scored.evaluation.containers.find((c) => c.name === container)?.hottestLogicalPartition.rus ?? 0;
}

/**
 * The figures of a counter decision, from the models compared (counting at read time first, then
 * the model with the counter): the reads' RU/s the counter saves, its upkeep's RU/s, and the
 * hottest logical partition of the holder's container against what one logical partition serves
 * (the counter's holder takes every change of its children's count).
 */
export function counterContext(
  workload: Workload,
  pattern: ReadPattern,
  counter: CounterMove,
  compared: readonly { readonly name: string; readonly scored: Scored }[],
): string {
  const readTime = compared[0]?.scored;
  const counted = compared[compared.length - 1]?.scored;
  const readers = workload.accessPatterns.filter(
    (p): p is ReadPattern =>
      p.type === "read" && p.with.some((entry) => entry.kind === "count" && entry.entity === counter.child),
  );
  const reads = readers.reduce((sum, p) => sum + p.rps.peak, 0);
  const head = `${readers.map((p) => p.id).join(", ")} ${readers.length === 1 ? "asks" : "ask"} for count(${counter.child}) ${formatInteger(reads)} times/s at peak (${pattern.id}: ${formatInteger(pattern.rps.peak)})`;
  if (readTime === undefined || counted === undefined || counted === readTime) return head;
  const before = countingRus(workload, readTime, counter.child);
  const after = countingRus(workload, counted, counter.child);
  const keeping = writesKeeping(workload, counted, counter);
  const upkeep = keeping.reduce((sum, entry) => sum + entry.rus, 0);
  const writes = keeping.reduce((sum, entry) => sum + entry.records, 0);
  const how = batched(counted, counter)
    ? `in the transactional batch of each ${counter.child} write`
    : `from the change feed of ${counter.child}, summed per parent per batch`;
  const limit = formatInteger(MAX_PHYSICAL_PARTITION_RUS);
  return (
    `${head}; counting at read time costs ${formatInteger(before)} RU/s at peak, a counter ${counter.itemType}.${counter.as} ` +
    `saves ${formatInteger(before - after)} RU/s of them for ${formatInteger(upkeep)} RU/s of upkeep at peak ` +
    `(${formatInteger(writes)} ${counter.child} writes/s at peak may change the count, kept ${how}); ` +
    `the hottest logical partition of ${counter.container} takes ${formatFigure(hottest(counted, counter.container))} RU/s at peak with the counter ` +
    `and ${formatFigure(hottest(readTime, counter.container))} without, of the ${limit} RU/s one logical partition serves`
  );
}
