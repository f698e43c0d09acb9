/**
 * Copies across a many-to-many relationship (`Copy.key`): the holder keeps an array with one
 * `{ <key>, <attribute> }` element per linked record. A change of a linked record's attribute
 * finds the holders whose array has its element (the task's query) and sets the attribute in
 * that element of each, by index; a deleted record's element is removed. Each patch is
 * conditional on the holder's ETag: a holder changed meanwhile (its array reordered, the link
 * removed) is read again and patched from what it holds now.
 */
import { changeOf, type Charged, type ItemChange, type Runtime } from "./context.js";
import { DataAccessError, chargeOf, statusOf } from "./errors.js";
import { partitionKeyOfItem, recordOf, type ItemTypeShape, type StoredItem } from "./items.js";
import { parameterValue } from "./parameters.js";
import { asItems, pointer, queryItems, readItem, toPartitionKey } from "./requests.js";
import type { MaintenanceTask } from "./tasks.js";
import type { KeyValue, TemplateValues } from "./templates.js";
import { sameKey } from "./record-keys.js";

type PropagateTask = Extract<MaintenanceTask, { kind: "propagate" }>;

/** What a change does to the linked record's elements: set the attribute, or remove them. */
type ElementChange = { readonly kind: "set"; readonly value: unknown } | { readonly kind: "remove" };

/** Attempts at one holder before giving up (each after another writer changed it). */
const MAX_HOLDER_ATTEMPTS = 8;

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Indexes of the array elements of the linked record `keyValue` the change still has to reach
 * (an element already holding the value is left alone), highest first.
 */
function staleElements(
  holder: StoredItem,
  task: PropagateTask,
  record: Readonly<Record<string, unknown>>,
  change: ElementChange,
): number[] {
  const array = holder[task.property];
  if (!Array.isArray(array) || task.key === undefined) return [];
  const key = task.key;
  const indexes: number[] = [];
  array.forEach((element: unknown, index) => {
    if (typeof element !== "object" || element === null) return;
    const values = element as Record<string, unknown>;
    if (!sameKey(key, values, record)) return;
    if (change.kind === "set" && same(values[task.attribute] ?? null, change.value)) return;
    indexes.push(index);
  });
  return indexes.reverse();
}

/** The patch operations at `indexes` (highest first, so a removal keeps the others' places). */
function elementOperations(task: PropagateTask, indexes: readonly number[], change: ElementChange) {
  const array = pointer(task.property);
  return indexes.map((index) =>
    change.kind === "remove"
      ? { op: "remove" as const, path: `${array}/${index}` }
      : { op: "set" as const, path: `${array}/${index}${pointer(task.attribute)}`, value: change.value },
  );
}

/** Applies the change to one holder's array, again after a concurrent change of the holder. */
async function patchHolder(
  runtime: Runtime,
  charged: Charged,
  task: PropagateTask,
  shape: ItemTypeShape,
  found: StoredItem,
  record: Readonly<Record<string, unknown>>,
  change: ElementChange,
): Promise<void> {
  const container = runtime.container(task.holder.container);
  const id = found["id"];
  if (typeof id !== "string") return;
  const keys: KeyValue[] = partitionKeyOfItem(shape, found);
  let holder: StoredItem | undefined = found;
  for (let attempt = 0; attempt < MAX_HOLDER_ATTEMPTS && holder !== undefined; attempt++) {
    const indexes = staleElements(holder, task, record, change);
    if (indexes.length === 0) return;
    const etag = holder["_etag"];
    try {
      const response = await container
        .item(id, toPartitionKey(keys))
        .patch<StoredItem>(
          elementOperations(task, indexes, change),
          typeof etag === "string" ? { accessCondition: { type: "IfMatch", condition: etag } } : {},
        );
      charged.requestCharge += response.requestCharge;
      if (response.resource !== undefined)
        charged.changes.push(changeOf(task.holder, "update", response.resource));
      return;
    } catch (error) {
      charged.requestCharge += chargeOf(error);
      if (statusOf(error) === 404) return;
      if (statusOf(error) !== 412) throw error;
    }
    const read = await readItem(container, id, keys);
    charged.requestCharge += read.requestCharge;
    holder = read.item;
  }
  if (holder === undefined) return;
  throw new DataAccessError(
    "conflict",
    `the ${task.holder.itemType} ${id} kept changing while its ${task.property} was updated (${MAX_HOLDER_ATTEMPTS} attempts)`,
    { context: { container: task.holder.container, id } },
  );
}

/**
 * Propagates a changed attribute of a linked record to its element in every holder's array, or
 * removes the element of a deleted record (a tombstone, or a delete of the all-versions feed).
 */
export async function propagateLinked(
  runtime: Runtime,
  charged: Charged,
  task: PropagateTask,
  sourceShape: ItemTypeShape,
  change: ItemChange,
): Promise<void> {
  if (task.key === undefined) return;
  const value = change.item[task.attribute] ?? null;
  if (
    change.kind !== "delete" &&
    change.previous !== undefined &&
    same(change.previous[task.attribute] ?? null, value)
  )
    return;
  const elementChange: ElementChange = change.kind === "delete" ? { kind: "remove" } : { kind: "set", value };
  const shape = runtime.shape(task.holder.container, task.holder.itemType);
  const record = recordOf(sourceShape, change.item);
  const values: TemplateValues = { attributes: record };
  const found = await queryItems(
    runtime.container(task.holder.container),
    task.sql,
    task.parameters.map((parameter) => ({
      name: parameter.name,
      value: parameterValue(parameter.source, values, 1),
    })),
  );
  charged.requestCharge += found.requestCharge;
  for (const holder of asItems(found.items)) {
    await patchHolder(runtime, charged, task, shape, holder, record, elementChange);
  }
}
