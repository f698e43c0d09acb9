/**
 * Which writes change where an item lives. The partition key value of an item cannot be changed
 * in place, nor its id: an item whose id or key is rendered from an attribute a write changes
 * must be moved (created under its new id and key, the old one deleted: two requests in two
 * logical partitions, so no transactional batch). The planner plans those moves; the model check
 * refuses item types that cannot be moved (a bucket holds many records under one id).
 */
import { isKeyAttribute } from "../workload/keys.js";
import type { Entity, Workload, WritePattern } from "../workload/types.js";
import { templateAttributes } from "./templates.js";
import type { ItemType, Model } from "./types.js";

/**
 * The attributes a write of `pattern` may change: those its `changes` lists, or without a list
 * every attribute whose `changes` is `rare` or `frequent`; never the entity's key (its identity),
 * nothing for a create or a delete.
 * @example attributesChangedBy(ticket, { operation: "patch", changes: ["status"], ... }) // Set { "status" }
 */
export function attributesChangedBy(entity: Entity, pattern: WritePattern): ReadonlySet<string> {
  if (pattern.operation === "create" || pattern.operation === "delete") return new Set();
  const names = pattern.changes ?? entity.attributes.filter((a) => a.changes !== "never").map((a) => a.name);
  return new Set(names.filter((name) => !isKeyAttribute(entity, name)));
}

/**
 * The attributes that decide where an item of this type lives: those of its id and partition
 * key templates, the attribute that picks its write shard (`shardBy`) and the one that picks its
 * time window (`bucket.by`).
 */
export function addressingAttributes(
  item: Pick<ItemType, "id" | "partitionKey" | "shards" | "shardBy" | "bucket">,
): readonly string[] {
  const names = new Set([item.id, ...item.partitionKey].flatMap((template) => templateAttributes(template)));
  if (item.shardBy !== undefined && item.shards !== undefined) names.add(item.shardBy);
  if (item.bucket?.kind === "window") names.add(item.bucket.by);
  return [...names];
}

/** The addressing attributes of `item` that a write of `pattern` may change (the item must move). */
export function movedBy(entity: Entity, item: ItemType, pattern: WritePattern): readonly string[] {
  if (pattern.entity !== item.entity) return [];
  const changed = attributesChangedBy(entity, pattern);
  return addressingAttributes(item).filter((name) => changed.has(name));
}

/**
 * Why an item type cannot be moved when its address changes, or undefined when it can (a
 * delete and a create of the item): a bucket item holds many records under one id and key.
 */
// A many-to-many copy source that moves: independent seed 23 (a tag keyed by its changing label).
export function unmovableReason(
  item: ItemType,
  linked: { readonly model: Pick<Model, "containers">; readonly workload: Pick<Workload, "relationships"> },
): string | undefined {
  if (item.bucket !== undefined) {
    return "a bucket item holds many records under one id and partition key: one record cannot move to another bucket by a delete and a create of the item";
  }
  const holders = linkedCopyHolders(linked.model, linked.workload, item.entity);
  if (item.source === undefined && holders.length > 0) {
    return `${holders.join(", ")} ${holders.length > 1 ? "keep copies" : "keeps a copy"} of ${item.entity} across a many-to-many relationship, and the move's delete reaches ${holders.length > 1 ? "them" : "it"} from the change feed as the record's deletion: its elements would be removed from every holder while the record lives on under its new address`;
  }
  return undefined;
}

/**
 * The item types (`container/type`) holding copies of `entity`'s attributes across a many-to-many
 * relationship: arrays with one element per linked record, kept from `entity`'s change feed.
 */
export function linkedCopyHolders(
  model: Pick<Model, "containers">,
  workload: Pick<Workload, "relationships">,
  entity: string,
): string[] {
  const linked = (holder: string): boolean =>
    holder !== entity &&
    workload.relationships.some(
      (r) =>
        r.kind === "many-to-many" &&
        ((r.parent === holder && r.child === entity) || (r.parent === entity && r.child === holder)),
    );
  return model.containers.flatMap((container) =>
    container.items
      .filter(
        (holder) =>
          holder.source === undefined &&
          linked(holder.entity) &&
          holder.copies.some((copy) => copy.from.entity === entity),
      )
      .map((holder) => `${container.name}/${holder.type}`),
  );
}

/**
 * True when a write of `pattern` rewrites or removes one existing record: replace, patch, delete,
 * and an upsert that names what it changes (without `changes` an upsert counts as a create).
 * A bucket item holds its records append-only: such a write cannot be applied to one record of
 * it (the data-access code appends to a bucket, and a delete would remove the whole bucket).
 */
export function rewritesRecords(pattern: WritePattern): boolean {
  return (
    pattern.operation === "replace" ||
    pattern.operation === "patch" ||
    pattern.operation === "delete" ||
    (pattern.operation === "upsert" && pattern.changes !== undefined)
  );
}

/**
 * The addressing attributes of `item` that some write of the workload changes: the item moves
 * when they do (every write pattern on the item's entity is considered).
 */
export function changingAddress(
  entity: Entity,
  patterns: readonly WritePattern[],
  item: ItemType,
): readonly string[] {
  const changed = new Set(patterns.flatMap((pattern) => [...movedBy(entity, item, pattern)]));
  return addressingAttributes(item).filter((name) => changed.has(name));
}

/**
 * True when some write of the workload changes the attribute a bounded set (`keepLatest`) is
 * ordered by: an item outside the set may then enter it on an update.
 */
export function keepLatestOrderChanges(
  entity: Entity,
  patterns: readonly WritePattern[],
  item: ItemType,
): boolean {
  const by = item.keepLatest?.by;
  return (
    by !== undefined &&
    patterns.some((pattern) => pattern.entity === entity.name && attributesChangedBy(entity, pattern).has(by))
  );
}
