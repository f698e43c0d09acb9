/**
 * Copies whose address moves with their source record. A copy keyed by an attribute that writes
 * change is upserted under its new key; the copy under the old key is found (the previous record
 * when the change carries it, else a query by the entity key once the upsert has created a copy
 * at a new address) and deleted. A source that moves (a create and a delete in two logical
 * partitions, which the change feed delivers in any order) must not lose the copy its create
 * wrote: the delete removes the copy only if it still holds the deleted version. A bounded set the
 * copy leaves is refilled from the source before the copy goes (`bounded-set-refill.ts`).
 */
import { changeOf, type Charged, type ItemChange, type Runtime } from "./context.js";
import {
  deletedItem,
  itemKeyOf,
  partitionKeyOfItem,
  recordOf,
  type ItemTypeShape,
  type StoredItem,
} from "./items.js";
import { bindParameters } from "./parameters.js";
import { removeItem } from "./removal.js";
import { asItems, queryItems, readItem } from "./requests.js";
import type { MaintenanceTask } from "./tasks.js";
import { renderKeyValue, type KeyValue } from "./templates.js";
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
