/**
 * Change-feed replay of a source item type into its copies (`source`): an upsert or a delete per
 * copy and replica, bounded sets kept as their handler does, copies whose address moves, and
 * copies of copies.
 */
import type { WritePattern } from "../workload/types.js";
import type { ChangeKind } from "./changes.js";
import type { Placement } from "./context.js";
import type { PlanEnvironment } from "./environment.js";
import { boundedSetSteps, refillShares, refillSource, refillSteps } from "./plan-bounded-sets.js";
import { copyMoveSteps } from "./plan-copy-moves.js";
import { feedStep, writeStep } from "./plan-steps.js";
import type { ChangeFeedStep, PlanStep } from "./types.js";

/**
 * Change-feed work when an item of `source` is created, updated or deleted `times` times per
 * request: every item type that is a copy of it (`source:`) is written again, bounded sets are
 * trimmed, and copies of copies follow.
 */
export function replayCopies(
  env: PlanEnvironment,
  source: Placement,
  kind: ChangeKind,
  times: number,
  pattern?: WritePattern,
  depth = 0,
): ChangeFeedStep[] {
  // Work below a thousandth of a request unit per request is left out of the plan.
  if (depth > 4 || times < 1e-4) return [];
  const steps: ChangeFeedStep[] = [];
  for (const { container, item } of env.context.copiesOf(source.container.name, source.item.type)) {
    {
      const copy: Placement = { container, item };
      const replicas = item.replicas ?? 1;
      // An update or a delete reaches a bounded set only when the item is among the newest kept.
      const share =
        item.keepLatest !== undefined && kind !== "create"
          ? Math.min(1, env.itemCount(copy) / replicas / Math.max(1, env.context.countAtHorizon(item.entity)))
          : 1;
      let inner: PlanStep[];
      if (item.keepLatest !== undefined) {
        inner = boundedSetSteps(env, copy, kind, times, share, (operation, count, note) =>
          writeStep(env, copy, operation, count, note),
        );
        // A set whose key moves (newest by title, the title changes): the member left in the old
        // set is found and deleted, as for any copy (src/runtime/bounded-sets.ts).
        if (kind !== "delete") {
          inner.push(
            ...copyMoveSteps(env, source, copy, kind, times, pattern, (count, note) =>
              writeStep(env, copy, "delete", count, note),
            ),
          );
        }
        // A member that leaves (deleted, moved to another set, made older) is replaced from the
        // set's source: the share of changes that hit a member and take it out.
        const from = refillSource(env, copy);
        if (from !== undefined) {
          const kept = Math.min(
            1,
            env.itemCount(copy) / replicas / Math.max(1, env.context.countAtHorizon(item.entity)),
          );
          const leaves = refillShares(env, copy, kind, kept, pattern);
          const write = (operation: "upsert" | "delete", count: number, note: string) =>
            writeStep(env, copy, operation, count, note);
          inner.push(
            ...refillSteps(env, from, copy, times * leaves.redated, kind !== "delete", write),
            ...refillSteps(env, from, copy, times * leaves.moved, false, write),
          );
        }
      } else {
        if (times * replicas < 1e-4) continue;
        const replay = writeStep(
          env,
          copy,
          kind === "delete" ? "delete" : "upsert",
          times * replicas,
          replicas > 1
            ? `write the copy into each of the ${replicas} replicas`
            : `replay the ${source.item.type} into ${container.name}`,
        );
        // A copy whose address moves: the old one found and deleted; a delete checked first.
        const moves = copyMoveSteps(env, source, copy, kind, times, pattern, (count, note) =>
          writeStep(env, copy, "delete", count, note),
        );
        inner = kind === "delete" ? [...moves, replay] : [replay, ...moves];
      }
      steps.push(
        feedStep(
          item.keepLatest !== undefined ? "trim" : replicas > 1 ? "replica" : "copy",
          source,
          copy,
          inner,
          `change feed of ${source.container.name} keeps ${container.name}/${item.type} in step`,
        ),
      );
      steps.push(...replayCopies(env, copy, kind, times * replicas * share, pattern, depth + 1));
    }
  }
  return steps;
}
