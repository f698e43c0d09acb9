/**
 * Writing a whole item (create, replace, upsert) without losing what others maintain in it:
 * counters, embedded children, ancestors, and the marks and flags of counters kept from the change
 * feed. When an item holds any of them, the write patches the properties its record owns (one
 * atomic patch, or a transactional batch of patches of the item over 10 properties), so a
 * concurrent counter increment or embed is never overwritten and never makes the write fail; a
 * missing item is created whole (a 409, when another writer created it first, patches it instead,
 * up to `MAX_REWRITE_ATTEMPTS` times, then `conflict`). An attribute missing from the record is
 * left as the item has it. Items without maintained data are created, replaced or upserted whole.
 * A create that finds a soft-delete tombstone at its address replaces it (ETag `ifMatch`), so the
 * item comes back without the tombstone property and its ttl.
 */
import { BulkOperationType, type Container, type OperationInput, type PatchOperation } from "@azure/cosmos";
import { withCopies, type Charged, type Runtime } from "./context.js";
import { DataAccessError, chargeOf, statusOf } from "./errors.js";
import {
  isTombstone,
  materializeItem,
  relatedOf,
  type ItemTypeShape,
  type RelatedData,
  type StoredItem,
} from "./items.js";
import {
  MAX_PATCH_OPERATIONS,
  batchError,
  patchItem,
  pointer,
  readItem,
  toPartitionKey,
} from "./requests.js";
import { backoffDelay } from "./retry.js";
import { livePredicate } from "./removal.js";
import { patchCondition } from "./sql.js";
import type { KeyValue } from "./templates.js";

/** Attempts of a read-modify-write before it gives up with `conflict`. */
export const MAX_REWRITE_ATTEMPTS = 8;

/** Properties the change-feed handlers maintain on items: counter marks and counted flags. */
function maintainedProperties(item: StoredItem): StoredItem {
  const kept: StoredItem = {};
  for (const [name, value] of Object.entries(item)) {
    if (name.startsWith("appliedLsn_") || name.startsWith("counted:")) kept[name] = value;
  }
  return kept;
}

/** True when a rewrite of `shape` must keep what is already in the item (so it reads it first). */
export function keepsMaintainedData(shape: ItemTypeShape): boolean {
  return (
    shape.counts.length > 0 ||
    shape.embeds.length > 0 ||
    shape.ancestors !== undefined ||
    shape.countedFromFeed === true
  );
}

/** The related data of a rewrite: what the caller gave, over what the item holds. */
function carriedFrom(
  shape: ItemTypeShape,
  previous: StoredItem | undefined,
  extra: RelatedData,
): RelatedData {
  if (previous === undefined || isTombstone(shape, previous)) return extra;
  const kept = relatedOf(shape, previous);
  return {
    ...extra,
    ...(kept.counts === undefined ? {} : { counts: { ...kept.counts, ...extra.counts } }),
    ...(kept.embeds === undefined ? {} : { embeds: { ...kept.embeds, ...extra.embeds } }),
    ...(kept.ancestors === undefined || extra.ancestors !== undefined ? {} : { ancestors: kept.ancestors }),
  };
}

/**
 * The properties a record's write owns in an item that others also write: everything but the id,
 * the counters, embeds and ancestors others maintain (unless the caller gives them), and the
 * handlers' marks and flags.
 */
function recordProperties(shape: ItemTypeShape, item: StoredItem, extra: RelatedData): StoredItem {
  const maintained = new Set<string>(["id"]);
  if (extra.counts === undefined) for (const counter of shape.counts) maintained.add(counter.as);
  if (extra.embeds === undefined) for (const embed of shape.embeds) maintained.add(embed.as);
  if (extra.ancestors === undefined && shape.ancestors !== undefined) maintained.add(shape.ancestors.as);
  const owned: StoredItem = {};
  for (const [name, value] of Object.entries(item)) {
    if (!maintained.has(name) && !name.startsWith("appliedLsn_") && !name.startsWith("counted:"))
      owned[name] = value;
  }
  return owned;
}

/** The condition of a patch that must not land on a soft-delete tombstone. */
function liveCondition(shape: Pick<ItemTypeShape, "softDelete">): string | undefined {
  const predicate = livePredicate(shape);
  return predicate === undefined ? undefined : patchCondition(predicate);
}

/** What a conditional patch found: the item patched, no item, or a tombstone (412). */
type Patched =
  | { readonly state: "patched"; readonly item: StoredItem; readonly requestCharge: number }
  | { readonly state: "missing" | "tombstone"; readonly requestCharge: number };

/** One patch (or several requests without transactional batches) under `condition`. */
async function patchOnce(
  container: Container,
  target: { readonly id: string; readonly keys: readonly KeyValue[] },
  operations: readonly PatchOperation[],
  condition: string | undefined,
): Promise<Patched> {
  try {
    const patched = await patchItem(container, target.id, target.keys, operations, condition);
    return patched.item === undefined
      ? { state: "missing", requestCharge: patched.requestCharge }
      : { state: "patched", item: patched.item, requestCharge: patched.requestCharge };
  } catch (error) {
    if (statusOf(error) !== 412 || condition === undefined) throw error;
    return { state: "tombstone", requestCharge: chargeOf(error) };
  }
}

/**
 * Sets `properties` on the item in one atomic step: one patch, or (over 10 operations) a
 * transactional batch of patches of the item; one patch after another on endpoints without
 * transactional batches. Conditional on the item not being a soft-delete tombstone.
 */
async function patchWhole(
  runtime: Runtime,
  container: Container,
  shape: ItemTypeShape,
  target: { readonly id: string; readonly keys: readonly KeyValue[] },
  properties: StoredItem,
): Promise<Patched> {
  const operations: PatchOperation[] = Object.entries(properties).map(([name, value]) => ({
    op: "set",
    path: pointer(name),
    value,
  }));
  const condition = liveCondition(shape);
  if (operations.length <= MAX_PATCH_OPERATIONS || !runtime.transactionalBatch) {
    return patchOnce(container, target, operations, condition);
  }
  const partitionKey = toPartitionKey(target.keys);
  const batch: OperationInput[] = [];
  for (let start = 0; start < operations.length; start += MAX_PATCH_OPERATIONS) {
    const chunk = operations.slice(start, start + MAX_PATCH_OPERATIONS);
    batch.push({
      operationType: BulkOperationType.Patch,
      id: target.id,
      partitionKey,
      resourceBody:
        start === 0 && condition !== undefined ? { operations: chunk, condition } : { operations: chunk },
    });
  }
  const response = await container.items.batch(batch, partitionKey);
  const results = response.result ?? [];
  const requestCharge = results.reduce((sum, result) => sum + result.requestCharge, 0);
  if (results.some((result) => result.statusCode === 404)) return { state: "missing", requestCharge };
  if (condition !== undefined && results[0]?.statusCode === 412) return { state: "tombstone", requestCharge };
  const failed = batchError(`patch ${target.id}`, results, { id: target.id });
  if (failed !== undefined) throw failed;
  const item = results[results.length - 1]?.resourceBody as StoredItem | undefined;
  return item === undefined ? { state: "missing", requestCharge } : { state: "patched", item, requestCharge };
}

/**
 * Replaces a soft-delete tombstone by the created item (without the tombstone property and its
 * ttl), only if the tombstone is unchanged since it was read (ETag): a patch could not remove
 * them. Undefined item when another writer changed it first (the caller's loop then patches).
 */
async function reviveTombstone(
  container: Container,
  target: { readonly id: string; readonly keys: readonly KeyValue[] },
  tombstone: StoredItem,
  item: StoredItem,
): Promise<{ item: StoredItem | undefined; requestCharge: number }> {
  const etag = typeof tombstone["_etag"] === "string" ? tombstone["_etag"] : undefined;
  try {
    const response = await container
      .item(target.id, toPartitionKey(target.keys))
      .replace<StoredItem>(
        item,
        etag === undefined ? {} : { accessCondition: { type: "IfMatch", condition: etag } },
      );
    return { item: response.resource ?? item, requestCharge: response.requestCharge };
  } catch (error) {
    if (statusOf(error) !== 412 && statusOf(error) !== 404) throw error;
    return { item: undefined, requestCharge: chargeOf(error) };
  }
}

/** Creates the item whole; undefined when another writer created it first (409). */
async function createWhole(
  charged: Charged,
  container: Container,
  item: StoredItem,
): Promise<StoredItem | undefined> {
  try {
    const response = await container.items.create<StoredItem>(item);
    charged.requestCharge += response.requestCharge;
    return response.resource ?? item;
  } catch (error) {
    charged.requestCharge += chargeOf(error);
    if (statusOf(error) !== 409) throw error;
    return undefined;
  }
}

/**
 * Replaces the tombstone at `target` by the item `build` makes over it (its marks and flags kept),
 * only if it is still the tombstone read (ETag); undefined when it changed or went meanwhile.
 */
async function replaceTombstone(
  charged: Charged,
  container: Container,
  shape: ItemTypeShape,
  target: { readonly id: string; readonly keys: readonly KeyValue[] },
  build: (previous: StoredItem | undefined) => Promise<StoredItem>,
): Promise<StoredItem | undefined> {
  const existing = await readItem(container, target.id, target.keys);
  charged.requestCharge += existing.requestCharge;
  if (existing.item === undefined || !isTombstone(shape, existing.item)) return undefined;
  const revived = await reviveTombstone(container, target, existing.item, await build(existing.item));
  charged.requestCharge += revived.requestCharge;
  return revived.item;
}

/** What a rewrite did: the item as stored, what it replaced, and whether it created it. */
export interface Rewritten {
  readonly item: StoredItem;
  readonly previous: StoredItem | undefined;
  readonly created: boolean;
}

/**
 * Writes the item of `record` with the read-modify-write above. `operation` "create" only creates
 * (a 409 is the caller's: the id is taken); "replace" requires the item; "upsert" creates or replaces.
 */
export async function rewriteItem(
  runtime: Runtime,
  charged: Charged,
  container: Container,
  shape: ItemTypeShape,
  operation: "create" | "replace" | "upsert",
  target: { readonly id: string; readonly keys: readonly KeyValue[] },
  record: Readonly<Record<string, unknown>>,
  extra: RelatedData,
): Promise<Rewritten> {
  const build = async (previous: StoredItem | undefined): Promise<StoredItem> => {
    const item = materializeItem(
      shape,
      record,
      await withCopies(runtime, charged, shape, record, carriedFrom(shape, previous, extra)),
    );
    // Marks and flags stay, also over a tombstone: the handlers still count what it was.
    return previous === undefined ? item : { ...item, ...maintainedProperties(previous) };
  };
  // A replace of a soft-deleted item type goes through the conditional patch below: a replace
  // cannot be conditional on the tombstone property, and a tombstone must answer notFound.
  const replaceOfSoftDeleted = operation === "replace" && shape.softDelete !== undefined;
  if (operation === "create" || (!keepsMaintainedData(shape) && !replaceOfSoftDeleted)) {
    const item = await build(undefined);
    try {
      const response =
        operation === "create"
          ? await container.items.create<StoredItem>(item)
          : operation === "upsert"
            ? await container.items.upsert<StoredItem>(item)
            : await container.item(target.id, toPartitionKey(target.keys)).replace<StoredItem>(item);
      charged.requestCharge += response.requestCharge;
      return { item: response.resource ?? item, previous: undefined, created: response.statusCode === 201 };
    } catch (error) {
      charged.requestCharge += chargeOf(error);
      // A create over a tombstone (a soft-deleted item not expired yet) brings the item back.
      if (operation !== "create" || statusOf(error) !== 409 || shape.softDelete === undefined) throw error;
      const existing = await readItem(container, target.id, target.keys);
      charged.requestCharge += existing.requestCharge;
      if (existing.item === undefined || !isTombstone(shape, existing.item)) throw error;
      const revived = await reviveTombstone(container, target, existing.item, await build(existing.item));
      charged.requestCharge += revived.requestCharge;
      if (revived.item !== undefined) return { item: revived.item, previous: undefined, created: true };
    }
  }
  // The item holds what others maintain (counters, embeds, flags): its record's part is patched,
  // which never conflicts with them; a missing item is created whole, a tombstone replaced whole
  // (ETag `ifMatch`); a lost race (409, 412) is retried after a backoff.
  for (let attempt = 1; attempt <= MAX_REWRITE_ATTEMPTS; attempt++) {
    const item = await build(undefined);
    const patched = await patchWhole(runtime, container, shape, target, recordProperties(shape, item, extra));
    charged.requestCharge += patched.requestCharge;
    if (patched.state === "patched") return { item: patched.item, previous: undefined, created: false };
    if (operation === "replace") {
      throw new DataAccessError("notFound", `${shape.type} ${target.id} does not exist`, {
        context: { id: target.id },
      });
    }
    const written =
      patched.state === "tombstone"
        ? await replaceTombstone(charged, container, shape, target, build)
        : await createWhole(charged, container, item);
    if (written !== undefined) return { item: written, previous: undefined, created: true };
    await new Promise((resolve) =>
      setTimeout(resolve, backoffDelay(attempt, { initialDelayMs: 10, maxDelayMs: 1000 }, runtime.random)),
    );
  }
  throw new DataAccessError(
    "conflict",
    `${shape.type} ${target.id} kept being created and deleted while it was written (${MAX_REWRITE_ATTEMPTS} attempts)`,
    { context: { container: shape.container, id: target.id } },
  );
}
