/**
 * The data a generated module needs to run writes: the synchronous tasks of each write access
 * pattern (item writes, re-keyed projections, embedded children, transactional batches with
 * counters) and the change-feed tasks of each source item type (copies with replicas and
 * trimming, propagation of copied attributes, counters), all taken from the plans.
 */
import type { ChangeFeedStep, QueryParameter, WritePlan } from "../../planner/types.js";
import type { ItemType, Model } from "../../model/types.js";
import { addressingAttributes, changingAddress, keepLatestOrderChanges } from "../../model/key-changes.js";
import type { Workload, WritePattern } from "../../workload/types.js";
import { recencyAttribute } from "../../workload/recency.js";
import { parentAddressBinding } from "../../model/provenance.js";
import { entityNamed, relationshipOf, shapeKey, type ItemTypeShapeData } from "./model-data.js";
import { changeKind } from "../../planner/changes.js";
import type { ItemRef, MaintenanceTask, ParameterSource, WriteTask } from "../../runtime/tasks.js";

/** A write task of the generated module (the runtime's `WriteTask`). */
export type WriteTaskData = WriteTask;

/** A maintenance task of the generated module (the runtime's `MaintenanceTask`). */
export type MaintenanceTaskData = MaintenanceTask;

/** The kind of change a write pattern makes: the planner's own rule. */
export const changeKindOf = changeKind;

function shapeOrFail(shapes: ReadonlyMap<string, ItemTypeShapeData>, ref: ItemRef): ItemTypeShapeData {
  const shape = shapes.get(shapeKey(ref.container, ref.itemType));
  if (shape === undefined)
    throw new RangeError(`the plan names ${ref.container}/${ref.itemType}, not in the model`);
  return shape;
}

/** A transactional batch step: the pattern's item write and the counters it increments. */
function batchTask(
  workload: Workload,
  pattern: WritePattern,
  step: Extract<WritePlan["operations"][number], { readonly kind: "batch" }>,
  shapes: ReadonlyMap<string, ItemTypeShapeData>,
): WriteTaskData | undefined {
  const change = changeKindOf(pattern);
  const [primary, ...increments] = step.operations;
  if (primary === undefined) return undefined;
  const operation =
    change === "delete" ? "delete" : primary.operation === "patch" ? "upsert" : primary.operation;
  return {
    kind: "batch",
    container: step.container,
    itemType: step.itemType,
    operation,
    increments: increments.flatMap((inc) => {
      const holder = shapeOrFail(shapes, inc);
      const counter = inc.increments?.[0];
      if (counter === undefined) return [];
      return [
        {
          container: inc.container,
          itemType: inc.itemType,
          id: inc.id,
          partitionKey: inc.partitionKey,
          bind: parentAddressBinding(workload, holder, pattern.entity),
          property: counter.property,
          by: counter.by,
        },
      ];
    }),
  };
}

/** A write of a child record embedded in its parent's item (`shape`): the parent is patched. */
function embedTask(
  workload: Workload,
  pattern: WritePattern,
  plan: WritePlan,
  step: Extract<WritePlan["operations"][number], { readonly kind: "write" }>,
  shape: ItemTypeShapeData,
): WriteTaskData | undefined {
  const embed = shape.embeds.find((e) => e.entity === pattern.entity);
  const relationship = relationshipOf(workload, shape.entity, pattern.entity);
  const child = entityNamed(workload, pattern.entity);
  const childKey = child?.key;
  if (embed === undefined || child === undefined || childKey === undefined) return undefined;
  const refill = plan.refills?.find(
    (candidate) => candidate.container === step.container && candidate.itemType === step.itemType,
  )?.query;
  // The newest by the child's first datetime attribute (the key when a model was loaded against
  // an unchecked workload without one: the follow-up query's order).
  const latest =
    embed.latest === undefined
      ? undefined
      : {
          count: embed.latest,
          by: recencyAttribute(child) ?? childKey[0] ?? "id",
          ...(refill === undefined
            ? {}
            : {
                refill: {
                  container: refill.container,
                  itemType: refill.itemType,
                  sql: refill.sql,
                  parameters: parameterSources(refill.parameters),
                  ...(refill.partitionKey === undefined ? {} : { partitionKey: refill.partitionKey }),
                },
              }),
        };
  return {
    kind: "embed",
    container: step.container,
    itemType: step.itemType,
    id: step.id,
    partitionKey: step.partitionKey,
    bind: parentAddressBinding(workload, shape, pattern.entity),
    as: embed.as,
    ...(latest === undefined ? {} : { latest }),
    childKey,
    many: relationship?.kind !== "one-to-one",
  };
}

/** The synchronous tasks of a write pattern, from its plan. */
export function writeTasksOf(
  workload: Workload,
  pattern: WritePattern,
  plan: WritePlan,
  shapes: ReadonlyMap<string, ItemTypeShapeData>,
): WriteTaskData[] {
  const tasks: WriteTaskData[] = [];
  const moved = new Map((plan.moves ?? []).map((move) => [shapeKey(move.container, move.itemType), move]));
  const done = new Set<string>();
  const change = changeKindOf(pattern);
  const key = entityNamed(workload, pattern.entity)?.key ?? [];
  for (const step of plan.operations) {
    if (step.kind === "pointRead" && step.role === "currentRecord") {
      tasks.push({ kind: "current", container: step.container, itemType: step.itemType });
      continue;
    }
    if (step.kind === "batch") {
      const task = batchTask(workload, pattern, step, shapes);
      if (task !== undefined) tasks.push(task);
      continue;
    }
    if (step.kind !== "write") continue;
    const shape = shapeOrFail(shapes, step);
    const stepKey = shapeKey(step.container, step.itemType);
    const move = moved.get(stepKey);
    if (move !== undefined) {
      // Finding the item, in place, create and delete: one task that decides per record.
      if (done.has(stepKey)) continue;
      done.add(stepKey);
      tasks.push({
        kind: "move",
        container: move.container,
        itemType: move.itemType,
        operation:
          pattern.operation === "create" || pattern.operation === "delete" ? "upsert" : pattern.operation,
        key,
        ...(move.helper === undefined ? {} : { helper: move.helper }),
        query: {
          sql: move.query.sql,
          parameters: parameterSources(move.query.parameters),
          ...(move.query.partitionKey === undefined ? {} : { partitionKey: move.query.partitionKey }),
        },
      });
      continue;
    }
    if (shape.entity === pattern.entity) {
      // A bucket's append and its create are one task (the runtime creates a missing bucket).
      if (done.has(stepKey)) continue;
      done.add(stepKey);
      // The plan never appends when the writer buffers whole buckets: each is created directly.
      const appends = plan.operations.filter(
        (other) =>
          other.kind === "write" &&
          other.operation === "patch" &&
          shapeKey(other.container, other.itemType) === stepKey,
      );
      const wholeBuckets =
        shape.bucket !== undefined && change === "create" && appends.every((other) => other.times === 0);
      tasks.push({
        kind: "item",
        container: step.container,
        itemType: step.itemType,
        // A soft delete is planned as a patch; the runtime removes by the item type's softDelete.
        operation:
          change === "delete" ? "delete" : shape.bucket !== undefined ? pattern.operation : step.operation,
        ...(wholeBuckets ? { wholeBuckets } : {}),
      });
      continue;
    }
    const task = embedTask(workload, pattern, plan, step, shape);
    if (task !== undefined) tasks.push(task);
  }
  return tasks;
}

function parameterSources(parameters: readonly QueryParameter[]): {
  readonly name: string;
  readonly source: ParameterSource;
}[] {
  return parameters.map(({ name, source }) => {
    switch (source.kind) {
      case "literal":
        return { name, source: { kind: "literal", value: source.value } };
      case "fromResult":
        return { name, source: { kind: "fromResult", attribute: source.attribute } };
      case "template":
        return { name, source: { kind: "template", template: source.template } };
      case "limit":
        return { name, source: { kind: "limit" } };
      case "input":
        return { name, source: { kind: "fromResult", attribute: source.attribute } };
      // (a write's tasks never search: a search term is a read's input)
      case "random":
      case "item":
      case "searchTerm":
        return { name, source: { kind: "literal", value: "" } };
      default:
        return source satisfies never;
    }
  });
}

function maintenanceTask(
  workload: Workload,
  model: Model,
  step: ChangeFeedStep,
  shapes: ReadonlyMap<string, ItemTypeShapeData>,
): { readonly key: string; readonly task: MaintenanceTaskData } | undefined {
  const target: ItemRef = { container: step.container, itemType: step.itemType };
  const targetKey = shapeKey(step.container, step.itemType);
  switch (step.reason) {
    case "copy":
    case "replica":
    case "trim": {
      const members = step.steps.find((s) => s.kind === "query" && s.role === "boundedSet");
      const refill = step.steps.find((s) => s.kind === "query" && s.role === "boundedSetRefill");
      const stale = step.steps.find((s) => s.kind === "query" && s.role === "staleCopies");
      const checked = step.steps.some((s) => s.role === "checkCopy")
        ? guardedAttributes(workload, model, step)
        : [];
      return {
        key: `copy:${targetKey}`,
        task: {
          kind: "copy",
          target,
          ...(members?.kind === "query"
            ? {
                bounded: {
                  membersSql: members.sql,
                  parameters: parameterSources(members.parameters),
                  sortMayChange: sortMayChange(workload, model, step),
                  ...(refill?.kind === "query"
                    ? {
                        refill: {
                          container: refill.container,
                          itemType: refill.itemType,
                          sql: refill.sql,
                          parameters: parameterSources(refill.parameters),
                          ...(refill.partitionKey === undefined ? {} : { partitionKey: refill.partitionKey }),
                        },
                      }
                    : {}),
                },
              }
            : {}),
          ...(stale?.kind === "query"
            ? {
                stale: {
                  sql: stale.sql,
                  parameters: parameterSources(stale.parameters),
                  ...(stale.partitionKey === undefined ? {} : { partitionKey: stale.partitionKey }),
                },
              }
            : {}),
          ...(checked.length === 0 ? {} : { checkBeforeDelete: checked }),
        },
      };
    }
    case "propagate": {
      const [find, update] = step.steps;
      const property = update?.kind === "write" ? update.sets?.[0] : undefined;
      const holder = shapeOrFail(shapes, target);
      const copy = holder.copies.find((c) => c.as === property);
      const attribute = copy?.from.attribute;
      if (find?.kind !== "query" || property === undefined || attribute === undefined) return undefined;
      return {
        key: `propagate:${targetKey}:${property}`,
        task: {
          kind: "propagate",
          holder: target,
          sql: find.sql,
          parameters: parameterSources(find.parameters),
          property,
          attribute,
          ...(copy?.key === undefined ? {} : { key: copy.key }),
        },
      };
    }
    case "counter": {
      const increment = step.steps.find((inner) => inner.kind === "write" && inner.increments !== undefined);
      const property = increment?.kind === "write" ? increment.increments?.[0]?.property : undefined;
      if (increment?.kind !== "write" || property === undefined) return undefined;
      const holder = shapeOrFail(shapes, target);
      const child = shapeOrFail(shapes, { container: step.from.container, itemType: step.from.itemType });
      const childKey = entityNamed(workload, child.entity)?.key ?? ["id"];
      const bind = parentAddressBinding(workload, holder, child.entity, child);
      return {
        key: `counter:${targetKey}:${property}`,
        task: {
          kind: "counter",
          holder: target,
          id: increment.id,
          partitionKey: increment.partitionKey,
          bind,
          property,
          childKey,
        },
      };
    }
    default:
      return step.reason satisfies never;
  }
}

/**
 * The source's address attributes that writes change and the copy's address does not hold: on a
 * delete of the source, the copy is deleted only if it still holds the deleted values.
 */
function guardedAttributes(workload: Workload, model: Model, step: ChangeFeedStep): string[] {
  const find = (container: string, type: string): ItemType | undefined =>
    model.containers.find((c) => c.name === container)?.items.find((i) => i.type === type);
  const source = find(step.from.container, step.from.itemType);
  const copy = find(step.container, step.itemType);
  const entity = source === undefined ? undefined : entityNamed(workload, source.entity);
  if (source === undefined || copy === undefined || entity === undefined) return [];
  const writes = workload.accessPatterns.filter(
    (p): p is WritePattern => p.type === "write" && p.entity === entity.name,
  );
  const copyAddress = new Set(addressingAttributes(copy));
  return changingAddress(entity, writes, source).filter((name) => !copyAddress.has(name));
}

/** True when a write of the bounded set's entity can change the attribute the set is ordered by. */
function sortMayChange(workload: Workload, model: Model, step: ChangeFeedStep): boolean {
  const copy = model.containers
    .find((c) => c.name === step.container)
    ?.items.find((i) => i.type === step.itemType);
  const entity = copy === undefined ? undefined : entityNamed(workload, copy.entity);
  if (copy === undefined || entity === undefined) return false;
  const writes = workload.accessPatterns.filter((p): p is WritePattern => p.type === "write");
  return keepLatestOrderChanges(entity, writes, copy);
}

/** Two copy tasks of one target planned by different patterns, as one (set, stale, check kept). */
function mergeCopyTasks(a: MaintenanceTaskData, b: MaintenanceTaskData): MaintenanceTaskData {
  if (a.kind !== "copy" || b.kind !== "copy") return b;
  const checked = [...new Set([...(a.checkBeforeDelete ?? []), ...(b.checkBeforeDelete ?? [])])];
  const refill = a.bounded?.refill ?? b.bounded?.refill;
  const members = a.bounded ?? b.bounded;
  const bounded = members === undefined || refill === undefined ? members : { ...members, refill };
  const stale = a.stale ?? b.stale;
  return {
    kind: "copy",
    target: a.target,
    ...(bounded === undefined ? {} : { bounded }),
    ...(stale === undefined ? {} : { stale }),
    ...(checked.length === 0 ? {} : { checkBeforeDelete: checked }),
  };
}

/**
 * The change-feed tasks of every source item type, by `container/type`, from the `async` steps
 * of every write plan (the same copy planned by several patterns is kept once, with its set,
 * its search for stale copies and its check before deleting).
 */
export function maintenanceTasksOf(
  workload: Workload,
  model: Model,
  plans: readonly WritePlan[],
  shapes: ReadonlyMap<string, ItemTypeShapeData>,
): ReadonlyMap<string, readonly MaintenanceTaskData[]> {
  const bySource = new Map<string, Map<string, MaintenanceTaskData>>();
  for (const plan of plans) {
    for (const step of plan.async) {
      const made = maintenanceTask(workload, model, step, shapes);
      if (made === undefined) continue;
      const source = shapeKey(step.from.container, step.from.itemType);
      const tasks = bySource.get(source) ?? new Map<string, MaintenanceTaskData>();
      const existing = tasks.get(made.key);
      tasks.set(made.key, existing === undefined ? made.task : mergeCopyTasks(existing, made.task));
      bySource.set(source, tasks);
    }
  }
  return new Map([...bySource].map(([source, tasks]) => [source, [...tasks.values()]]));
}
