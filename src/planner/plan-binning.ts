/**
 * Writes of a bucketed item type as the generated code makes them: each record is appended to
 * its bucket item's `records` with a patch (`add /records/-`), the bucket is created with its
 * first records. A writer that buffers (`bufferedRecords: N`) appends N records at a time: one
 * patch request per 10 records (a patch holds at most 10 operations). A patch is charged for the
 * bucket as it is then: on average half full.
 */
import { MAX_PATCH_OPERATIONS } from "../cosmos/limits.js";
import type { WritePattern } from "../workload/types.js";
import type { Placement } from "./context.js";
import type { PlanEnvironment } from "./environment.js";
import { countIndexedValues } from "./indexing.js";
import type { PointReadStep, WriteStep } from "./types.js";

/**
 * The requests that write the records of one request of `pattern` into `placement`'s buckets:
 * patches appending to an existing bucket, the append that finds no bucket (404, once per
 * bucket; none when the writer buffers a whole bucket, which it creates directly) and the create
 * of the bucket with its first records.
 */
export function binnedWriteSteps(
  env: PlanEnvironment,
  pattern: WritePattern,
  placement: Placement,
): { readonly append: WriteStep; readonly missing: PointReadStep; readonly create: WriteStep } {
  const { item } = placement;
  const records = env.recordsPerBucket(item);
  const shape = env.shape(placement);
  const indexed = countIndexedValues(env.policy(placement.container), shape);
  const replicas = item.replicas ?? 1;
  // Records appended together: what the writer buffers, at most a bucket.
  const together = Math.max(1, Math.min(pattern.bufferedRecords, records));
  const patchesPerAppend = Math.ceil(together / MAX_PATCH_OPERATIONS);
  const perPatch = together / patchesPerAppend;
  // A bucket takes k appends: the first creates it, appends 2..k patch it, holding on average
  // (k + 2) / 2 x `together` records after the patch.
  const appends = Math.max(1, records / together);
  const fill = Math.min(1, (((appends + 2) / 2) * together) / records);
  const buckets = (pattern.batch * replicas) / records;
  const base = {
    container: placement.container.name,
    itemType: item.type,
    id: item.id,
    partitionKey: item.partitionKey,
  };
  const append: WriteStep = {
    ...base,
    kind: "write",
    operation: "patch",
    ...env.charge({
      op: "patch",
      itemBytes: shape.avgBytes * fill,
      indexedValues: indexed * fill,
      changedValues: (indexed / records) * perPatch,
    }),
    times: buckets * Math.max(0, appends - 1) * patchesPerAppend,
    note:
      together > 1
        ? `append ${formatCount(together)} buffered records to the ${item.type} item (${patchesPerAppend} patch${patchesPerAppend > 1 ? "es" : ""} of up to ${MAX_PATCH_OPERATIONS} records), a bucket of ~${formatCount(records)} records`
        : `append each record to its ${item.type} item with a patch (a bucket of ~${formatCount(records)} records; the writer does not buffer)`,
  };
  // A writer that buffers a whole bucket creates it directly (an existing bucket answers 409,
  // then the records are appended); otherwise the first append of a bucket finds no item (a
  // 404, charged about as a point read of nothing) and creates it.
  const whole = together >= records;
  const missing: PointReadStep = {
    ...base,
    kind: "pointRead",
    ...env.charge({ op: "read", itemBytes: 1 }),
    times: whole ? 0 : buckets,
    note: `the first append to a new ${item.type} finds no item (404)`,
  };
  const create: WriteStep = {
    ...base,
    kind: "write",
    operation: "create",
    ...env.charge({
      op: "create",
      itemBytes: shape.avgBytes * (together / records),
      indexedValues: (indexed * together) / records,
    }),
    times: buckets,
    note: `create a ${item.type} item with its first records (once per ~${formatCount(records)} records)`,
  };
  return { append, missing, create };
}

function formatCount(value: number): string {
  return value >= 10 ? String(Math.round(value)) : String(Math.round(value * 10) / 10);
}
