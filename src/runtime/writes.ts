/**
 * The synchronous steps of a write access pattern: the item(s) of each item type that stores the
 * record (replicas, buckets), items moved to a new id or key (moves.ts), embedded children patched
 * into their parent, and transactional batches of an item with its parent's counter.
 */
import {
  BulkOperationType,
  type Container,
  type JSONObject,
  type OperationInput,
  type PartitionKey,
} from "@azure/cosmos";
import {
  boundAttributes,
  changeOf,
  readValues,
  withCopies,
  type Charged,
  type Runtime,
  type WriteResult,
} from "./context.js";
import { DataAccessError, chargeOf, statusOf } from "./errors.js";
import { isIncrement, patchOf } from "./increments.js";
import { appendToBuckets } from "./buckets.js";
import { moveItem } from "./moves.js";
import {
  deletedItem,
  isTombstone,
  itemKeyOf,
  keyPathSegments,
  materializeItem,
  recordOf,
  storedAttributes,
  type ItemTypeShape,
  type RelatedData,
  type StoredItem,
} from "./items.js";
import { livePredicate, removeItem } from "./removal.js";
import { MAX_REWRITE_ATTEMPTS, rewriteItem } from "./rewrite.js";
import { backoffDelay } from "./retry.js";
import { asItems, batchError, patchItem, pointer, queryItems, readItem, toPartitionKey } from "./requests.js";
import { bindParameters } from "./parameters.js";
import { compareKeys, compareValues } from "./reads.js";
import { sameKey } from "./record-keys.js";
import type { AddressBinding, ItemRef, WriteContext, WriteTask } from "./tasks.js";
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

/**
 * The attributes a parent item's templates render from: the parent record (if given), then what
 * the child's record gives through `bind` (its via holds the parent's key). Never the child's
 * other attributes: a like's `userId` (the liker) is not its post's `userId` (the author).
 */
export function parentAttributes(
  parentEntity: string,
  bind: AddressBinding,
  record: Readonly<Record<string, unknown>>,
  related: WriteRelated,
): Readonly<Record<string, unknown>> {
  const parent = related.parents?.[parentEntity];
  const bound = boundAttributes(bind, record);
  return parent === undefined ? bound : { ...parent, ...bound };
}

/**
 * The patch of the attributes a write changes (key and id attributes excluded): `set` for values,
 * `incr` for increments (`{ incr: -2, min: 0 }`), conditional on their bounds.
 */
function changedAttributePatch(
  shape: ItemTypeShape,
  record: Readonly<Record<string, unknown>>,
  changes: readonly string[] | undefined,
  guard?: string,
  copies: Readonly<Record<string, unknown>> = {},
): ReturnType<typeof patchOf> {
  const fixed = new Set<string>(["id", "type"]);
  for (const part of [shape.id, ...shape.partitionKey].flatMap((template) => parseTemplate(template))) {
    if (part.kind === "attribute") fixed.add(part.name);
  }
  for (const path of shape.keyPaths) fixed.add(keyPathSegments(path)[0] ?? "");
  const stored = storedAttributes(shape, record);
  const changed = Object.keys(stored).filter(
    (name) => !fixed.has(name) && (changes === undefined || changes.includes(name)),
  );
  return patchOf({ ...Object.fromEntries(changed.map((name) => [name, stored[name]])), ...copies }, guard);
}

/**
 * The copies a patch must set because it re-parents the item (it changes an attribute the copy's
 * source is addressed by, e.g. the order's accountId): the new parent is read (`withCopies`) and
 * its values are set in the same patch, by copy property. Planned by src/planner/plan-copy-refresh.ts.
 */
async function reparentedCopies(
  runtime: Runtime,
  charged: Charged,
  shape: ItemTypeShape,
  record: Readonly<Record<string, unknown>>,
  context: WriteContext,
  related: WriteRelated,
): Promise<Readonly<Record<string, unknown>>> {
  // Without a `changes` list every attribute the record carries may have changed (the previous
  // value is not known here): the parent is read whenever the record carries the via.
  const changed = new Set(context.changes ?? Object.keys(record));
  const sources = runtime.copySources(shape.container, shape.type);
  // The source's templates name its own attributes; `bind` says which of the record's
  // attributes holds each (an order's `accountId` may be a message's `creatorId`).
  const moved = Object.keys(sources).filter((entity) => {
    const source = sources[entity];
    return (
      source !== undefined &&
      [source.id, ...source.partitionKey].some((template) =>
        parseTemplate(template).some((part) => {
          if (part.kind !== "attribute") return false;
          const property = source.bind[part.name];
          return property !== undefined && changed.has(property);
        }),
      )
    );
  });
  const refreshed = shape.copies.filter((copy) => copy.key === undefined && moved.includes(copy.from.entity));
  if (refreshed.length === 0) return {};
  const { copies } = await withCopies(runtime, charged, shape, record, related);
  return Object.fromEntries(
    refreshed.map((copy) => [copy.as, copies?.[copy.from.entity]?.[copy.from.attribute] ?? null]),
  );
}

/** Refuses increments in a write that replaces whole items (only a patch adds to a value). */
function refuseIncrements(record: Readonly<Record<string, unknown>>, operation: string): void {
  const name = Object.keys(record).find((key) => isIncrement(record[key]));
  if (name === undefined) return;
  throw new DataAccessError(
    "badIncrement",
    `"${name}" is an increment, which only a patch write applies (this write is a ${operation})`,
    {
      context: { attribute: name },
    },
  );
}

/**
 * A patch write: the changed attributes set, increments within their bounds, never on a
 * soft-delete tombstone (a deleted item is `notFound`, as a plain delete's would be).
 */
async function patchAttributes(
  charged: Charged,
  container: Container,
  shape: ItemTypeShape,
  id: string,
  keys: readonly KeyValue[],
  record: Readonly<Record<string, unknown>>,
  context: WriteContext,
  copies: Readonly<Record<string, unknown>> = {},
): Promise<StoredItem | undefined> {
  const bounds = changedAttributePatch(shape, record, context.changes, undefined, copies);
  const patch = changedAttributePatch(shape, record, context.changes, livePredicate(shape), copies);
  const notFound = (): DataAccessError =>
    new DataAccessError("notFound", `${shape.type} ${id} does not exist`, { context: { id } });
  if (patch.operations.length === 0) {
    // Nothing to change (an entity without attributes besides its keys): Cosmos DB refuses a
    // patch without operations, and nothing is written, so the change feed has no event.
    const read = await readItem(container, id, keys);
    charged.requestCharge += read.requestCharge;
    if (read.item === undefined || isTombstone(shape, read.item)) throw notFound();
    return undefined;
  }
  try {
    const patched = await patchItem(container, id, keys, patch.operations, patch.condition);
    charged.requestCharge += patched.requestCharge;
    if (patched.item === undefined) throw notFound();
    return patched.item;
  } catch (error) {
    charged.requestCharge += chargeOf(error);
    if (statusOf(error) !== 412 || patch.condition === undefined) throw error;
    if (bounds.condition !== undefined) {
      // Which condition failed: a tombstone is notFound, a live item crossed a bound.
      const current = await readItem(container, id, keys);
      charged.requestCharge += current.requestCharge;
      if (current.item !== undefined && !isTombstone(shape, current.item)) {
        throw new DataAccessError(
          "boundViolated",
          `${shape.type} ${id}: the increment would cross its bound (${bounds.condition})`,
          { cause: error, context: { id, condition: bounds.condition } },
        );
      }
    }
    throw notFound();
  }
}

/**
 * Writes the item(s) of one item type for a record: replicas, buckets, counters kept on upserts.
 * A patch sets what `given` (the caller's input) holds; `record` may be completed by a read.
 */
async function writeItem(
  runtime: Runtime,
  charged: Charged,
  ref: ItemRef & { readonly wholeBuckets?: boolean },
  operation: "create" | "replace" | "upsert" | "patch" | "delete",
  context: WriteContext,
  record: Readonly<Record<string, unknown>>,
  related: WriteRelated,
  given: Readonly<Record<string, unknown>> = record,
): Promise<void> {
  const shape = runtime.shape(ref.container, ref.itemType);
  const container = runtime.container(ref.container);
  for (let replica = 0; replica < (shape.replicas ?? 1); replica++) {
    const extra = { ...related, ...(shape.replicas === undefined ? {} : { replica }) };
    const { id, keys } = itemKeyOf(shape, record, extra);
    if (operation === "delete") {
      const removed = await removeItem(container, shape, id, keys);
      charged.requestCharge += removed.requestCharge;
      // A missing item is no error, and no change: counters and copies must not follow it twice.
      if (removed.removed)
        charged.changes.push(
          changeOf(ref, "delete", removed.tombstone ?? deletedItem(shape, record, id, keys)),
        );
      continue;
    }
    if (shape.bucket !== undefined) {
      // Append the record(s) to their bucket item; create the bucket on its first records.
      await appendToBuckets(runtime, charged, ref, shape, record, extra, ref.wholeBuckets === true);
      continue;
    }
    if (operation === "patch") {
      // Addressed by the record (completed by a `current` task), patched with what was given.
      const copies = await reparentedCopies(runtime, charged, shape, given, context, extra);
      const patched = await patchAttributes(charged, container, shape, id, keys, given, context, copies);
      if (patched !== undefined) charged.changes.push(changeOf(ref, "update", patched));
      continue;
    }
    refuseIncrements(record, operation);
    const written = await rewriteItem(
      runtime,
      charged,
      container,
      shape,
      operation,
      { id, keys },
      record,
      extra,
    );
    // An upsert that created the item is a create; one that replaced it is an update.
    const kind = operation === "upsert" ? (written.created ? "create" : "update") : context.change;
    charged.changes.push(changeOf(ref, kind, written.item, written.previous));
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
  const values = readValues(
    runtime,
    shape,
    parentAttributes(shape.entity, task.bind, record, related),
    task.id,
  );
  const id = renderTemplate(task.id, values);
  const keys = task.partitionKey.map((template) => renderKeyValue(template, values));
  const container = runtime.container(task.container);
  // Read, change the embedded value, patch it only if the parent is unchanged (ETag): two
  // children written at once both land; a lost race is read again, up to MAX_REWRITE_ATTEMPTS.
  for (let attempt = 1; attempt <= MAX_REWRITE_ATTEMPTS; attempt++) {
    const parent = await readItem(container, id, keys);
    charged.requestCharge += parent.requestCharge;
    if (parent.item === undefined || isTombstone(shape, parent.item)) return;
    const embedded = embeddedValue(task, context, record, parent.item);
    if (embedded.kind === "unchanged") return;
    const value =
      embedded.kind === "refill"
        ? await newestChildren(runtime, charged, task, record, embedded.value)
        : embedded.value;
    const etag = parent.item["_etag"];
    try {
      const response = await container
        .item(id, toPartitionKey(keys))
        .patch<StoredItem>(
          [{ op: "set", path: pointer(task.as), value }],
          typeof etag === "string" ? { accessCondition: { type: "IfMatch", condition: etag } } : {},
        );
      charged.requestCharge += response.requestCharge;
      if (response.resource !== undefined) {
        charged.changes.push(changeOf(task, "update", response.resource, parent.item));
      }
      return;
    } catch (error) {
      charged.requestCharge += chargeOf(error);
      if (statusOf(error) === 404) return;
      if (statusOf(error) !== 412) throw error;
      await new Promise((resolve) =>
        setTimeout(resolve, backoffDelay(attempt, { initialDelayMs: 10, maxDelayMs: 1000 }, runtime.random)),
      );
    }
  }
  throw new DataAccessError(
    "conflict",
    `${task.itemType} ${id} kept changing while its ${task.as} was written (${MAX_REWRITE_ATTEMPTS} attempts)`,
    { context: { container: task.container, id } },
  );
}

/**
 * The embedded child after a write of `record` over it: the given attributes over the embedded
 * ones, an increment (`{ incr: -1 }`) added to the embedded value (the parent's read-modify-write
 * is conditional on its ETag, so two increments both land).
 */
function mergeChild(
  existing: Readonly<Record<string, unknown>> | undefined,
  record: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...existing };
  for (const [name, value] of Object.entries(record)) {
    if (!isIncrement(value)) {
      merged[name] = value;
      continue;
    }
    const before = typeof merged[name] === "number" ? merged[name] : 0;
    merged[name] = before + value.incr;
  }
  return merged;
}

/**
 * The parent's embedded value with the child record written or removed: the value to patch,
 * nothing to change, or (a `latest` embed) a refill from the children's own items because the
 * kept children may no longer be the newest; `value` is then the best the parent alone gives.
 */
type EmbeddedValue =
  | { readonly kind: "value"; readonly value: unknown }
  | { readonly kind: "unchanged" }
  | { readonly kind: "refill"; readonly value: unknown };

function embeddedValue(
  task: Extract<WriteTask, { kind: "embed" }>,
  context: WriteContext,
  record: Readonly<Record<string, unknown>>,
  parent: StoredItem,
): EmbeddedValue {
  if (!task.many) {
    if (context.change === "delete") return { kind: "value", value: null };
    // An update's input holds the changed attributes only: the rest stays as embedded.
    const embedded = parent[task.as];
    const previous =
      context.change === "update" && typeof embedded === "object" && embedded !== null
        ? (embedded as StoredItem)
        : undefined;
    return { kind: "value", value: mergeChild(previous, record) };
  }
  const current = Array.isArray(parent[task.as]) ? (parent[task.as] as unknown[]) : [];
  const others = current.filter(
    (child) =>
      typeof child !== "object" || child === null || !sameKey(task.childKey, child as StoredItem, record),
  );
  const existing = current.find((child) => !others.includes(child)) as StoredItem | undefined;
  if (task.latest === undefined) {
    const children = context.change === "delete" ? others : [mergeChild(existing, record), ...others];
    return { kind: "value", value: children };
  }
  return newestKept(task, task.latest, context, record, existing, others as StoredItem[]);
}

/**
 * A `latest: N` embed after one child's write: the N newest by `latest.by` (ties by the child key,
 * greater first). The parent holds only the N kept, so when the kept set was full and a kept child
 * leaves it (deleted, or made older than every other kept child) the next newest is unknown here:
 * refill. A child not kept enters only when newer than the oldest kept (or the set has room); an
 * update that does not change its time keeps a kept child's place.
 */
function newestKept(
  task: Extract<WriteTask, { kind: "embed" }>,
  latest: NonNullable<Extract<WriteTask, { kind: "embed" }>["latest"]>,
  context: WriteContext,
  record: Readonly<Record<string, unknown>>,
  existing: StoredItem | undefined,
  others: StoredItem[],
): EmbeddedValue {
  const newer = (a: Readonly<Record<string, unknown>>, b: Readonly<Record<string, unknown>>): number =>
    compareValues(b[latest.by], a[latest.by]) || compareKeys(task.childKey, b, a);
  const full = others.length + (existing === undefined ? 0 : 1) >= latest.count;
  if (context.change === "delete") {
    if (existing === undefined) return { kind: "unchanged" };
    return full ? { kind: "refill", value: others } : { kind: "value", value: others };
  }
  if (existing === undefined) {
    const oldest = others.at(-1);
    if (full && oldest !== undefined && newer(record, oldest) >= 0) return { kind: "unchanged" };
    const entered = [mergeChild(undefined, record), ...others].sort(newer).slice(0, latest.count);
    // A partial write (a patch of some attributes) cannot give the whole child: read it.
    return context.changes === undefined
      ? { kind: "value", value: entered }
      : { kind: "refill", value: entered };
  }
  const merged = mergeChild(existing, record);
  const ordered = [merged, ...others].sort(newer);
  const demoted = full && ordered.at(-1) === merged && newer(merged, existing) > 0;
  return demoted
    ? { kind: "refill", value: ordered }
    : { kind: "value", value: ordered.slice(0, latest.count) };
}

/**
 * The newest children of the parent, read from the children's own items by the planned query
 * (`latest.refill`); without one (the model stores no complete child elsewhere) the parent's own
 * best value stands, as the plan reports.
 */
async function newestChildren(
  runtime: Runtime,
  charged: Charged,
  task: Extract<WriteTask, { kind: "embed" }>,
  record: Readonly<Record<string, unknown>>,
  fallback: unknown,
): Promise<unknown> {
  const refill = task.latest?.refill;
  if (refill === undefined || task.latest === undefined) return fallback;
  const shape = runtime.shape(refill.container, refill.itemType);
  const values = readValues(runtime, shape, record);
  const found = await queryItems(
    runtime.container(refill.container),
    refill.sql,
    bindParameters(refill.parameters, values, task.latest.count),
    refill.partitionKey?.map((template) => renderKeyValue(template, values)),
  );
  charged.requestCharge += found.requestCharge;
  return asItems(found.items)
    .filter((item) => !isTombstone(shape, item))
    .map((item) => recordOf(shape, item))
    .slice(0, task.latest.count);
}

type BatchTask = Extract<WriteTask, { kind: "batch" }>;

/** A parent's counter item, addressed from the record: the increment, its id and key values. */
interface Holder {
  readonly ref: BatchTask["increments"][number];
  readonly id: string;
  readonly keys: KeyValue[];
}

/** The counter item an increment of a batch task patches, addressed from the record and its related data. */
function holderOf(
  runtime: Runtime,
  increment: BatchTask["increments"][number],
  record: Readonly<Record<string, unknown>>,
  related: WriteRelated,
): Holder {
  const shape = runtime.shape(increment.container, increment.itemType);
  const values = readValues(
    runtime,
    shape,
    parentAttributes(shape.entity, increment.bind, record, related),
    increment.id,
  );
  return {
    ref: increment,
    id: renderTemplate(increment.id, values),
    keys: increment.partitionKey.map((template) => renderKeyValue(template, values)),
  };
}

/** The write of a batch task as a batch operation (a soft delete is a tombstone patch). */
async function primaryOperation(
  runtime: Runtime,
  charged: Charged,
  task: BatchTask,
  shape: ItemTypeShape,
  record: Readonly<Record<string, unknown>>,
  related: WriteRelated,
  { id, partitionKey }: { id: string; partitionKey: PartitionKey },
): Promise<OperationInput> {
  if (task.operation === "delete" && shape.softDelete !== undefined) {
    return {
      operationType: BulkOperationType.Patch,
      id,
      partitionKey,
      resourceBody: {
        operations: [
          { op: "set", path: pointer(shape.softDelete.property), value: true },
          { op: "set", path: "/ttl", value: shape.softDelete.ttlSeconds },
        ],
      },
    };
  }
  if (task.operation === "delete") return { operationType: BulkOperationType.Delete, id, partitionKey };
  const item = materializeItem(shape, record, await withCopies(runtime, charged, shape, record, related));
  const body = item as JSONObject;
  return task.operation === "create"
    ? { operationType: BulkOperationType.Create, resourceBody: body, partitionKey }
    : task.operation === "upsert"
      ? { operationType: BulkOperationType.Upsert, resourceBody: body, partitionKey }
      : { operationType: BulkOperationType.Replace, id, resourceBody: body, partitionKey };
}

/** Without transactional batches: the write, then each counter patched on its own. */
async function writeUnbatched(
  runtime: Runtime,
  charged: Charged,
  task: BatchTask,
  context: WriteContext,
  record: Readonly<Record<string, unknown>>,
  related: WriteRelated,
): Promise<void> {
  await writeItem(runtime, charged, task, task.operation, context, record, related);
  for (const increment of task.increments) {
    const holder = holderOf(runtime, increment, record, related);
    const patched = await patchItem(runtime.container(holder.ref.container), holder.id, holder.keys, [
      { op: "incr", path: pointer(holder.ref.property), value: holder.ref.by },
    ]);
    charged.requestCharge += patched.requestCharge;
    if (patched.item !== undefined) charged.changes.push(changeOf(holder.ref, "update", patched.item));
  }
}

/** A write and its parent's counter in one logical partition: one transactional batch. */
async function writeBatch(
  runtime: Runtime,
  charged: Charged,
  task: BatchTask,
  context: WriteContext,
  record: Readonly<Record<string, unknown>>,
  related: WriteRelated,
): Promise<void> {
  if (!runtime.transactionalBatch) {
    await writeUnbatched(runtime, charged, task, context, record, related);
    return;
  }
  const shape = runtime.shape(task.container, task.itemType);
  const { id, keys } = itemKeyOf(shape, record, related);
  const partitionKey = toPartitionKey(keys);
  const operations: OperationInput[] = [
    await primaryOperation(runtime, charged, task, shape, record, related, { id, partitionKey }),
  ];
  const holders = task.increments.map((increment) => holderOf(runtime, increment, record, related));
  for (const holder of holders) {
    operations.push({
      operationType: BulkOperationType.Patch,
      id: holder.id,
      partitionKey: toPartitionKey(holder.keys),
      resourceBody: {
        operations: [{ op: "incr", path: pointer(holder.ref.property), value: holder.ref.by }],
      },
    });
  }
  const response = await runtime.container(task.container).items.batch(operations, partitionKey);
  const results = response.result ?? [];
  charged.requestCharge += results.reduce((sum, result) => sum + result.requestCharge, 0);
  const failed = batchError(`${task.operation} ${task.itemType} ${id}`, results, {
    container: task.container,
    id,
  });
  if (failed !== undefined) throw failed;
  const first = results[0]?.resourceBody;
  const kind =
    task.operation === "upsert" ? (results[0]?.statusCode === 201 ? "create" : "update") : context.change;
  charged.changes.push(
    task.operation === "delete"
      ? changeOf(
          task,
          "delete",
          (shape.softDelete === undefined ? undefined : (first as StoredItem | undefined)) ??
            deletedItem(shape, record, id, keys),
        )
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

/**
 * The record completed with its current item (`current` task): what the input gives wins. A
 * missing item is `notFound` for a patch; for a delete there is nothing to remove (undefined).
 */
async function currentRecord(
  runtime: Runtime,
  charged: Charged,
  task: Extract<WriteTask, { kind: "current" }>,
  context: WriteContext,
  record: Readonly<Record<string, unknown>>,
  related: WriteRelated,
): Promise<Readonly<Record<string, unknown>> | undefined> {
  const shape = runtime.shape(task.container, task.itemType);
  const replica = shape.replicas === undefined ? {} : { replica: 0 };
  const { id, keys } = itemKeyOf(shape, record, { ...related, ...replica });
  const read = await readItem(runtime.container(task.container), id, keys);
  charged.requestCharge += read.requestCharge;
  if (read.item === undefined || isTombstone(shape, read.item)) {
    if (context.change === "delete") return undefined;
    throw new DataAccessError("notFound", `${shape.type} ${id} does not exist`, { context: { id } });
  }
  return { ...recordOf(shape, read.item), ...record };
}

/** Runs the synchronous steps of a write access pattern for one record. */
export async function runWrite(
  runtime: Runtime,
  context: WriteContext,
  tasks: readonly WriteTask[],
  given: Readonly<Record<string, unknown>>,
  related: WriteRelated,
): Promise<WriteResult> {
  let record = given;
  const charged: Charged = { requestCharge: 0, changes: [] };
  for (const task of tasks) {
    switch (task.kind) {
      case "current": {
        const current = await currentRecord(runtime, charged, task, context, record, related);
        if (current === undefined) return charged;
        record = current;
        break;
      }
      case "item":
        await writeItem(runtime, charged, task, task.operation, context, record, related, given);
        break;
      case "move":
        // A move finds the current item by the key and merges what the input gives into it.
        await moveItem(runtime, charged, task, context, given, related);
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
