/**
 * The model facts a generated data-access module carries as data: the stored shape of every item
 * type (with what it inherits from its `source`), and where the records an item copies from can be
 * point-read.
 */
import { countedFromFeedOf, deleteCarriersOf, deletePropagationOf } from "../../model/deletes.js";
import { itemTypeShapeOf, manyToManyKeysOf } from "../../model/item-type-shape.js";
import { keyedPlacement } from "../../model/keyed-placement.js";
import { parentAddressBinding } from "../../model/provenance.js";
import type { ItemTypeShape } from "../../runtime/items.js";
import type { CopySource } from "../../runtime/tasks.js";
import type { Container, ItemType, Model } from "../../model/types.js";
import type { Entity, Relationship, Workload } from "../../workload/types.js";

/** The JSON shape of `ItemTypeShape` in the generated module. */
export type ItemTypeShapeData = ItemTypeShape;

/** Key of an item type in the generated module's tables: `container/type`. */
export function shapeKey(container: string, type: string): string {
  return `${container}/${type}`;
}

/** The entity of a workload by name, if any. */
export function entityNamed(workload: Workload, name: string): Entity | undefined {
  return workload.entities.find((entity) => entity.name === name);
}

/** The relationship from `parent` to `child`, if any. */
export function relationshipOf(workload: Workload, parent: string, child: string): Relationship | undefined {
  return workload.relationships.find((r) => r.parent === parent && r.child === child);
}

/** The stored shape of one item type. */
export function shapeOf(
  workload: Workload,
  model: Model,
  container: Container,
  item: ItemType,
): ItemTypeShapeData {
  const attributes = entityNamed(workload, item.entity)?.attributes.map((a) => a.name) ?? [];
  return itemTypeShapeOf(item, {
    container,
    model,
    attributes,
    manyToManyKeys: manyToManyKeysOf(workload, item.entity),
  });
}

/**
 * Every item type's shape, by `container/type`, in model order; delete carriers get the model's
 * soft delete (`src/model/deletes.ts`).
 */
export function shapesOf(workload: Workload, model: Model): ReadonlyMap<string, ItemTypeShapeData> {
  const deletes = deletePropagationOf(model);
  const tombstoned = new Set(
    deletes.mode === "softDelete"
      ? deleteCarriersOf(workload, model).map((carrier) => shapeKey(carrier.container, carrier.itemType))
      : [],
  );
  // Counted children carry their flags in both modes: the feed's handlers use them in latest-version
  // mode, and changes applied in-process (applyChanges) in both, so a rewrite keeps them.
  const counted = new Set(
    countedFromFeedOf(workload, model).map((placement) => shapeKey(placement.container, placement.itemType)),
  );
  const shapes = new Map<string, ItemTypeShapeData>();
  for (const container of model.containers) {
    for (const item of container.items) {
      const key = shapeKey(container.name, item.type);
      const shape = shapeOf(workload, model, container, item);
      shapes.set(key, {
        ...shape,
        ...(tombstoned.has(key) && deletes.mode === "softDelete"
          ? { softDelete: { property: deletes.property, ttlSeconds: deletes.ttlSeconds } }
          : {}),
        ...(counted.has(key) ? { countedFromFeed: true } : {}),
      });
    }
  }
  return shapes;
}

/** The change feed mode the model's deletes need. */
export function changeFeedModeOf(model: Model): "latestVersion" | "allVersionsAndDeletes" {
  return deletePropagationOf(model).mode === "allVersionsAndDeletes"
    ? "allVersionsAndDeletes"
    : "latestVersion";
}

/** A point read of a copied-from record by templates rendered from the copying record. */
export type CopySourceData = CopySource;

/**
 * For each item type with copies: where to read each copied-from entity's record, its own
 * templates rendered from the copying record's link attribute (`{userId}` of the post).
 */
export function copySourcesOf(
  workload: Workload,
  model: Model,
  shapes: ReadonlyMap<string, ItemTypeShapeData>,
): ReadonlyMap<string, Readonly<Record<string, CopySourceData>>> {
  const out = new Map<string, Record<string, CopySourceData>>();
  for (const [key, shape] of shapes) {
    const sources: Record<string, CopySourceData> = {};
    for (const copy of shape.copies) {
      const parent = entityNamed(workload, copy.from.entity);
      const via = relationshipOf(workload, copy.from.entity, shape.entity)?.via;
      if (parent === undefined || via === undefined || sources[parent.name] !== undefined) continue;
      const placement = keyedPlacement(model, parent);
      if (placement === undefined) continue;
      sources[parent.name] = {
        container: placement.container.name,
        itemType: placement.item.type,
        id: placement.item.id,
        partitionKey: placement.item.partitionKey,
        bind: parentAddressBinding(workload, placement.item, shape.entity),
      };
    }
    if (Object.keys(sources).length > 0) out.set(key, sources);
  }
  return out;
}
