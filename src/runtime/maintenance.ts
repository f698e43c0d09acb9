/**
 * The change-feed work of a model: when a source item changes, its copies (every replica) are
 * rewritten and bounded sets trimmed, copied attributes are propagated to the items holding them,
 * and counters on parent items are incremented or decremented.
 */
import {
  changeOf,
  shardValues,
  withCopies,
  type Charged,
  type ContainerChange,
  type ItemChange,
  type Runtime,
  type WriteResult,
} from "./context.js";
import {
  itemKeyOf,
  materializeItem,
  partitionKeyOfItem,
  recordOf,
  relatedOf,
  type ItemTypeShape,
  type StoredItem,
} from "./items.js";
import { asItems, patchItem, pointer, queryItems } from "./requests.js";
import { applyCounter } from "./counters.js";
import type { ItemRef, MaintenanceTask } from "./tasks.js";
import { maintainBoundedSet } from "./bounded-sets.js";
import { deleteCopy, recordStaleSearches, removeStaleCopies } from "./copy-moves.js";
import { propagateLinked } from "./linked-copies.js";
import { parameterValue } from "./parameters.js";
import type { KeyValue, TemplateValues } from "./templates.js";

/** Writes the copies of a changed source item (every replica), then trims bounded sets. */
async function maintainCopy(
  runtime: Runtime,
  charged: Charged,
  task: Extract<MaintenanceTask, { kind: "copy" }>,
  sourceShape: ItemTypeShape,
  change: ItemChange,
): Promise<void> {
  const shape = runtime.shape(task.target.container, task.target.itemType);
  if (shape.keepLatest !== undefined && task.bounded !== undefined) {
    const kept = await maintainBoundedSet(runtime, charged, task, shape, sourceShape, change);
    // A member left in the set of an old key (the set's key attribute changed) is deleted.
    if (change.kind !== "delete")
      await removeStaleCopies(
        runtime,
        charged,
        task,
        shape,
        sourceShape,
        change,
        kept.addresses,
        kept.created,
      );
    return;
  }
  const container = runtime.container(task.target.container);
  const record = recordOf(sourceShape, change.item);
  const related = relatedOf(sourceShape, change.item);
  const written: { id: string; keys: KeyValue[] }[] = [];
  let created = false;
  for (let replica = 0; replica < (shape.replicas ?? 1); replica++) {
    const extra = { ...related, ...(shape.replicas === undefined ? {} : { replica }) };
    const { id, keys } = itemKeyOf(shape, record, extra);
    if (change.kind === "delete") {
      await deleteCopy(runtime, charged, task, shape, record, id, keys);
      continue;
    }
    const item = materializeItem(shape, record, await withCopies(runtime, charged, shape, record, extra));
    const response = await container.items.upsert<StoredItem>(item);
    charged.requestCharge += response.requestCharge;
    charged.changes.push(changeOf(task.target, "upsert", response.resource ?? item));
    written.push({ id, keys });
    created ||= response.statusCode === 201;
  }
  if (change.kind !== "delete") {
    await removeStaleCopies(runtime, charged, task, shape, sourceShape, change, written, created);
  }
}

/**
 * Sets a changed copied attribute on every item holding a copy of it; a deleted source (a
 * tombstone, or a delete of the all-versions feed) sets it to null, what the attribute of a
 * parent that no longer exists reads as (its children stay: deletes never cascade). Setting a
 * value is idempotent, so a change delivered again writes the same; the feed delivers one item's
 * changes in order, so a parent deleted and created again ends with the new value.
 */
async function propagate(
  runtime: Runtime,
  charged: Charged,
  task: Extract<MaintenanceTask, { kind: "propagate" }>,
  sourceShape: ItemTypeShape,
  change: ItemChange,
): Promise<void> {
  if (task.key !== undefined) {
    await propagateLinked(runtime, charged, task, sourceShape, change);
    return;
  }
  const value = change.kind === "delete" ? null : change.item[task.attribute];
  if (
    change.kind !== "delete" &&
    change.previous !== undefined &&
    JSON.stringify(change.previous[task.attribute]) === JSON.stringify(value)
  )
    return;
  const shape = runtime.shape(task.holder.container, task.holder.itemType);
  const container = runtime.container(task.holder.container);
  const values: TemplateValues = { attributes: recordOf(sourceShape, change.item) };
  const found = await queryItems(
    container,
    task.sql,
    task.parameters.map((parameter) => ({
      name: parameter.name,
      // ARRAY_CONTAINS(@p, c.key) over a sharded holder's key: every write shard of the value.
      value:
        parameter.source.kind === "template" && task.sql.includes(`ARRAY_CONTAINS(${parameter.name},`)
          ? shardValues(shape, parameter.source.template, values.attributes)
          : parameterValue(parameter.source, values, 1),
    })),
  );
  charged.requestCharge += found.requestCharge;
  for (const holder of asItems(found.items)) {
    if (typeof holder["id"] !== "string") continue;
    const patched = await patchItem(container, holder["id"], partitionKeyOfItem(shape, holder), [
      { op: "set", path: pointer(task.property), value: value ?? null },
    ]);
    charged.requestCharge += patched.requestCharge;
    if (patched.item !== undefined) charged.changes.push(changeOf(task.holder, "update", patched.item));
  }
}

/** Applies the change-feed work of a batch of changes of one source item type. */
export async function runMaintenance(
  runtime: Runtime,
  source: ItemRef,
  tasks: readonly MaintenanceTask[],
  changes: readonly ItemChange[],
): Promise<WriteResult> {
  const charged: Charged = { requestCharge: 0, changes: [] };
  const sourceShape = runtime.shape(source.container, source.itemType);
  const own = changes.filter(
    (change) => change.item["type"] === undefined || change.item["type"] === source.itemType,
  );
  await recordStaleSearches(runtime, source, tasks, own);
  for (const change of own) {
    for (const task of tasks) {
      switch (task.kind) {
        case "copy":
          await maintainCopy(runtime, charged, task, sourceShape, change);
          break;
        case "propagate":
          await propagate(runtime, charged, task, sourceShape, change);
          break;
        case "counter":
          // Summed per holder over the whole batch, below.
          break;
        default:
          task satisfies never;
      }
    }
  }
  for (const task of tasks) {
    if (task.kind === "counter") await applyCounter(runtime, charged, task, sourceShape, own);
  }
  return charged;
}

/** A change-feed handler: the work for a batch of changes of one source item type. */
export type ChangeHandler = (changes: readonly ItemChange[]) => Promise<WriteResult>;

/**
 * Runs the handlers for changes (grouped by container and item type); with `cascade`, also for
 * the changes the handlers make, until nothing is left (at most 8 rounds: copies of copies).
 */
export async function applyChangesWith(
  handlers: Readonly<Record<string, ChangeHandler | undefined>>,
  changes: readonly ContainerChange[],
  cascade = true,
): Promise<WriteResult> {
  let requestCharge = 0;
  const made: ContainerChange[] = [];
  let pending = [...changes];
  for (let round = 0; round < 8 && pending.length > 0; round++) {
    const groups = new Map<string, ContainerChange[]>();
    for (const change of pending) {
      const key = `${change.container}/${change.itemType}`;
      groups.set(key, [...(groups.get(key) ?? []), change]);
    }
    const next: ContainerChange[] = [];
    for (const [key, group] of groups) {
      const handler = handlers[key];
      if (handler === undefined) continue;
      const result = await handler(group);
      requestCharge += result.requestCharge;
      made.push(...result.changes);
      next.push(...result.changes);
    }
    pending = cascade ? next : [];
  }
  return { requestCharge, changes: made };
}
