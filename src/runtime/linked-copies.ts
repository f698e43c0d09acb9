/**
 * Copies across a many-to-many relationship (`Copy.key`): the holder keeps an array with one
 * `{ <key>, <attribute> }` element per linked record. A change of a linked record's attribute
 * finds the holders whose array has its element (the task's query) and sets the attribute in
 * that element of each, by index, conditional on the holder's ETag: a holder changed meanwhile
 * (its array reordered, the link removed) is read again and patched from what it holds now.
 */
import { changeOf, type Charged, type ItemChange, type Runtime } from "./context.js";
import { DataAccessError, chargeOf, statusOf } from "./errors.js";
import { partitionKeyOfItem, recordOf, type ItemTypeShape, type StoredItem } from "./items.js";
import { parameterValue } from "./parameters.js";
import { asItems, pointer, queryItems, readItem, toPartitionKey } from "./requests.js";
import type { MaintenanceTask } from "./tasks.js";
import type { KeyValue, TemplateValues } from "./templates.js";

type PropagateTask = Extract<MaintenanceTask, { kind: "propagate" }>;

/** Attempts at one holder before giving up (each after another writer changed it). */
const MAX_HOLDER_ATTEMPTS = 8;

/** Indexes of the array elements of the linked record `key` whose attribute is not `value` yet. */
function staleElements(
  holder: StoredItem,
  task: PropagateTask,
  key: string,
  keyValue: unknown,
  value: unknown,
) {
  const array = holder[task.property];
  if (!Array.isArray(array)) return [];
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  return array.flatMap((element: unknown, index) =>
    typeof element === "object" &&
    element !== null &&
    same((element as Record<string, unknown>)[key], keyValue) &&
    !same((element as Record<string, unknown>)[task.attribute] ?? null, value)
      ? [index]
      : [],
  );
}

/** Sets the linked record's attribute in one holder's array, again after a concurrent change. */
async function patchHolder(
  runtime: Runtime,
  charged: Charged,
  task: PropagateTask,
  shape: ItemTypeShape,
  found: StoredItem,
  keyValue: unknown,
  value: unknown,
): Promise<void> {
  const key = task.key ?? "";
  const container = runtime.container(task.holder.container);
  const id = found["id"];
  if (typeof id !== "string") return;
  const keys: KeyValue[] = partitionKeyOfItem(shape, found);
  let holder: StoredItem | undefined = found;
  for (let attempt = 0; attempt < MAX_HOLDER_ATTEMPTS && holder !== undefined; attempt++) {
    const indexes = staleElements(holder, task, key, keyValue, value);
    if (indexes.length === 0) return;
    const etag = holder["_etag"];
    try {
      const response = await container.item(id, toPartitionKey(keys)).patch<StoredItem>(
        indexes.map((index) => ({
          op: "set" as const,
          path: `${pointer(task.property)}/${index}${pointer(task.attribute)}`,
          value,
        })),
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
 * Propagates a changed attribute of a linked record to the array element of every holder. A
 * deleted record keeps its elements (the workload names no write that unlinks).
 */
export async function propagateLinked(
  runtime: Runtime,
  charged: Charged,
  task: PropagateTask,
  sourceShape: ItemTypeShape,
  change: ItemChange,
): Promise<void> {
  if (change.kind === "delete" || task.key === undefined) return;
  const value = change.item[task.attribute] ?? null;
  if (
    change.previous !== undefined &&
    JSON.stringify(change.previous[task.attribute] ?? null) === JSON.stringify(value)
  )
    return;
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
    await patchHolder(runtime, charged, task, shape, holder, record[task.key], value);
  }
}
