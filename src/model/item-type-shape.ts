/**
 * An item type of the model as the data-access runtime sees it (`ItemTypeShape`): with what it
 * inherits from its `source` chain and the container's partition key paths.
 */
import type { ItemTypeShape } from "../runtime/items.js";
import { effectiveItemType } from "./effective-item-type.js";
import type { Container, ItemType, Model } from "./types.js";
import type { Workload } from "../workload/types.js";

/** Where an item type is, for its runtime shape. */
export interface ShapeContext {
  /** Its container (absent: a shape for keys only, with no container name or key paths). */
  readonly container?: Container;
  /** The model, needed for item types with a `source`. */
  readonly model?: Model;
  /** The entity's attribute names when the workload lists them. */
  readonly attributes?: readonly string[];
  /**
   * The key of each entity the item's entity is linked to many-to-many (`manyToManyKeysOf`):
   * a copy of such an entity's attribute is an array of `{ key, attribute }` elements.
   */
  readonly manyToManyKeys?: Readonly<Record<string, readonly string[]>>;
}

/** The key of each entity `entity` is linked to by a many-to-many relationship, by entity name. */
export function manyToManyKeysOf(workload: Workload, entity: string): Record<string, readonly string[]> {
  const keys: Record<string, readonly string[]> = {};
  for (const relationship of workload.relationships) {
    if (relationship.kind !== "many-to-many" || relationship.parent === relationship.child) continue;
    const other =
      relationship.parent === entity
        ? relationship.child
        : relationship.child === entity
          ? relationship.parent
          : undefined;
    const key = workload.entities.find((candidate) => candidate.name === other)?.key;
    if (other !== undefined && key !== undefined) keys[other] = key;
  }
  return keys;
}

/** The runtime shape of `item`. */
export function itemTypeShapeOf(item: ItemType, where: ShapeContext = {}): ItemTypeShape {
  const effective = effectiveItemType(item, where.model);
  const attributes = where.attributes ?? [];
  return {
    container: where.container?.name ?? "",
    type: item.type,
    entity: item.entity,
    ...(attributes.length === 0 ? {} : { attributes }),
    id: item.id,
    partitionKey: item.partitionKey,
    keyPaths: where.container?.partitionKey ?? [],
    ...(effective.select === undefined ? {} : { select: effective.select }),
    truncate: effective.truncate,
    embeds: effective.embeds,
    copies: effective.copies.map((copy) => {
      const key = where.manyToManyKeys?.[copy.from.entity];
      return key === undefined ? copy : { ...copy, key };
    }),
    counts: effective.counts,
    ...(effective.ancestors === undefined ? {} : { ancestors: effective.ancestors }),
    ...(item.source === undefined ? {} : { source: item.source }),
    ...(item.keepLatest === undefined ? {} : { keepLatest: item.keepLatest }),
    ...(item.bucket === undefined ? {} : { bucket: item.bucket }),
    ...(item.shards === undefined ? {} : { shards: item.shards }),
    ...(item.shardBy === undefined ? {} : { shardBy: item.shardBy }),
    ...(item.ttl === undefined ? {} : { ttl: item.ttl }),
    ...(item.replicas === undefined ? {} : { replicas: item.replicas }),
  };
}
