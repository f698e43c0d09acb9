/**
 * Moving an item whose id or partition key a write changes (Cosmos DB cannot change a partition
 * key value in place): find the current item, then create the record under its new id and key
 * and delete the old item. The two requests are in two logical partitions, so no transactional
 * batch can hold them: the create comes first, so a failure between them leaves a duplicate that
 * a retry removes, never a lost record. When the address does not change, the write stays in
 * place (a patch, a replace or an upsert).
 */
import { keyFields, sameKey } from "./record-keys.js";
import { changeOf, readValues, type Charged, type Runtime } from "./context.js";
import { DataAccessError } from "./errors.js";
import {
  deletedItem,
  isTombstone,
  itemKeyOf,
  keyPathSegments,
  liveItem,
  materializeItem,
  recordOf,
  relatedOf,
  storedAttributes,
  type ItemTypeShape,
  type RelatedData,
  type StoredItem,
} from "./items.js";
import { removeItem } from "./removal.js";
import { asItems, patchItem, pointer, queryItems, readItem } from "./requests.js";
import { rewriteItem } from "./rewrite.js";
import type { WriteContext, WriteTask } from "./tasks.js";
import { parseTemplate, renderKeyValue, renderTemplate, type KeyValue } from "./templates.js";
import { bindParameters } from "./parameters.js";

/** The move task of a write (see `WriteTask`). */
export type MoveTask = Extract<WriteTask, { kind: "move" }>;

/** Data a move may be given: the record before the write (then no search for the current item). */
export interface MoveRelated extends RelatedData {
  readonly previous?: Readonly<Record<string, unknown>>;
}

function sameAddress(
  a: { readonly id: string; readonly keys: readonly KeyValue[] },
  b: { readonly id: string; readonly keys: readonly KeyValue[] },
): boolean {
  return a.id === b.id && JSON.stringify(a.keys) === JSON.stringify(b.keys);
}

/**
 * The current item of replica 0 for the record: at the address the caller's previous record
 * gives, else at the address a helper item names (read first), else by the task's query on the
 * entity key. Undefined when no item holds the record.
 */
async function currentItem(
  runtime: Runtime,
  charged: Charged,
  task: MoveTask,
  shape: ItemTypeShape,
  record: Readonly<Record<string, unknown>>,
  related: MoveRelated,
): Promise<StoredItem | undefined> {
  const container = runtime.container(task.container);
  const replica = shape.replicas === undefined ? {} : { replica: 0 };
  const readAt = async (source: Readonly<Record<string, unknown>>): Promise<StoredItem | undefined> => {
    const { id, keys } = itemKeyOf(shape, source, replica);
    const read = await readItem(container, id, keys);
    charged.requestCharge += read.requestCharge;
    return liveItem(shape, read.item);
  };
  if (related.previous !== undefined) return readAt({ ...related.previous, ...keyOnly(task, record) });
  if (task.helper !== undefined) {
    const helperShape = runtime.shape(task.helper.container, task.helper.itemType);
    const values = readValues(runtime, helperShape, record, task.helper.id);
    const found = await readItem(
      runtime.container(task.helper.container),
      renderTemplate(task.helper.id, values),
      task.helper.partitionKey.map((template) => renderKeyValue(template, values)),
    );
    charged.requestCharge += found.requestCharge;
    found.item = liveItem(helperShape, found.item);
    if (found.item !== undefined && task.helper.derives) {
      // The helper is the record itself: the item is what the record makes of it.
      return materializeItem(shape, recordOf(helperShape, found.item), replica);
    }
    if (found.item !== undefined) {
      const item = await readAt(recordOf(helperShape, found.item));
      // The helper is a copy that may lag: trust only an item of the same record.
      if (item !== undefined && entityKeyMatches(task, item, record)) return item;
    }
  }
  const values = { attributes: record };
  const result = await queryItems(
    container,
    task.query.sql,
    bindParameters(task.query.parameters, values, 1),
    task.query.partitionKey?.map((template) => renderKeyValue(template, values)),
  );
  charged.requestCharge += result.requestCharge;
  return asItems(result.items).find((item) => !isTombstone(shape, item));
}

/** The record's entity key (the attributes a move never changes). */
function keyOnly(task: MoveTask, record: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return keyFields(task.key, record);
}

function entityKeyMatches(
  task: MoveTask,
  item: StoredItem,
  record: Readonly<Record<string, unknown>>,
): boolean {
  return sameKey(task.key, item, record);
}

/** The patch operations that set what a write changes, without the id, type and key properties. */
function changedOperations(
  shape: ItemTypeShape,
  record: Readonly<Record<string, unknown>>,
  context: WriteContext,
): { op: "set"; path: string; value: unknown }[] {
  const fixed = new Set<string>(["id", "type"]);
  for (const part of [shape.id, ...shape.partitionKey].flatMap((template) => parseTemplate(template))) {
    if (part.kind === "attribute") fixed.add(part.name);
  }
  for (const path of shape.keyPaths) fixed.add(keyPathSegments(path)[0] ?? "");
  const stored = storedAttributes(shape, record);
  return Object.keys(stored)
    .filter((name) => !fixed.has(name) && (context.changes === undefined || context.changes.includes(name)))
    .map((name) => ({ op: "set" as const, path: pointer(name), value: stored[name] }));
}

/**
 * Writes a record whose write may change the item's id or key: finds the current item, writes in
 * place when the address stays, else creates the item at its new address (every replica) and
 * deletes the old one. Reports a create and a delete, as the change feed shows them.
 */
export async function moveItem(
  runtime: Runtime,
  charged: Charged,
  task: MoveTask,
  context: WriteContext,
  record: Readonly<Record<string, unknown>>,
  related: MoveRelated,
): Promise<void> {
  const shape = runtime.shape(task.container, task.itemType);
  const container = runtime.container(task.container);
  const current = await currentItem(runtime, charged, task, shape, record, related);
  if (current === undefined && task.operation !== "upsert") {
    throw new DataAccessError(
      "notFound",
      `${task.itemType} ${JSON.stringify(task.key.length === 1 ? record[task.key[0] ?? ""] : keyFields(task.key, record))} does not exist`,
      { context: { key: keyFields(task.key, record) } },
    );
  }
  const previous = current === undefined ? undefined : recordOf(shape, current);
  const merged = task.operation === "patch" ? { ...previous, ...record } : record;
  const kept = current === undefined ? {} : relatedOf(shape, current);
  for (let replica = 0; replica < (shape.replicas ?? 1); replica++) {
    const extra = shape.replicas === undefined ? {} : { replica };
    const next = itemKeyOf(shape, merged, extra);
    const old = previous === undefined ? undefined : itemKeyOf(shape, previous, extra);
    if (old !== undefined && sameAddress(old, next) && task.operation === "patch") {
      const patched = await patchItem(
        container,
        next.id,
        next.keys,
        changedOperations(shape, record, context),
      );
      charged.requestCharge += patched.requestCharge;
      if (patched.item !== undefined) charged.changes.push(changeOf(task, "update", patched.item, current));
      continue;
    }
    // Counters and embedded children others maintain stay with the item; copies are read again
    // when the record now points at another source.
    const carried: RelatedData = {
      ...related,
      ...extra,
      ...(kept.counts === undefined ? {} : { counts: { ...kept.counts, ...related.counts } }),
      ...(kept.embeds === undefined ? {} : { embeds: { ...kept.embeds, ...related.embeds } }),
      ...(kept.ancestors === undefined || related.ancestors !== undefined
        ? {}
        : { ancestors: kept.ancestors }),
    };
    if (old !== undefined && sameAddress(old, next)) {
      // In place: what others maintain in the item (counters, embeds, counted flags) stays as it is.
      const written = await rewriteItem(runtime, charged, container, shape, "replace", next, merged, {
        ...related,
        ...extra,
      });
      charged.changes.push(changeOf(task, "update", written.item, current));
      continue;
    }
    // A create (a lookup item's unique value: 409 when another record holds it), also over a
    // soft-delete tombstone not expired yet at the new address.
    const created = await rewriteItem(runtime, charged, container, shape, "create", next, merged, carried);
    charged.changes.push(changeOf(task, "create", created.item));
    if (old === undefined || previous === undefined) continue;
    // The old item: deleted, or a tombstone when deletes are soft (the feed carries it).
    const removed = await removeItem(container, shape, old.id, old.keys);
    charged.requestCharge += removed.requestCharge;
    const gone =
      removed.tombstone ??
      (replica === 0 && current !== undefined ? current : deletedItem(shape, previous, old.id, old.keys));
    charged.changes.push(changeOf(task, "delete", gone));
  }
}
