/**
 * Plans a write access pattern on a model: the primary write of every item type that stores the
 * entity (buckets amortized, replicas multiplied), counters in the same logical partition in the
 * same transactional batch, and the change-feed work it triggers: counters elsewhere, copies
 * (`source`) replayed into other containers with `keepLatest` trimming, and propagation of changed
 * attributes to every item holding a copy of them.
 */
import { templateAttributes } from "../model/templates.js";
import type { WritePattern } from "../workload/types.js";
import type { Placement } from "./context.js";
import type { PlanEnvironment } from "./environment.js";
import { countChangedIndexedValues, countIndexedValues, isPathIndexed } from "./indexing.js";
import { keyConditions } from "./key-conditions.js";
import { keyProperty, routeRequest } from "./routing.js";
import { buildQuery } from "./sql.js";
import { DEFAULT_TOMBSTONE_TTL_SECONDS } from "../model/deletes.js";
import type { BatchStep, ChangeFeedStep, PlanStep, QueryStep, WritePlan, WriteStep } from "./types.js";

/** Share of write requests of `pattern` that change `attribute` (workload spec: rare 1/100, frequent 1/2). */
export function changeProbability(env: PlanEnvironment, pattern: WritePattern, attribute: string): number {
  if (pattern.operation === "create" || pattern.operation === "delete") return 0;
  const listed = pattern.changes?.includes(attribute);
  if (pattern.changes !== undefined && listed !== true) return 0;
  switch (env.context.attribute(pattern.entity, attribute)?.changes ?? "never") {
    case "rare":
      return 0.01;
    case "frequent":
      return 0.5;
    case "never":
      // The pattern names the attribute explicitly: every write of it may change it.
      return listed === true ? 1 : 0;
    default:
      return 0;
  }
}

/** The kind of change a write makes to its items (an upsert counts as a create). */
export type ChangeKind = "create" | "update" | "delete";

/** The kind of change a write pattern makes (an upsert counts as a create). */
export function changeKind(pattern: WritePattern): ChangeKind {
  switch (pattern.operation) {
    case "create":
    case "upsert":
      return "create";
    case "delete":
      return "delete";
    case "replace":
    case "patch":
      return "update";
    default:
      return pattern.operation satisfies never;
  }
}

function writeStep(
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
    ru: env.estimate({
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

/**
 * Change-feed work when an item of `source` is created, updated or deleted `times` times per
 * request: every item type that is a copy of it (`source:`) is written again, bounded sets are
 * trimmed, and copies of copies follow.
 */
function replayCopies(
  env: PlanEnvironment,
  source: Placement,
  kind: ChangeKind,
  times: number,
  depth = 0,
): ChangeFeedStep[] {
  // Work below a thousandth of a request unit per request is left out of the plan.
  if (depth > 4 || times < 1e-4) return [];
  const steps: ChangeFeedStep[] = [];
  for (const { container, item } of env.context.copiesOf(source.container.name, source.item.type)) {
    {
      const copy: Placement = { container, item };
      const replicas = item.replicas ?? 1;
      // An update only reaches a bounded set when the item is among the newest kept there.
      const share =
        item.keepLatest !== undefined && kind === "update"
          ? Math.min(1, env.itemCount(copy) / replicas / Math.max(1, env.context.countAtHorizon(item.entity)))
          : 1;
      if (times * replicas * share < 1e-4) continue;
      const inner: PlanStep[] = [
        writeStep(
          env,
          copy,
          kind === "delete" ? "delete" : "upsert",
          times * replicas * share,
          replicas > 1
            ? `write the copy into each of the ${replicas} replicas`
            : `replay the ${source.item.type} into ${container.name}`,
        ),
      ];
      if (item.keepLatest !== undefined && kind === "create") {
        const routing = routeRequest(item, new Set());
        const query = buildQuery({
          keys: keyConditions(
            copy,
            { ...routing, scope: "single", knownLevels: item.partitionKey.length },
            "result",
            new Set(),
          ),
          predicates: [],
          valuesFrom: "result",
          orderBy: [{ attribute: item.keepLatest.by, direction: "asc" }],
          top: 1,
          projection: ["id"],
        });
        const trim: QueryStep = {
          kind: "query",
          container: container.name,
          itemType: item.type,
          sql: query.sql,
          parameters: query.parameters,
          partitionKey: item.partitionKey,
          scope: "single",
          partitions: 1,
          returned: 1,
          orderServedByIndex: isPathIndexed(env.policy(container), `/${item.keepLatest.by}`),
          ru: env.estimate({ op: "query", returned: 1, returnedBytes: 60, partitions: 1 }),
          times: times * replicas,
          note: `find the oldest item beyond the newest ${item.keepLatest.count}`,
        };
        inner.push(
          trim,
          writeStep(
            env,
            copy,
            "delete",
            times * replicas,
            `trim the set to the newest ${item.keepLatest.count}`,
          ),
        );
      }
      steps.push(
        feedStep(
          item.keepLatest !== undefined && kind === "create" ? "trim" : replicas > 1 ? "replica" : "copy",
          source,
          copy,
          inner,
          `change feed of ${source.container.name} keeps ${container.name}/${item.type} in step`,
        ),
      );
      steps.push(...replayCopies(env, copy, kind, times * replicas * share, depth + 1));
    }
  }
  return steps;
}

/** Change-feed work on `target` fed by the changes of `from`: its steps once per request. */
function feedStep(
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
function sumOf(steps: readonly PlanStep[]): { estimate: number; low: number; high: number } {
  return steps.reduce(
    (sum, step) => ({
      estimate: sum.estimate + step.ru.estimate * step.times,
      low: sum.low + step.ru.low * step.times,
      high: sum.high + step.ru.high * step.times,
    }),
    { estimate: 0, low: 0, high: 0 },
  );
}

/** The note of a soft delete: a patch that leaves a tombstone for the change feed. */
function softDeleteNote(env: PlanEnvironment, placement: Placement, tombstone: string): string {
  const deletes = env.context.deletes();
  const ttl = deletes.mode === "softDelete" ? deletes.ttlSeconds : DEFAULT_TOMBSTONE_TTL_SECONDS;
  return `soft delete: patch ${placement.item.type}.${tombstone} = true and ttl ${ttl} s (the change feed carries the tombstone to the counters and copies; it expires after the ttl)`;
}

/**
 * The counted child's flag (`src/runtime/counters.ts`): in latest-version mode the handler marks
 * the child counted (or no longer) after the holder's summed update, one patch per child in the
 * child's own partition, so a folded or redelivered version is not counted twice. None with all
 * versions and deletes (every create and delete arrives once per sequence number).
 */
function counterFlagSteps(env: PlanEnvironment, child: Placement | undefined, times: number): WriteStep[] {
  if (child === undefined || env.context.deletes().mode === "allVersionsAndDeletes") return [];
  return [
    writeStep(
      env,
      child,
      "patch",
      times,
      `flag the ${child.item.type} as counted (or no longer) for the next change`,
      ["counted"],
    ),
  ];
}

/** True when a holder of a parent's counter sits in the same logical partition as the child item. */
function sameLogicalPartition(env: PlanEnvironment, holder: Placement, child: Placement): boolean {
  if (holder.container.name !== child.container.name) return false;
  const relationship = env.context.relationship(holder.item.entity, child.item.entity);
  if (relationship?.via === undefined) return false;
  const parentKey = env.context.entity(holder.item.entity).key;
  const rewritten = holder.item.partitionKey.map((t) =>
    t.split(`{${parentKey}}`).join(`{${relationship.via}}`),
  );
  return rewritten.every((template, index) => template === child.item.partitionKey[index]);
}

/** Plans a write pattern. */
export function planWrite(env: PlanEnvironment, pattern: WritePattern): WritePlan {
  const { context } = env;
  const kind = changeKind(pattern);
  const notes: string[] = [];
  const primaries = context.placementsOf(pattern.entity).filter((p) => p.item.source === undefined);
  // The change feed that carries this pattern's changes: its primary item type's container.
  const feedSource = primaries[0];
  const operations: PlanStep[] = [];
  const async: ChangeFeedStep[] = [];
  const writes = new Map<Placement, WriteStep>();
  for (const placement of primaries) {
    // A projection (`select`) is only rewritten when the write changes one of its attributes.
    const projected = placement.item.select;
    if (projected !== undefined && kind === "update" && pattern.changes !== undefined) {
      const touched = pattern.changes.filter((name) => projected.includes(name));
      const share = Math.min(1, Math.max(0, ...touched.map((name) => changeProbability(env, pattern, name))));
      if (share === 0) continue;
      const idChanges = touched.some((name) => templateAttributes(placement.item.id).includes(name));
      if (idChanges) {
        // A new id: create the item under the new value, then delete the old one.
        const note = `${placement.item.type}: a change of ${touched.join(", ")} (${Math.round(share * 100)}% of requests) re-creates it under its new id`;
        writes.set(placement, writeStep(env, placement, "create", share * pattern.batch, note));
        operations.push(
          writeStep(env, placement, "delete", share * pattern.batch, `delete the old ${placement.item.type}`),
        );
      } else {
        writes.set(
          placement,
          writeStep(
            env,
            placement,
            pattern.operation,
            share * pattern.batch,
            `${pattern.operation} the ${placement.item.type} when ${touched.join(", ")} change`,
            pattern.changes,
          ),
        );
      }
      continue;
    }
    const records = env.recordsPerBucket(placement.item);
    const replicas = placement.item.replicas ?? 1;
    const tombstone =
      kind === "delete" ? env.context.tombstone(placement.container.name, placement.item.type) : undefined;
    const operation =
      tombstone !== undefined
        ? "patch"
        : placement.item.bucket !== undefined && kind !== "delete"
          ? "create"
          : pattern.operation;
    const times = (pattern.batch * replicas) / records;
    const note =
      tombstone !== undefined
        ? softDeleteNote(env, placement, tombstone)
        : placement.item.bucket !== undefined
          ? `one ${placement.item.type} item per ${Math.round(records)} records (the writer bins records before writing)`
          : replicas > 1
            ? `written to each of the ${replicas} replicas`
            : `${pattern.operation} the ${placement.item.type} item`;
    writes.set(
      placement,
      writeStep(
        env,
        placement,
        operation,
        times,
        note,
        tombstone === undefined ? pattern.changes : [tombstone, "ttl"],
      ),
    );
  }
  // Children embedded in a parent item: the parent is rewritten (patched) with each write.
  let writtenWithParent = false;
  for (const { container, item } of context.embeddersOf(pattern.entity)) {
    {
      const embed = item.embeds.find((e) => e.entity === pattern.entity);
      if (embed === undefined) continue;
      const parent: Placement = { container, item };
      const relationship = context.relationship(item.entity, pattern.entity);
      // Children created in the same request as their parent (the parent's creates times its
      // children match this pattern's writes) are part of the parent's create: no extra write.
      const parentCreates = context
        .writesOf(item.entity)
        .filter((p) => p.type === "write" && p.operation === "create")
        .reduce((sum, p) => sum + p.rps.avg * (p.type === "write" ? p.batch : 1), 0);
      const childWrites = pattern.rps.avg * pattern.batch;
      const together =
        kind === "create" &&
        embed.latest === undefined &&
        relationship !== undefined &&
        parentCreates > 0 &&
        Math.abs(parentCreates * relationship.avg - childWrites) <= 0.2 * childWrites;
      if (together) {
        writtenWithParent = true;
        notes.push(
          `${pattern.entity} is embedded in ${item.type}.${embed.as} and written with its ${item.entity} (${parentCreates}/s creates x ${relationship.avg} = ${childWrites}/s): no write of its own`,
        );
        continue;
      }
      // One patch per request adds (or changes) the request's children in the parent item.
      const step = writeStep(env, parent, "patch", 1, `update the embedded ${embed.as} of the ${item.type}`, [
        embed.as,
      ]);
      operations.push(step);
      async.push(...replayCopies(env, parent, "update", 1));
    }
  }
  // Counters of the written entity kept on a parent item.
  const batched = new Map<Placement, WriteStep[]>();
  if (kind !== "update") {
    for (const { container, item } of context.counterHoldersOf(pattern.entity)) {
      {
        const counter = item.counts.find((c) => c.of === pattern.entity);
        if (counter === undefined) continue;
        const holder: Placement = { container, item };
        const by = kind === "delete" ? -1 : 1;
        const increment = writeStep(
          env,
          holder,
          "patch",
          pattern.batch,
          `increment ${item.type}.${counter.as}`,
          [counter.as],
          {
            increments: [{ property: counter.as, by }],
          },
        );
        const partner = [...writes.keys()].find((p) => sameLogicalPartition(env, holder, p));
        if (partner !== undefined) {
          batched.set(partner, [...(batched.get(partner) ?? []), increment]);
        } else {
          async.push(
            feedStep(
              "counter",
              feedSource ?? holder,
              holder,
              [increment, ...counterFlagSteps(env, feedSource, pattern.batch)],
              `change feed handler increments ${item.type}.${counter.as} (it can sum the changes of one batch per parent)`,
            ),
          );
        }
        async.push(...replayCopies(env, holder, "update", pattern.batch));
      }
    }
  }
  for (const [placement, step] of writes) {
    const increments = batched.get(placement);
    if (increments === undefined) {
      operations.unshift(step);
    } else {
      const batch: BatchStep = {
        kind: "batch",
        container: placement.container.name,
        itemType: placement.item.type,
        partitionKey: placement.item.partitionKey,
        operations: [step, ...increments],
        ru: sumOf([step, ...increments]),
        times: 1,
        note: `transactional batch: the ${placement.item.type} and its parent's counter in one logical partition`,
      };
      operations.unshift(batch);
    }
    async.push(...replayCopies(env, placement, kind, step.times));
  }
  // Propagation of changed attributes to the items that hold copies of them.
  for (const { container, item } of context.copyHoldersOf(pattern.entity)) {
    {
      for (const copy of item.copies) {
        if (copy.from.entity !== pattern.entity) continue;
        const probability = changeProbability(env, pattern, copy.from.attribute);
        if (probability === 0) continue;
        const holder: Placement = { container, item };
        const relationship = context.relationship(pattern.entity, item.entity);
        if (relationship?.via === undefined) {
          notes.push(
            `${item.type}.${copy.as}: no relationship from ${pattern.entity} to ${item.entity} to find the holders`,
          );
          continue;
        }
        const holders = relationship.avg;
        const routing = routeRequest(item, new Set([relationship.via]));
        const partitions =
          routing.scope === "fanOut"
            ? env.partitions(container.name)
            : routing.scope === "shards"
              ? Math.min(routing.shardCount, env.partitions(container.name))
              : 1;
        const query = buildQuery({
          keys: keyConditions(holder, routing, "result", new Set([relationship.via])),
          predicates: [{ attribute: relationship.via, op: "eq" }],
          valuesFrom: "result",
          resultNames: { [relationship.via]: context.entity(pattern.entity).key },
          orderBy: [],
          projection: ["id", ...container.partitionKey.map(keyProperty).filter((name) => name !== "id")],
        });
        const find: QueryStep = {
          kind: "query",
          container: container.name,
          itemType: item.type,
          sql: query.sql,
          parameters: query.parameters,
          scope: routing.scope,
          partitions,
          returned: holders,
          orderServedByIndex: true,
          ru: env.estimate({ op: "query", returned: holders, returnedBytes: holders * 80, partitions }),
          times: probability * pattern.batch,
          note: `find the ${item.type} items holding ${copy.as} (${holders} per ${pattern.entity} on average)`,
        };
        const update = writeStep(
          env,
          holder,
          "patch",
          probability * pattern.batch * holders,
          `set ${copy.as} on each holder`,
          [copy.as],
          {
            sets: [copy.as],
          },
        );
        async.push(
          feedStep(
            "propagate",
            feedSource ?? holder,
            holder,
            [find, update],
            `a change of ${pattern.entity}.${copy.from.attribute} (${probability * 100}% of ${pattern.id} requests) is propagated to ${item.type}.${copy.as}`,
          ),
        );
        async.push(...replayCopies(env, holder, "update", probability * pattern.batch * holders));
      }
    }
  }
  const served = primaries.length > 0 || operations.length > 0 || writtenWithParent;
  if (!served) notes.push(`no item type in the model stores ${pattern.entity}`);
  return {
    patternId: pattern.id,
    type: "write",
    kind: operations.some((step) => step.kind === "batch") ? "batch" : "write",
    operations,
    async,
    served,
    notes,
  };
}
