/**
 * Writes of bucketed item types: records are appended to their bucket item's `records` array
 * with a patch (`add /records/-`, at most 10 operations per request), and a bucket that does not
 * exist yet is created with them. Records given together (a writer that buffers, passed as
 * `related.bucketRecords`) are appended together, grouped by the bucket each belongs to.
 *
 * A bucket's records are append-only: the model check refuses a bucket of an entity whose
 * records writes replace, patch, upsert with `changes` or delete one by one (model.badBucket).
 */
import { changeOf, withCopies, type Charged, type Runtime } from "./context.js";
import {
  BUCKET_RECORDS_PROPERTY,
  itemKeyOf,
  materializeItem,
  storedAttributes,
  type EntityRecord,
  type ItemTypeShape,
  type RelatedData,
  type StoredItem,
} from "./items.js";
import { chargeOf, DataAccessError, statusOf } from "./errors.js";
import { patchItem, pointer } from "./requests.js";
import type { ItemRef } from "./tasks.js";
import type { KeyValue } from "./templates.js";

/**
 * Appends `record` (or every record of `related.bucketRecords`, which should share its partition
 * key value) to its bucket item, creating the bucket on its first records.
 */
export async function appendToBuckets(
  runtime: Runtime,
  charged: Charged,
  ref: ItemRef,
  shape: ItemTypeShape,
  record: EntityRecord,
  related: RelatedData,
  wholeBuckets = false,
): Promise<void> {
  const records = related.bucketRecords ?? [record];
  const buckets = new Map<string, { id: string; keys: KeyValue[]; records: EntityRecord[] }>();
  for (const entry of records) {
    const { id, keys } = itemKeyOf(shape, entry, related);
    const address = JSON.stringify([id, keys]);
    const bucket = buckets.get(address) ?? { id, keys, records: [] };
    bucket.records.push(entry);
    buckets.set(address, bucket);
  }
  for (const bucket of buckets.values()) {
    // Whole buckets given at once are created directly (an existing one answers 409: append).
    const whole =
      wholeBuckets || (shape.bucket?.kind === "records" && bucket.records.length >= shape.bucket.records);
    if (whole && (await createBucket(runtime, charged, ref, shape, bucket.records, related))) continue;
    await appendOrCreate(runtime, charged, ref, shape, bucket, related);
  }
}

/** Appends and creates a bucket may take before it is a conflict (writers racing to create it). */
const MAX_BUCKET_ATTEMPTS = 3;

/**
 * Appends `bucket.records` to the bucket item; a missing bucket is created with them. Two writers
 * may find the bucket missing at once: the one whose create answers 409 appends again (the other
 * created it), so neither loses its records.
 */
async function appendOrCreate(
  runtime: Runtime,
  charged: Charged,
  ref: ItemRef,
  shape: ItemTypeShape,
  bucket: { readonly id: string; readonly keys: KeyValue[]; readonly records: readonly EntityRecord[] },
  related: RelatedData,
): Promise<void> {
  const container = runtime.container(ref.container);
  const operations = bucket.records.map((entry) => ({
    op: "add" as const,
    path: `${pointer(BUCKET_RECORDS_PROPERTY)}/-`,
    value: storedAttributes(shape, entry),
  }));
  for (let attempt = 1; attempt <= MAX_BUCKET_ATTEMPTS; attempt++) {
    const appended = await patchItem(container, bucket.id, bucket.keys, operations);
    charged.requestCharge += appended.requestCharge;
    if (appended.item !== undefined) {
      charged.changes.push(changeOf(ref, "update", appended.item));
      return;
    }
    if (await createBucket(runtime, charged, ref, shape, bucket.records, related)) return;
  }
  throw new DataAccessError(
    "conflict",
    `${shape.type} ${bucket.id} was missing for each append and existing for each create (${MAX_BUCKET_ATTEMPTS} attempts)`,
    { context: { container: ref.container, id: bucket.id } },
  );
}

/** Creates a bucket item holding `records`; false when it exists already (409). */
async function createBucket(
  runtime: Runtime,
  charged: Charged,
  ref: ItemRef,
  shape: ItemTypeShape,
  records: readonly EntityRecord[],
  related: RelatedData,
): Promise<boolean> {
  const [first = {}] = records;
  const withRecords = { ...related, bucketRecords: records };
  const item = materializeItem(shape, first, await withCopies(runtime, charged, shape, first, withRecords));
  try {
    const response = await runtime.container(ref.container).items.create<StoredItem>(item);
    charged.requestCharge += response.requestCharge;
    charged.changes.push(changeOf(ref, "create", response.resource ?? item));
    return true;
  } catch (error) {
    if (statusOf(error) !== 409) throw error;
    charged.requestCharge += chargeOf(error);
    return false;
  }
}
