/**
 * Writes of bucketed item types: records are appended to their bucket item's `records` array
 * with a patch (`add /records/-`, at most 10 operations per request), and a bucket that does not
 * exist yet is created with them. Records given together (a writer that buffers, passed as
 * `related.bucketRecords`) are appended together, grouped by the bucket each belongs to.
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
import { chargeOf, statusOf } from "./errors.js";
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
  const container = runtime.container(ref.container);
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
    const appended = await patchItem(
      container,
      bucket.id,
      bucket.keys,
      bucket.records.map((entry) => ({
        op: "add" as const,
        path: `${pointer(BUCKET_RECORDS_PROPERTY)}/-`,
        value: storedAttributes(shape, entry),
      })),
    );
    charged.requestCharge += appended.requestCharge;
    if (appended.item !== undefined) {
      charged.changes.push(changeOf(ref, "update", appended.item));
      continue;
    }
    await createBucket(runtime, charged, ref, shape, bucket.records, related, true);
  }
}

/**
 * Creates a bucket item holding `records`; false when it exists already (409), unless `orFail`
 * (a bucket a patch found missing: a conflict then is an error).
 */
async function createBucket(
  runtime: Runtime,
  charged: Charged,
  ref: ItemRef,
  shape: ItemTypeShape,
  records: readonly EntityRecord[],
  related: RelatedData,
  orFail = false,
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
    if (orFail || statusOf(error) !== 409) throw error;
    charged.requestCharge += chargeOf(error);
    return false;
  }
}
