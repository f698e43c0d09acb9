/**
 * Rewriting a whole item (create, replace, upsert) without losing what others maintain in it:
 * counters, embedded children, ancestors, and the marks and flags of counters kept from the change
 * feed. When an item holds any of them, the write reads it, rebuilds it from the record and what
 * it read, and replaces it only if it has not changed since (ETag `ifMatch`); a concurrent change
 * (a counter increment, another edit) makes it read and rebuild again, up to `MAX_REWRITE_ATTEMPTS`
 * times with backoff, then `conflict`. A missing item is created (`ifNoneMatch` semantics: a create
 * that answers 409 when another writer created it first, which is retried the same way).
 */
import type { Container } from "@azure/cosmos";
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
import { readItem, toPartitionKey } from "./requests.js";
import { backoffDelay } from "./retry.js";
import type { KeyValue } from "./templates.js";

/** Attempts of a read-modify-write before it gives up with `conflict`. */
export const MAX_REWRITE_ATTEMPTS = 8;

/** Properties the change-feed handlers maintain on items: counter marks and counted flags. */
function maintainedProperties(item: StoredItem): StoredItem {
  const kept: StoredItem = {};
  for (const [name, value] of Object.entries(item)) {
    if (name.startsWith("applied:") || name.startsWith("counted:")) kept[name] = value;
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
  if (operation === "create" || !keepsMaintainedData(shape)) {
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
    }
  }
  for (let attempt = 1; attempt <= MAX_REWRITE_ATTEMPTS; attempt++) {
    const existing = await readItem(container, target.id, target.keys);
    charged.requestCharge += existing.requestCharge;
    const previous = existing.item;
    if (previous === undefined && operation === "replace") {
      throw new DataAccessError("notFound", `${shape.type} ${target.id} does not exist`, {
        context: { id: target.id },
      });
    }
    const item = await build(previous);
    const etag = typeof previous?.["_etag"] === "string" ? previous["_etag"] : undefined;
    try {
      const response =
        previous === undefined
          ? await container.items.create<StoredItem>(item)
          : await container
              .item(target.id, toPartitionKey(target.keys))
              .replace<StoredItem>(
                item,
                etag === undefined ? {} : { accessCondition: { type: "IfMatch", condition: etag } },
              );
      charged.requestCharge += response.requestCharge;
      return { item: response.resource ?? item, previous, created: previous === undefined };
    } catch (error) {
      charged.requestCharge += chargeOf(error);
      const status = statusOf(error);
      // 412: changed since read; 409: created since read; 404: deleted since read.
      if (status !== 412 && status !== 409 && status !== 404) throw error;
      await new Promise((resolve) =>
        setTimeout(resolve, backoffDelay(attempt, { initialDelayMs: 10, maxDelayMs: 1000 }, runtime.random)),
      );
    }
  }
  throw new DataAccessError(
    "conflict",
    `${shape.type} ${target.id} kept changing while it was rewritten (${MAX_REWRITE_ATTEMPTS} attempts)`,
    { context: { container: shape.container, id: target.id } },
  );
}
