/**
 * Entity records as the stored Cosmos DB items of an item type of the model. One implementation:
 * the data-access runtime's (`runtime/items.ts`, shipped with generated code), over the item
 * type's runtime shape; here its failures become `CosmosModelerError`s (`model.<code>`). Sample
 * items in the documents, the data loaded by `verify` and the generated code all follow it.
 */
import * as hash from "../runtime/hash.js";
import * as runtime from "../runtime/items.js";
import { itemTypeShapeOf } from "./item-type-shape.js";
import { withModelErrors, type KeyValue } from "./templates.js";
import type { Bucket, Container, ItemType, Model } from "./types.js";

export { effectiveItemType } from "./effective-item-type.js";
export { BUCKET_RECORDS_PROPERTY, truncateUtf8, type EntityRecord } from "../runtime/items.js";
export { fnv1a32 } from "../runtime/hash.js";

/** Everything besides the entity record that an item needs (see the runtime's `RelatedData`). */
export interface RelatedData extends runtime.RelatedData {
  /** For item types with `source`: the model, to find the source item type's derived data. */
  readonly model?: Model;
  /** For copies across many-to-many relationships: the linked entities' keys (`manyToManyKeysOf`). */
  readonly manyToManyKeys?: Readonly<Record<string, readonly string[]>>;
}

const materialize = withModelErrors(runtime.materializeItem);
const keyOf = withModelErrors(runtime.itemKeyOf);

/** The runtime shape of an item type for its keys only (keys inherit nothing from a source). */
function keyShape(itemType: ItemType): runtime.ItemTypeShape {
  const { source: _source, ...own } = itemType;
  return itemTypeShapeOf(own);
}

/**
 * The stored item of `itemType` for one entity record.
 * @example materializeItem(postType, postsContainer, { postId: "p1", userId: "u1" }, { copies: { User: { username: "ann" } } })
 */
export function materializeItem(
  itemType: ItemType,
  container: Container,
  record: runtime.EntityRecord,
  related: RelatedData = {},
): Record<string, unknown> {
  const { model, manyToManyKeys, ...rest } = related;
  return materialize(
    itemTypeShapeOf(itemType, {
      container,
      ...(model === undefined ? {} : { model }),
      ...(manyToManyKeys === undefined ? {} : { manyToManyKeys }),
    }),
    record,
    rest,
  );
}

/**
 * The partition key value(s) of the item for `record`: one per partition key path, in order.
 * A template that is exactly one placeholder keeps the value's type (see `renderKeyValue`).
 * @example itemPartitionKeyValue(feedPost, post, { replica: 3 }) // ["post-3"]
 */
export function itemPartitionKeyValue(
  itemType: ItemType,
  record: runtime.EntityRecord,
  related: RelatedData = {},
): KeyValue[] {
  return keyOf(keyShape(itemType), record, related).keys;
}

/** The rendered id of the item for `record`. */
export function itemId(itemType: ItemType, record: runtime.EntityRecord, related: RelatedData = {}): string {
  return keyOf(keyShape(itemType), record, related).id;
}

/**
 * The write shard of a value: FNV-1a modulo `shards` (`model.badShards` for a bad count).
 * @example computeShard("user-42", 20) // a number from 0 to 19, always the same
 */
export const computeShard = withModelErrors(hash.computeShard);

/**
 * The bucket of a record: a window start, or the chunk number of the record's ordinal.
 * @example bucketOf({ kind: "window", by: "timestamp", windowSeconds: 60 }, { timestamp: "2026-11-22T10:15:42Z" }) // "2026-11-22T10:15:00Z"
 */
export const bucketOf: (bucket: Bucket, record: runtime.EntityRecord, ordinal?: number) => string | number =
  withModelErrors(runtime.bucketOf);
