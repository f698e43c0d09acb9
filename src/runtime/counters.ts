/**
 * Counters kept from the change feed, applied once per counted child whatever the feed
 * redelivers. Next to the holder (in its logical partition) each counted child has a small marker
 * item; counting a child creates its marker and increments the counter in one transactional batch,
 * uncounting deletes it and decrements. A redelivered change finds the marker already there (409)
 * or already gone (404), the batch is refused as a whole, and the counter is left as it is. The
 * latest-version feed may fold a create and an update into one change, or an update and a soft
 * delete: the marker says whether the child was counted, so a changed child is never counted twice
 * and a removed one is uncounted only if it was counted.
 *
 * The changes of one feed batch are summed per holder: one batch per holder holds all its markers
 * and one increment of their sum (up to 100 operations per batch, the service's limit).
 */
import { BulkOperationType, type JSONObject, type OperationInput, type PatchOperation } from "@azure/cosmos";
import { changeOf, readValues, type Charged, type ItemChange, type Runtime } from "./context.js";
import { DataAccessError, chargeOf, statusOf } from "./errors.js";
import { fnv1a32 } from "./hash.js";
import { keyPathSegments, recordOf, setPath, type ItemTypeShape, type StoredItem } from "./items.js";
import { patchItem, pointer, readItem, toPartitionKey } from "./requests.js";
import type { MaintenanceTask } from "./tasks.js";
import { renderKeyValue, renderTemplate, type KeyValue } from "./templates.js";

/** The `type` of counter markers (no item type of a model can hold a marker's properties). */
export const COUNTER_MARKER_TYPE = "counterMarker";

/**
 * Operations per transactional batch.
 * Source: https://learn.microsoft.com/azure/cosmos-db/concepts-limits#per-request-limits (checked 2026-11-24).
 */
export const MAX_BATCH_OPERATIONS = 100;

/** The longest marker id kept readable; longer ones end in a hash (ids hold at most 255 characters). */
const MAX_READABLE_ID = 200;

/**
 * The id of the marker of child `childKey` counted in `property`: `property~key`, with the
 * characters an id cannot hold escaped, and a hash for very long keys.
 * @example counterMarkerId("reactionCount", "r1") // "reactionCount~r1"
 */
export function counterMarkerId(property: string, childKey: KeyValue): string {
  const text = typeof childKey === "string" ? childKey : JSON.stringify(childKey);
  const id = `${property}~${encodeURIComponent(text)}`;
  if (id.length <= MAX_READABLE_ID) return id;
  const hash = `${fnv1a32(text).toString(16)}${fnv1a32(`${text}\u0000${text.length}`).toString(16)}`;
  return `${id.slice(0, MAX_READABLE_ID - hash.length - 1)}~${hash}`;
}

/** The marker item of a counted child on a holder of `holder`'s shape. */
export function counterMarkerItem(
  holder: Pick<ItemTypeShape, "keyPaths">,
  holderKeys: readonly KeyValue[],
  property: string,
  childKey: KeyValue,
): StoredItem {
  const item: StoredItem = { id: counterMarkerId(property, childKey) };
  holder.keyPaths.forEach((path, index) => setPath(item, keyPathSegments(path), holderKeys[index]));
  item["type"] = COUNTER_MARKER_TYPE;
  item["counter"] = property;
  item["child"] = childKey;
  return item;
}

type CounterTask = Extract<MaintenanceTask, { kind: "counter" }>;

/** What a batch of changes does to one holder: the children to count and to uncount. */
interface HolderWork {
  readonly id: string;
  readonly keys: KeyValue[];
  /** Child key -> true (counted: its marker should exist) or false (uncounted). */
  readonly children: Map<string, { readonly key: KeyValue; counted: boolean }>;
}

function isKeyValue(value: unknown): value is KeyValue {
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean";
}

/** Groups the changes by holder; the last change of a child wins (the feed is ordered per child). */
function holderWork(
  runtime: Runtime,
  task: CounterTask,
  sourceShape: ItemTypeShape,
  changes: readonly ItemChange[],
): Map<string, HolderWork> {
  const holderShape = runtime.shape(task.holder.container, task.holder.itemType);
  const work = new Map<string, HolderWork>();
  for (const change of changes) {
    // A replace of the all-versions feed changes nothing a counter counts.
    if (change.kind === "update") continue;
    const record = { ...change.item, ...recordOf(sourceShape, change.item) };
    const childKey = record[task.childKey];
    if (!isKeyValue(childKey)) {
      throw new DataAccessError(
        "missingTemplateValue",
        `counting ${sourceShape.type} in ${task.holder.itemType}.${task.property} needs its key "${task.childKey}"`,
        { context: { itemType: sourceShape.type, key: task.childKey } },
      );
    }
    const values = readValues(runtime, holderShape, record, task.id);
    const id = renderTemplate(task.id, values);
    const keys = task.partitionKey.map((template) => renderKeyValue(template, values));
    const name = JSON.stringify([id, keys]);
    const entry = work.get(name) ?? { id, keys, children: new Map() };
    entry.children.set(JSON.stringify(childKey), { key: childKey, counted: change.kind !== "delete" });
    work.set(name, entry);
  }
  return work;
}

/** The operations of one batch: markers created or deleted, then the counter's increment. */
function batchOperations(
  holderShape: ItemTypeShape,
  holder: HolderWork,
  property: string,
  children: readonly { readonly key: KeyValue; readonly counted: boolean }[],
): OperationInput[] {
  const partitionKey = toPartitionKey(holder.keys);
  const operations: OperationInput[] = children.map((child) =>
    child.counted
      ? {
          operationType: BulkOperationType.Create,
          partitionKey,
          resourceBody: counterMarkerItem(holderShape, holder.keys, property, child.key) as JSONObject,
        }
      : { operationType: BulkOperationType.Delete, partitionKey, id: counterMarkerId(property, child.key) },
  );
  const by = children.reduce((sum, child) => sum + (child.counted ? 1 : -1), 0);
  const increment: PatchOperation = { op: "incr", path: pointer(property), value: by };
  operations.push({
    operationType: BulkOperationType.Patch,
    partitionKey,
    id: holder.id,
    resourceBody: { operations: [increment] },
  });
  return operations;
}

/** Runs one transactional batch; the index and status of the operation that failed it, if any. */
async function runBatch(
  runtime: Runtime,
  charged: Charged,
  task: CounterTask,
  operations: OperationInput[],
  keys: readonly KeyValue[],
): Promise<{ failed?: { index: number; status: number }; holder?: StoredItem | undefined }> {
  const response = await runtime
    .container(task.holder.container)
    .items.batch(operations, toPartitionKey(keys));
  const results = response.result ?? [];
  charged.requestCharge += results.reduce((sum, result) => sum + result.requestCharge, 0);
  const index = results.findIndex((result) => result.statusCode >= 400 && result.statusCode !== 424);
  if (index >= 0) return { failed: { index, status: results[index]?.statusCode ?? 0 } };
  return { holder: results[results.length - 1]?.resourceBody as StoredItem | undefined };
}

function holderMissing(task: CounterTask, holder: HolderWork): DataAccessError {
  return new DataAccessError(
    "notFound",
    `the ${task.holder.itemType} ${holder.id} whose ${task.property} counts these changes does not exist (yet): the batch is retried`,
    { context: { container: task.holder.container, id: holder.id } },
  );
}

/** Counts one child on its own (after a batch was refused for an already applied marker). */
async function countOne(
  runtime: Runtime,
  charged: Charged,
  task: CounterTask,
  holderShape: ItemTypeShape,
  holder: HolderWork,
  child: { readonly key: KeyValue; readonly counted: boolean },
): Promise<StoredItem | undefined> {
  if (runtime.transactionalBatch) {
    const result = await runBatch(
      runtime,
      charged,
      task,
      batchOperations(holderShape, holder, task.property, [child]),
      holder.keys,
    );
    if (result.failed === undefined) return result.holder ?? { id: holder.id };
    if (result.failed.index === 0 && (result.failed.status === 409 || result.failed.status === 404))
      return undefined;
    if (result.failed.index === 1 && result.failed.status === 404) throw holderMissing(task, holder);
    throw new DataAccessError(
      "batchFailed",
      `counting in ${task.holder.itemType}.${task.property}: operation ${result.failed.index} answered ${result.failed.status}`,
    );
  }
  // Without transactional batches (test endpoints): the marker, then the counter.
  const container = runtime.container(task.holder.container);
  const marker = counterMarkerItem(holderShape, holder.keys, task.property, child.key);
  try {
    if (child.counted) charged.requestCharge += (await container.items.create(marker)).requestCharge;
    else
      charged.requestCharge += (
        await container.item(String(marker["id"]), toPartitionKey(holder.keys)).delete()
      ).requestCharge;
  } catch (error) {
    charged.requestCharge += chargeOf(error);
    if (statusOf(error) === 409 || statusOf(error) === 404) return undefined;
    throw error;
  }
  const patched = await patchItem(container, holder.id, holder.keys, [
    { op: "incr", path: pointer(task.property), value: child.counted ? 1 : -1 },
  ]);
  charged.requestCharge += patched.requestCharge;
  if (patched.item === undefined) throw holderMissing(task, holder);
  return patched.item;
}

/**
 * Applies a counter task to a batch of changes of the counted entity: per holder, one
 * transactional batch of the markers and the summed increment; when a marker shows a change was
 * already applied (a redelivery), child by child, skipping those already applied.
 */
export async function applyCounter(
  runtime: Runtime,
  charged: Charged,
  task: CounterTask,
  sourceShape: ItemTypeShape,
  changes: readonly ItemChange[],
): Promise<void> {
  const holderShape = runtime.shape(task.holder.container, task.holder.itemType);
  for (const holder of holderWork(runtime, task, sourceShape, changes).values()) {
    const children = [...holder.children.values()];
    let updated: StoredItem | undefined;
    for (let start = 0; start < children.length; start += MAX_BATCH_OPERATIONS - 1) {
      const chunk = children.slice(start, start + MAX_BATCH_OPERATIONS - 1);
      if (runtime.transactionalBatch && chunk.length > 1) {
        const result = await runBatch(
          runtime,
          charged,
          task,
          batchOperations(holderShape, holder, task.property, chunk),
          holder.keys,
        );
        if (result.failed === undefined) {
          updated = result.holder ?? updated;
          continue;
        }
        if (result.failed.index === chunk.length && result.failed.status === 404)
          throw holderMissing(task, holder);
      }
      for (const child of chunk)
        updated = (await countOne(runtime, charged, task, holderShape, holder, child)) ?? updated;
    }
    if (updated === undefined) continue;
    if (updated["type"] === undefined) {
      const read = await readItem(runtime.container(task.holder.container), holder.id, holder.keys);
      charged.requestCharge += read.requestCharge;
      updated = read.item;
    }
    if (updated !== undefined) charged.changes.push(changeOf(task.holder, "update", updated));
  }
}
