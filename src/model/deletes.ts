/**
 * How deletes reach the counters and copies a model keeps from the change feed (the model's
 * `deletes`, docs/model-format.md#deletes). The latest-version change feed never carries a
 * delete, so a model picks one of two ways per model:
 *
 * - `softDelete` (the default): a delete of an item whose changes feed counters or copies is a
 *   patch that sets a tombstone property and a `ttl`; the latest-version feed carries it as an
 *   update, the handlers treat it as a delete, reads skip tombstones, and the item expires after
 *   `ttl` seconds. The container needs TTL on (`defaultTtl`, -1 when the model sets none), and a
 *   change-feed processor stopped for longer than `ttl` misses the tombstones that expired.
 * - `allVersionsAndDeletes`: plain deletes, read from the all-versions-and-deletes change feed.
 *   It needs continuous backup on the account (the feed holds the backup's retention: 7 or 30
 *   days), the account feature enabled after creation, and no partition merge; a delete event
 *   carries only the item's id and partition key (no previous image), so every counter and copy a
 *   deleted item feeds must be addressable from those (`model.deleteNotTraceable` otherwise).
 *
 * Sources (checked 2026-11-24):
 * https://learn.microsoft.com/azure/cosmos-db/nosql/change-feed-modes (delete events carry
 * `metadata.id` and `metadata.partitionKey` only; start from now or a continuation; continuous
 * backup required; soft delete with a ttl for latest-version mode),
 * https://learn.microsoft.com/azure/cosmos-db/continuous-backup-restore-introduction (7-day and
 * 30-day tiers; the 7-day tier is not charged for backup storage).
 */
import { countedFlag } from "../runtime/counters.js";
import { templateAttributes, parseTemplate } from "./templates.js";
import { manyToManyKeysOf } from "./item-type-shape.js";
import { counterInBatch, parentBinding, relationshipOf } from "./provenance.js";
import { addressingAttributes } from "./key-changes.js";
import type { Container, DeletePropagation, ItemType, Model } from "./types.js";
import type { Workload } from "../workload/types.js";

/** The tombstone property of a soft delete when the model names none. */
export const DEFAULT_TOMBSTONE_PROPERTY = "deleted";

/**
 * How long a tombstone lives when the model says nothing: 7 days, the retention of the 7-day
 * continuous backup tier, so both modes tolerate the same change-feed processor outage.
 */
export const DEFAULT_TOMBSTONE_TTL_SECONDS = 7 * 86_400;

/** The default: soft delete with a `deleted` tombstone that lives 7 days. */
export const DEFAULT_DELETE_PROPAGATION: DeletePropagation = {
  mode: "softDelete",
  property: DEFAULT_TOMBSTONE_PROPERTY,
  ttlSeconds: DEFAULT_TOMBSTONE_TTL_SECONDS,
};

/** The model's way of carrying deletes to the change feed (the default when it names none). */
export function deletePropagationOf(model: Pick<Model, "deletes">): DeletePropagation {
  return model.deletes ?? DEFAULT_DELETE_PROPAGATION;
}

/** True when the account needs continuous backup for this model (all-versions-and-deletes). */
export function needsContinuousBackup(model: Pick<Model, "deletes">): boolean {
  return deletePropagationOf(model).mode === "allVersionsAndDeletes";
}

/** Why the change feed must carry the deletes of an item type. */
export type DeleteTarget =
  /** Another item type is a copy of it (`source:`): the copy is deleted too. */
  | { readonly kind: "copy"; readonly container: string; readonly itemType: string }
  /** A counter of its entity on a parent item outside its logical partition. */
  | {
      readonly kind: "counter";
      readonly container: string;
      readonly itemType: string;
      readonly property: string;
    }
  /**
   * Items that copy its attribute across a many-to-many relationship: its element is removed
   * from their array (`property`), found by its key.
   */
  | {
      readonly kind: "linkedCopy";
      readonly container: string;
      readonly itemType: string;
      readonly property: string;
    }
  /**
   * Items that copy its attribute as children (a relationship with `via` from its entity to
   * theirs): the children stay (deletes never cascade) and their copy becomes null, what a
   * missing parent's attribute reads as; found by the query on `via`.
   */
  | {
      readonly kind: "parentCopy";
      readonly container: string;
      readonly itemType: string;
      readonly property: string;
    };

/** An item type whose deletes the change feed must carry, and the derived data they reach. */
export interface DeleteCarrier {
  readonly container: string;
  readonly itemType: string;
  readonly entity: string;
  readonly targets: readonly DeleteTarget[];
}

/**
 * True when a counter holder is kept in the counted child's transactional batch (the same logical
 * partition, and no write re-parents the child: `counterInBatch`), not from the change feed.
 */
export function holderSharesPartition(
  workload: Workload,
  holder: { readonly container: Container; readonly item: ItemType },
  child: { readonly container: Container; readonly item: ItemType },
): boolean {
  return counterInBatch(workload, holder, child);
}

/**
 * The item types counted by a parent's counter held outside their logical partition (kept from the
 * change feed), with the flags they carry in latest-version mode (`countedFlag` of
 * `src/runtime/counters.ts`: `counted:<holder type>.<counter>`, set while a holder counts them),
 * each flag with the item type that holds the counter (`holders`, in the order of `flags`).
 */
export function countedFromFeedOf(
  workload: Workload,
  model: Model,
): readonly {
  readonly container: string;
  readonly itemType: string;
  readonly flags: readonly string[];
  readonly holders: readonly ItemType[];
}[] {
  // Memoized per model and workload, like deleteCarriersOf: every item type asks.
  let byWorkload = countedMemo.get(model);
  if (byWorkload === undefined) {
    byWorkload = new WeakMap();
    countedMemo.set(model, byWorkload);
  }
  let found = byWorkload.get(workload);
  if (found === undefined) {
    found = computeCountedFromFeed(workload, model);
    byWorkload.set(workload, found);
  }
  return found;
}

type CountedFromFeed = readonly {
  readonly container: string;
  readonly itemType: string;
  readonly flags: readonly string[];
  readonly holders: readonly ItemType[];
}[];

const countedMemo = new WeakMap<Model, WeakMap<Workload, CountedFromFeed>>();

function computeCountedFromFeed(workload: Workload, model: Model): CountedFromFeed {
  const found: { container: string; itemType: string; flags: string[]; holders: ItemType[] }[] = [];
  for (const container of model.containers) {
    for (const item of container.items) {
      if (item.source !== undefined) continue;
      const flags: string[] = [];
      const holders: ItemType[] = [];
      for (const other of model.containers) {
        for (const holder of other.items) {
          if (holder.source !== undefined || !holder.counts.some((counter) => counter.of === item.entity))
            continue;
          if (holderSharesPartition(workload, { container: other, item: holder }, { container, item }))
            continue;
          for (const counter of holder.counts) {
            if (counter.of !== item.entity) continue;
            flags.push(countedFlag({ holder: { itemType: holder.type }, property: counter.as }));
            holders.push(holder);
          }
        }
      }
      if (flags.length > 0) found.push({ container: container.name, itemType: item.type, flags, holders });
    }
  }
  return found;
}

/** True when some write of `entity` removes an item of `item` (a delete, or a change of its keys). */
function removesItems(workload: Workload, entity: string, item: ItemType): boolean {
  const keyAttributes = new Set([item.id, ...item.partitionKey].flatMap((t) => templateAttributes(t)));
  return workload.accessPatterns.some(
    (pattern) =>
      pattern.type === "write" &&
      pattern.entity === entity &&
      (pattern.operation === "delete" ||
        ((pattern.operation === "replace" ||
          pattern.operation === "patch" ||
          pattern.operation === "upsert") &&
          pattern.changes?.some((name) => keyAttributes.has(name)) === true)),
  );
}

/**
 * The item types whose deletes must reach derived data through the change feed: items that are
 * removed by some write (a delete pattern, or a change of their id or key) and are the `source` of
 * a copy or the counted child of a counter held outside their logical partition.
 * @example deleteCarriersOf(workload, model) // [{ container: "reactions", itemType: "reaction", targets: [{ kind: "counter", ... }] }]
 */
export function deleteCarriersOf(workload: Workload, model: Model): readonly DeleteCarrier[] {
  // Memoized per model and workload (both immutable): the evaluation asks once per container,
  // and the search is quadratic in item types (a 500-entity design spent 77 s here).
  let byWorkload = carriersMemo.get(model);
  if (byWorkload === undefined) {
    byWorkload = new WeakMap();
    carriersMemo.set(model, byWorkload);
  }
  let carriers = byWorkload.get(workload);
  if (carriers === undefined) {
    carriers = computeDeleteCarriers(workload, model);
    byWorkload.set(workload, carriers);
  }
  return carriers;
}

const carriersMemo = new WeakMap<Model, WeakMap<Workload, readonly DeleteCarrier[]>>();

function computeDeleteCarriers(workload: Workload, model: Model): readonly DeleteCarrier[] {
  const carriers: DeleteCarrier[] = [];
  for (const container of model.containers) {
    for (const item of container.items) {
      const targets: DeleteTarget[] = [];
      for (const other of model.containers) {
        for (const copy of other.items) {
          if (copy.source?.container === container.name && copy.source.type === item.type) {
            targets.push({ kind: "copy", container: other.name, itemType: copy.type });
          }
          if (copy.source !== undefined) continue;
          for (const linked of copy.copies) {
            if (linked.from.entity !== item.entity || item.source !== undefined) continue;
            if (manyToManyKeysOf(workload, copy.entity)[item.entity] === undefined) continue;
            targets.push({
              kind: "linkedCopy",
              container: other.name,
              itemType: copy.type,
              property: linked.as,
            });
          }
          for (const held of copy.copies) {
            if (held.from.entity !== item.entity || item.source !== undefined) continue;
            if (manyToManyKeysOf(workload, copy.entity)[item.entity] !== undefined) continue;
            const link = workload.relationships.find(
              (r) => r.parent === item.entity && r.child === copy.entity,
            );
            if (link?.via === undefined) continue;
            targets.push({
              kind: "parentCopy",
              container: other.name,
              itemType: copy.type,
              property: held.as,
            });
          }
          for (const counter of copy.counts) {
            if (counter.of !== item.entity || item.source !== undefined) continue;
            if (holderSharesPartition(workload, { container: other, item: copy }, { container, item }))
              continue;
            targets.push({
              kind: "counter",
              container: other.name,
              itemType: copy.type,
              property: counter.as,
            });
          }
        }
      }
      if (targets.length === 0 || !removesItems(workload, item.entity, item)) continue;
      carriers.push({ container: container.name, itemType: item.type, entity: item.entity, targets });
    }
  }
  return carriers;
}

/**
 * The attributes a delete event of the all-versions-and-deletes feed gives back: those its id and
 * partition key values can be read back into without ambiguity (`unrenderTemplate`): a template
 * that is the attribute itself (`{postId}`), or one attribute with the write shard or read
 * replica and literal text (`{postId}-{shard}`).
 */
export function attributesOfDeleteEvent(item: Pick<ItemType, "id" | "partitionKey">): readonly string[] {
  const names: string[] = [];
  for (const template of [item.id, ...item.partitionKey]) {
    const parts = parseTemplate(template);
    const attributes = parts.filter((part) => part.kind === "attribute");
    if (attributes.length !== 1 || parts.some((part) => part.kind === "bucket")) continue;
    const only = attributes[0];
    if (only?.kind === "attribute" && !names.includes(only.name)) names.push(only.name);
  }
  return names;
}

/** A counter or copy that a delete event of the all-versions-and-deletes feed cannot address. */
export interface UntraceableDelete {
  readonly container: string;
  readonly itemType: string;
  readonly target: DeleteTarget;
  /** Attributes the target's keys (or the counter's marker) need that the event does not give. */
  readonly missing: readonly string[];
}

function placementOf(
  model: Model,
  container: string,
  type: string,
): { container: Container; item: ItemType } | undefined {
  const found = model.containers.find((c) => c.name === container);
  const item = found?.items.find((i) => i.type === type);
  return found === undefined || item === undefined ? undefined : { container: found, item };
}

/** The attributes a target's id and partition key (and shard) are rendered from, in the carrier's terms. */
function targetAttributes(
  workload: Workload,
  model: Model,
  carrier: DeleteCarrier,
  target: DeleteTarget,
): string[] {
  const placement = placementOf(model, target.container, target.itemType);
  if (placement === undefined) return [];
  const { item } = placement;
  // The holders of a linked or parent's copy are found by the deleted record's key (a query).
  if (target.kind === "linkedCopy" || target.kind === "parentCopy") {
    return [...(workload.entities.find((e) => e.name === carrier.entity)?.key ?? [])];
  }
  if (target.kind === "counter") {
    // The holder is addressed from the child through the relationship (its via holds the
    // holder's key; a copy may give another attribute): an attribute the child does not give
    // is named as the holder's, which no delete event carries.
    const relationship = relationshipOf(workload, item.entity, carrier.entity);
    const carrierItem = placementOf(model, carrier.container, carrier.itemType)?.item;
    const binding = relationship === undefined ? {} : parentBinding(workload, relationship, carrierItem);
    return [...new Set(addressingAttributes(item).map((name) => binding[name] ?? `${item.entity}.${name}`))];
  }
  return [...addressingAttributes(item)];
}

/**
 * With all versions and deletes, the counters and copies whose item a delete event (id and
 * partition key only) cannot address: their keys need attributes the deleted item's id and key
 * do not hold as a whole template. Empty for soft delete (the tombstone is the whole item).
 * @example untraceableDeletes(workload, { ...model, deletes: { mode: "allVersionsAndDeletes", retentionDays: 7 } })
 */
export function untraceableDeletes(workload: Workload, model: Model): readonly UntraceableDelete[] {
  if (deletePropagationOf(model).mode !== "allVersionsAndDeletes") return [];
  const found: UntraceableDelete[] = [];
  for (const carrier of deleteCarriersOf(workload, model)) {
    const source = placementOf(model, carrier.container, carrier.itemType);
    if (source === undefined) continue;
    const given = new Set(attributesOfDeleteEvent(source.item));
    for (const target of carrier.targets) {
      const missing = targetAttributes(workload, model, carrier, target).filter((name) => !given.has(name));
      if (missing.length > 0)
        found.push({ container: carrier.container, itemType: carrier.itemType, target, missing });
    }
  }
  return found;
}
