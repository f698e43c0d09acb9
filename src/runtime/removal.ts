/**
 * Removing an item: a plain delete, or, for an item type whose deletes must reach counters and
 * copies through the latest-version change feed (`softDelete`), a tombstone: a patch that sets the
 * tombstone property and a `ttl`, so the feed carries the removal and Cosmos DB expires the item.
 */
import { chargeOf, statusOf } from "./errors.js";
import type { ItemTypeShape, StoredItem } from "./items.js";
import { pointer, toPartitionKey } from "./requests.js";
import { propertyRef } from "./sql.js";
import type { KeyValue } from "./templates.js";
import type { Container } from "@azure/cosmos";

/** What a removal did: its charge, whether an item was there, and the tombstone of a soft delete. */
export interface Removal {
  readonly requestCharge: number;
  /** False when no item was there (404): nothing changed, so the change feed shows nothing. */
  readonly removed: boolean;
  /** The tombstone (soft delete); undefined for a plain delete or a missing item. */
  readonly tombstone?: StoredItem;
}

/**
 * Removes the item `id` of `shape` (a missing item is no error): a tombstone patch for a
 * soft-deleted item type, else a delete.
 * @example await removeItem(container, reactionShape, "p1-u1", ["p1-7"]) // { requestCharge, removed, tombstone }
 */
export async function removeItem(
  container: Container,
  shape: Pick<ItemTypeShape, "softDelete">,
  id: string,
  keys: readonly KeyValue[],
): Promise<Removal> {
  if (shape.softDelete === undefined) {
    try {
      const response = await container.item(id, toPartitionKey(keys)).delete();
      return { requestCharge: response.requestCharge, removed: true };
    } catch (error) {
      if (statusOf(error) === 404) return { requestCharge: chargeOf(error), removed: false };
      throw error;
    }
  }
  try {
    const response = await container.item(id, toPartitionKey(keys)).patch<StoredItem>([
      { op: "set", path: pointer(shape.softDelete.property), value: true },
      { op: "set", path: "/ttl", value: shape.softDelete.ttlSeconds },
    ]);
    return response.resource === undefined
      ? { requestCharge: response.requestCharge, removed: true }
      : { requestCharge: response.requestCharge, removed: true, tombstone: response.resource };
  } catch (error) {
    if (statusOf(error) === 404) return { requestCharge: chargeOf(error), removed: false };
    throw error;
  }
}

/**
 * The predicate of a patch that must not land on a soft-delete tombstone (a patch would keep the
 * tombstone property and its ttl: the write would vanish when the tombstone expires); undefined
 * for an item type whose deletes are plain.
 * @example livePredicate({ softDelete: { property: "deleted", ttlSeconds: 86400 } }) // "(NOT IS_DEFINED(c.deleted) OR c.deleted != true)"
 */
export function livePredicate(shape: Pick<ItemTypeShape, "softDelete">): string | undefined {
  if (shape.softDelete === undefined) return undefined;
  const flag = propertyRef(shape.softDelete.property);
  return `(NOT IS_DEFINED(${flag}) OR ${flag} != true)`;
}
