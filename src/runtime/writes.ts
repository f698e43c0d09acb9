/**
 * The synchronous steps of a write access pattern: the item(s) of each item type that stores the
 * record (replicas, buckets), items moved to a new id or key (moves.ts), embedded children patched
 * into their parent, and transactional batches of an item with its parent's counter.
 */
import { BulkOperationType, type JSONObject, type OperationInput, type PatchOperation } from "@azure/cosmos";
import { changeOf, readValues, withCopies, type Charged, type Runtime, type WriteResult } from "./context.js";
import { DataAccessError } from "./errors.js";
import { appendToBuckets } from "./buckets.js";
import { moveItem } from "./moves.js";
import {
  deletedItem,
  itemKeyOf,
  keyPathSegments,
  materializeItem,
  relatedOf,
  storedAttributes,
  type ItemTypeShape,
  type RelatedData,
  type StoredItem,
} from "./items.js";
import { deleteItem, patchItem, pointer, readItem, toPartitionKey } from "./requests.js";
import type { ItemRef, WriteContext, WriteTask } from "./tasks.js";
import { parseTemplate, renderKeyValue, renderTemplate, type KeyValue } from "./templates.js";

/** Data a write may need besides the record. */
export interface WriteRelated extends RelatedData {
  /** The record before the write (for writes that move an item to a new id or key); found when absent. */
  readonly previous?: Readonly<Record<string, unknown>>;
  /**
   * Parent records by entity name, for parent items whose key the child record does not hold
   * (an order line embedded in an order partitioned by customer: pass the Order record).
   */
  readonly parents?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
}

/** The attributes a parent item's templates render from: the parent record (if given), then the child. */
export function parentAttributes(
  parentEntity: string,
  record: Readonly<Record<string, unknown>>,
  related: WriteRelated,
): Readonly<Record<string, unknown>> {
  const parent = related.parents?.[parentEntity];
  return parent === undefined ? record : { ...parent, ...record };
}

/** The patch operations that set the attributes a write changes (key and id attributes excluded). */
function changedAttributeOperations(
  shape: ItemTypeShape,
  record: Readonly<Record<string, unknown>>,
  changes: readonly string[] | undefined,
): PatchOperation[] {
  const fixed = new Set<string>(["id", "type"]);
  for (const part of [shape.id, ...shape.partitionKey].flatMap((template) => parseTemplate(template))) {
    if (part.kind === "attribute") fixed.add(part.name);
  }
  for (const path of shape.keyPaths) fixed.add(keyPathSegments(path)[0] ?? "");
  const stored = storedAttributes(shape, record);
  return Object.keys(stored)
    .filter((name) => !fixed.has(name) && (changes === undefined || changes.includes(name)))
    .map((name) => ({ op: "set" as const, path: pointer(name), value: stored[name] }));
}

/** Writes the item(s) of one item type for a record: replicas, buckets, counters kept on upserts. */
async function writeItem(
  runtime: Runtime,
  charged: Charged,
  ref: ItemRef & { readonly wholeBuckets?: boolean },
  operation: "create" | "replace" | "upsert" | "patch" | "delete",
  context: WriteContext,
  record: Readonly<Record<string, unknown>>,
  related: WriteRelated,
): Promise<void> {
  const shape = runtime.shape(ref.container, ref.itemType);
  const container = runtime.container(ref.container);
  for (let replica = 0; replica < (shape.replicas ?? 1); replica++) {
    const extra = { ...related, ...(shape.replicas === undefined ? {} : { replica }) };
    const { id, keys } = itemKeyOf(shape, record, extra);
    if (operation === "delete") {
      charged.requestCharge += await deleteItem(container, id, keys);
      charged.changes.push(changeOf(ref, "delete", deletedItem(shape, record, id, keys)));
      continue;
    }
    if (shape.bucket !== undefined) {
      // Append the record(s) to their bucket item; create the bucket on its first records.
      await appendToBuckets(runtime, charged, ref, shape, record, extra, ref.wholeBuckets === true);
      continue;
    }
    if (operation === "patch") {
      const patched = await patchItem(
        container,
        id,
        keys,
        changedAttributeOperations(shape, record, context.changes),
      );
      charged.requestCharge += patched.requestCharge;
      if (patched.item === undefined) {
        throw new DataAccessError("notFound", `${ref.itemType} ${id} does not exist`, { context: { id } });
      }
      charged.changes.push(changeOf(ref, "update", patched.item));
      continue;
    }
    let carried: RelatedData = extra;
    let previous: StoredItem | undefined;
    if (
      operation !== "create" &&
      (shape.counts.length > 0 || shape.embeds.length > 0 || shape.ancestors !== undefined)
    ) {
      // An upsert replaces the whole item: keep the counters and embedded children others maintain.
      const existing = await readItem(container, id, keys);
      charged.requestCharge += existing.requestCharge;
      previous = existing.item;
      if (previous !== undefined) {
        const kept = relatedOf(shape, previous);
        carried = {
          ...extra,
          ...(kept.counts === undefined ? {} : { counts: { ...kept.counts, ...extra.counts } }),
          ...(kept.embeds === undefined ? {} : { embeds: { ...kept.embeds, ...extra.embeds } }),
          ...(kept.ancestors === undefined || extra.ancestors !== undefined
            ? {}
            : { ancestors: kept.ancestors }),
        };
      }
    }
    const item = materializeItem(shape, record, await withCopies(runtime, charged, shape, record, carried));
    const response =
      operation === "create"
        ? await container.items.create<StoredItem>(item)
        : operation === "upsert"
          ? await container.items.upsert<StoredItem>(item)
          : await container.item(id, toPartitionKey(keys)).replace<StoredItem>(item);
    charged.requestCharge += response.requestCharge;
    // An upsert answers 201 when it created the item and 200 when it replaced one.
    const kind =
      operation === "upsert" ? (response.statusCode === 201 ? "create" : "update") : context.change;
    charged.changes.push(changeOf(ref, kind, response.resource ?? item, previous));
  }
}

/** Updates the embedded copy of a child record in its parent item. */
async function writeEmbedded(
  runtime: Runtime,
  charged: Charged,
  task: Extract<WriteTask, { kind: "embed" }>,
  context: WriteContext,
  record: Readonly<Record<string, unknown>>,
  related: WriteRelated,
): Promise<void> {
  const shape = runtime.shape(task.container, task.itemType);
  const values = readValues(runtime, shape, parentAttributes(shape.entity, record, related), task.id);
  const id = renderTemplate(task.id, values);
  const keys = task.partitionKey.map((template) => renderKeyValue(template, values));
  const container = runtime.container(task.container);
  const parent = await readItem(container, id, keys);
  charged.requestCharge += parent.requestCharge;
  if (parent.item === undefined) return;
  let value: unknown;
  if (!task.many) {
    value = context.change === "delete" ? null : { ...record };
  } else {
    const current = Array.isArray(parent.item[task.as]) ? (parent.item[task.as] as unknown[]) : [];
    const key = record[task.childKey];
    const others = current.filter(
      (child) => typeof child !== "object" || child === null || (child as StoredItem)[task.childKey] !== key,
    );
    const existing = current.find((child) => !others.includes(child));
    const children =
      context.change === "delete"
        ? others
        : [{ ...(existing as StoredItem | undefined), ...record }, ...others];
    value = task.latest === undefined ? children : children.slice(0, task.latest);
  }
  const patched = await patchItem(container, id, keys, [{ op: "set", path: pointer(task.as), value }]);
  charged.requestCharge += patched.requestCharge;
  if (patched.item !== undefined) charged.changes.push(changeOf(task, "update", patched.item, parent.item));
}

/** A write and its parent's counter in one logical partition: one transactional batch. */
async function writeBatch(
  runtime: Runtime,
  charged: Charged,
  task: Extract<WriteTask, { kind: "batch" }>,
  context: WriteContext,
  record: Readonly<Record<string, unknown>>,
  related: WriteRelated,
): Promise<void> {
  if (!runtime.transactionalBatch) {
    await writeItem(runtime, charged, task, task.operation, context, record, related);
    for (const increment of task.increments) {
      const shape = runtime.shape(increment.container, increment.itemType);
      const values = readValues(
        runtime,
        shape,
        parentAttributes(shape.entity, record, related),
        increment.id,
      );
      const id = renderTemplate(increment.id, values);
      const keys = increment.partitionKey.map((template) => renderKeyValue(template, values));
      const patched = await patchItem(runtime.container(increment.container), id, keys, [
        { op: "incr", path: pointer(increment.property), value: increment.by },
      ]);
      charged.requestCharge += patched.requestCharge;
      if (patched.item !== undefined) charged.changes.push(changeOf(increment, "update", patched.item));
    }
    return;
  }
  const shape = runtime.shape(task.container, task.itemType);
  const { id, keys } = itemKeyOf(shape, record, related);
  const partitionKey = toPartitionKey(keys);
  const operations: OperationInput[] = [];
  if (task.operation === "delete") {
    operations.push({ operationType: BulkOperationType.Delete, id, partitionKey });
  } else {
    const item = materializeItem(shape, record, await withCopies(runtime, charged, shape, record, related));
    const body = item as JSONObject;
    operations.push(
      task.operation === "create"
        ? { operationType: BulkOperationType.Create, resourceBody: body, partitionKey }
        : task.operation === "upsert"
          ? { operationType: BulkOperationType.Upsert, resourceBody: body, partitionKey }
          : { operationType: BulkOperationType.Replace, id, resourceBody: body, partitionKey },
    );
  }
  const holders: { ref: ItemRef; id: string; keys: KeyValue[] }[] = [];
  for (const increment of task.increments) {
    const holderShape = runtime.shape(increment.container, increment.itemType);
    const values = readValues(
      runtime,
      holderShape,
      parentAttributes(holderShape.entity, record, related),
      increment.id,
    );
    const holderId = renderTemplate(increment.id, values);
    const holderKeys = increment.partitionKey.map((template) => renderKeyValue(template, values));
    holders.push({ ref: increment, id: holderId, keys: holderKeys });
    operations.push({
      operationType: BulkOperationType.Patch,
      id: holderId,
      partitionKey: toPartitionKey(holderKeys),
      resourceBody: { operations: [{ op: "incr", path: pointer(increment.property), value: increment.by }] },
    });
  }
  const response = await runtime.container(task.container).items.batch(operations, partitionKey);
  const results = response.result ?? [];
  charged.requestCharge += results.reduce((sum, result) => sum + result.requestCharge, 0);
  results.forEach((result, index) => {
    if (result.statusCode >= 400) {
      throw new DataAccessError(
        "batchFailed",
        `transactional batch failed: operation ${index} answered ${result.statusCode}`,
        { context: { index, statusCode: result.statusCode } },
      );
    }
  });
  const first = results[0]?.resourceBody;
  const kind =
    task.operation === "upsert" ? (results[0]?.statusCode === 201 ? "create" : "update") : context.change;
  charged.changes.push(
    task.operation === "delete"
      ? changeOf(task, "delete", deletedItem(shape, record, id, keys))
      : changeOf(task, kind, first === undefined ? { ...record, id } : (first as StoredItem)),
  );
  for (const [index, holder] of holders.entries()) {
    let item = results[index + 1]?.resourceBody as StoredItem | undefined;
    if (item === undefined) {
      const read = await readItem(runtime.container(holder.ref.container), holder.id, holder.keys);
      charged.requestCharge += read.requestCharge;
      item = read.item;
    }
    if (item !== undefined) charged.changes.push(changeOf(holder.ref, "update", item));
  }
}

/** Runs the synchronous steps of a write access pattern for one record. */
export async function runWrite(
  runtime: Runtime,
  context: WriteContext,
  tasks: readonly WriteTask[],
  record: Readonly<Record<string, unknown>>,
  related: WriteRelated,
): Promise<WriteResult> {
  const charged: Charged = { requestCharge: 0, changes: [] };
  for (const task of tasks) {
    switch (task.kind) {
      case "item":
        await writeItem(runtime, charged, task, task.operation, context, record, related);
        break;
      case "move":
        await moveItem(runtime, charged, task, context, record, related);
        break;
      case "embed":
        await writeEmbedded(runtime, charged, task, context, record, related);
        break;
      case "batch":
        await writeBatch(runtime, charged, task, context, record, related);
        break;
      default:
        task satisfies never;
    }
  }
  return charged;
}
