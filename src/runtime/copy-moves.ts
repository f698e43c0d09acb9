/**
 * Copies whose address moves with their source record. A copy keyed by an attribute that writes
 * change is upserted under its new key; the copy under the old key is found (the previous record
 * when the change carries it, else a query by the entity key once the upsert has created a copy
 * at a new address) and deleted. A source that moves (a create and a delete in two logical
 * partitions, which the change feed delivers in any order) must not lose the copy its create
 * wrote: the delete removes the copy only if it still holds the deleted version. A bounded set the
 * copy leaves is refilled from the source before the copy goes (`bounded-set-refill.ts`).
 *
 * Without the previous record (the latest-version feed), the old copy is searched only when the
 * upsert created the new one; a process that dies between that upsert and the delete would find,
 * on redelivery, the new copy there and search nothing. So a batch of such changes first records
 * the searches it may make in its journal (`recordStaleSearches`, one lease write per batch), and
 * a batch that did not finish has them replayed (`replayStaleSearches`) before it is read again.
 */
import { changeOf, type Charged, type ItemChange, type Runtime } from "./context.js";
import {
  deletedItem,
  itemKeyOf,
  partitionKeyOfItem,
  recordOf,
  relatedOf,
  type ItemTypeShape,
  type StoredItem,
} from "./items.js";
import type { IntentEntry } from "./journal.js";
import { bindParameters } from "./parameters.js";
import { removeItem } from "./removal.js";
import { asItems, queryItems, readItem } from "./requests.js";
import type { ItemRef, MaintenanceTask } from "./tasks.js";
import { renderKeyValue, templateAttributes, type KeyValue } from "./templates.js";
import { refillBoundedSet } from "./bounded-set-refill.js";

type CopyTask = Extract<MaintenanceTask, { kind: "copy" }>;

/** An item's id and partition key values, comparable as text. */
function addressText(id: unknown, keys: readonly KeyValue[]): string {
  return JSON.stringify([id, keys]);
}

/**
 * Deletes the copy of a deleted source record at `id`/`keys`; with `checkBeforeDelete`, only if
 * the copy still holds the deleted values (else the source moved and its create already wrote
 * the copy anew).
 */
export async function deleteCopy(
  runtime: Runtime,
  charged: Charged,
  task: CopyTask,
  shape: ItemTypeShape,
  record: Readonly<Record<string, unknown>>,
  id: string,
  keys: KeyValue[],
): Promise<void> {
  const container = runtime.container(task.target.container);
  const checked = task.checkBeforeDelete ?? [];
  if (checked.length > 0) {
    const current = await readItem(container, id, keys);
    charged.requestCharge += current.requestCharge;
    if (current.item === undefined) return;
    const held = recordOf(shape, current.item);
    const same = checked.every((name) => JSON.stringify(held[name]) === JSON.stringify(record[name]));
    if (!same) return;
  }
  // A copy whose deletes are soft (it carries deletes further) becomes a tombstone.
  const removed = await removeItem(container, shape, id, keys);
  charged.requestCharge += removed.requestCharge;
  charged.changes.push(
    changeOf(task.target, "delete", removed.tombstone ?? deletedItem(shape, record, id, keys)),
  );
}

/**
 * After the copies of a changed record were upserted at `written` (one address per replica):
 * deletes its copies at other addresses, found from the previous record when the change has it,
 * else (only when an upsert created a copy of a record that is not new) by the stale query.
 */
export async function removeStaleCopies(
  runtime: Runtime,
  charged: Charged,
  task: CopyTask,
  shape: ItemTypeShape,
  sourceShape: ItemTypeShape,
  change: ItemChange,
  written: readonly { readonly id: string; readonly keys: readonly KeyValue[] }[],
  created: boolean,
): Promise<void> {
  if (task.stale === undefined) return;
  const container = runtime.container(task.target.container);
  const current = new Set(written.map((address) => addressText(address.id, address.keys)));
  let stale: { id: string; keys: KeyValue[] }[];
  if (change.previous !== undefined) {
    const previous = recordOf(sourceShape, change.previous);
    stale = written.map((_, replica) =>
      itemKeyOf(shape, previous, shape.replicas === undefined ? {} : { replica }),
    );
  } else {
    if (!created || change.kind === "create") return;
    const values = { attributes: recordOf(sourceShape, change.item) };
    const found = await queryItems(
      container,
      task.stale.sql,
      bindParameters(task.stale.parameters, values, 1),
      task.stale.partitionKey?.map((template) => renderKeyValue(template, values)),
    );
    charged.requestCharge += found.requestCharge;
    stale = asItems(found.items).flatMap((item: StoredItem) =>
      typeof item["id"] === "string" ? [{ id: item["id"], keys: partitionKeyOfItem(shape, item) }] : [],
    );
  }
  if (shape.keepLatest !== undefined && task.bounded?.refill !== undefined) {
    // A member that left a bounded set (its key changed): the next newest takes its place in
    // the set it left, before it goes.
    const refilled = new Set<string>();
    for (const address of stale) {
      if (current.has(addressText(address.id, address.keys))) continue;
      const held = await readItem(container, address.id, address.keys);
      charged.requestCharge += held.requestCharge;
      if (held.item === undefined) continue;
      const record = recordOf(shape, held.item);
      const set = JSON.stringify(
        itemKeyOf(shape, record, shape.replicas === undefined ? {} : { replica: 0 }).keys,
      );
      if (refilled.has(set)) continue;
      refilled.add(set);
      await refillBoundedSet(runtime, charged, task, shape, record);
    }
  }
  for (const address of stale) {
    if (current.has(addressText(address.id, address.keys))) continue;
    current.add(addressText(address.id, address.keys));
    const removed = await removeItem(container, shape, address.id, address.keys);
    charged.requestCharge += removed.requestCharge;
    charged.changes.push(
      changeOf(
        task.target,
        "delete",
        removed.tombstone ??
          deletedItem(shape, recordOf(sourceShape, change.previous ?? change.item), address.id, address.keys),
      ),
    );
  }
}

/** The source attributes a copy task's stale query is bound from (its parameters, its key). */
function staleQueryAttributes(task: CopyTask): ReadonlySet<string> {
  const names = new Set<string>();
  for (const parameter of task.stale?.parameters ?? []) {
    if (parameter.source.kind === "fromResult") names.add(parameter.source.attribute);
    if (parameter.source.kind === "template")
      for (const name of templateAttributes(parameter.source.template)) names.add(name);
  }
  for (const template of task.stale?.partitionKey ?? [])
    for (const name of templateAttributes(template)) names.add(name);
  return names;
}

/**
 * Records, in the batch's journal, the stale-copy searches its changes may make: those whose
 * previous record is unknown (a latest-version upsert), for every copy task whose address can
 * move. Each holds the values the search is bound from and the addresses the copies are written
 * to, so that a replay finds and deletes the copies left elsewhere. Nothing without a journal.
 */
export async function recordStaleSearches(
  runtime: Runtime,
  source: ItemRef,
  tasks: readonly MaintenanceTask[],
  changes: readonly ItemChange[],
): Promise<void> {
  const journal = changes.find((change) => change.feed?.journal !== undefined)?.feed?.journal;
  if (journal === undefined) return;
  const moving = changes.filter(
    (change) => change.kind !== "create" && change.kind !== "delete" && change.previous === undefined,
  );
  if (moving.length === 0) return;
  const sourceShape = runtime.shape(source.container, source.itemType);
  const entries: IntentEntry[] = [];
  for (const task of tasks) {
    if (task.kind !== "copy" || task.stale === undefined) continue;
    const shape = runtime.shape(task.target.container, task.target.itemType);
    const needed = staleQueryAttributes(task);
    entries.push({
      kind: "staleCopies",
      source,
      task,
      moved: moving.map((change) => {
        const record = recordOf(sourceShape, change.item);
        const related = relatedOf(sourceShape, change.item);
        const written = Array.from({ length: shape.replicas ?? 1 }, (_, replica) =>
          itemKeyOf(shape, record, { ...related, ...(shape.replicas === undefined ? {} : { replica }) }),
        );
        const values: Record<string, unknown> = {};
        for (const name of needed) if (record[name] !== undefined) values[name] = record[name];
        return { record: values, written };
      }),
    });
  }
  if (entries.length > 0) await journal.record(entries);
}

/**
 * Replays recorded stale-copy searches (idempotent): each finds the record's copies by the stale
 * query and deletes those not at the addresses it was written to.
 */
export async function replayStaleSearches(
  runtime: Runtime,
  charged: Charged,
  entry: Extract<IntentEntry, { kind: "staleCopies" }>,
): Promise<void> {
  const task = entry.task;
  if (task.kind !== "copy") return;
  const shape = runtime.shape(task.target.container, task.target.itemType);
  const sourceShape = runtime.shape(entry.source.container, entry.source.itemType);
  for (const moved of entry.moved) {
    await removeStaleCopies(
      runtime,
      charged,
      task,
      shape,
      sourceShape,
      { kind: "upsert", item: { ...moved.record } },
      moved.written,
      true,
    );
  }
}
