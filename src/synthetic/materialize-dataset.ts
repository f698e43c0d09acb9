/**
 * The items a model stores for a dataset, container by container, with their partition keys:
 * what `verify` loads. Each entity record becomes items through `materializeItem` (the one
 * definition of an item), with its related data computed from the dataset as if every change
 * feed had caught up: copies of the parent's attributes, counters, embedded children (newest
 * first), ancestor keys, one item per replica, buckets, and `keepLatest` trimming per logical
 * partition. Pure.
 */
import { CosmosModelerError } from "../common/errors.js";
import {
  bucketOf,
  effectiveItemType,
  itemPartitionKeyValue,
  materializeItem,
  type RelatedData,
} from "../model/materialize-item.js";
import { countedFromFeedOf } from "../model/deletes.js";
import { parentAddressBinding } from "../model/provenance.js";
import { manyToManyKeysOf } from "../model/item-type-shape.js";
import type { KeyValue } from "../model/templates.js";
import type { Container, ItemType, Model } from "../model/types.js";
import { linkingRelationships, type Dataset, type EntityRecord } from "./generate-records.js";
import type { Entity, Relationship, Workload } from "../workload/types.js";
import { keyValueOf, linkedRecords } from "./many-to-many-links.js";
import { compareValues, newestFirst, recencyAttribute } from "./record-order.js";

/** One item to store, with the partition key value(s) every operation on it needs. */
export interface ItemToLoad {
  readonly itemType: string;
  readonly item: Readonly<Record<string, unknown>>;
  readonly partitionKey: readonly KeyValue[];
}

export interface ContainerItems {
  readonly container: string;
  readonly items: readonly ItemToLoad[];
}

/** Fast lookups over a dataset: records by key, children by parent key per relationship. */
export interface DatasetIndex {
  readonly workload: Workload;
  readonly dataset: Dataset;
  /** The record of `entity` whose key is `key` (`keyValueOf`: a value, or a composite key's list). */
  recordByKey(entity: string, key: unknown): EntityRecord | undefined;
  /** The children holding `parentKey` (`keyValueOf` of the parent's record) in the relationship's via. */
  children(
    relationship: Relationship & { readonly via: readonly string[] },
    parentKey: unknown,
  ): readonly EntityRecord[];
}

/** Builds the lookups once; O(records) time and memory. */
export function indexDataset(workload: Workload, dataset: Dataset): DatasetIndex {
  const byKey = new Map<string, Map<string, EntityRecord>>();
  for (const entity of workload.entities) {
    const map = new Map<string, EntityRecord>();
    for (const record of dataset.entities[entity.name] ?? [])
      map.set(JSON.stringify(keyValueOf(record, entity.key)), record);
    byKey.set(entity.name, map);
  }
  const childMaps = new Map<Relationship, Map<string, EntityRecord[]>>();
  for (const relationship of linkingRelationships(workload)) {
    const map = new Map<string, EntityRecord[]>();
    for (const record of dataset.entities[relationship.child] ?? []) {
      const key = JSON.stringify(keyValueOf(record, relationship.via));
      const list = map.get(key);
      if (list === undefined) map.set(key, [record]);
      else list.push(record);
    }
    childMaps.set(relationship, map);
  }
  return {
    workload,
    dataset,
    recordByKey: (entity, key) => byKey.get(entity)?.get(JSON.stringify(key)),
    children: (relationship, parentKey) => childMaps.get(relationship)?.get(JSON.stringify(parentKey)) ?? [],
  };
}

function entityOf(workload: Workload, name: string): Entity {
  const entity = workload.entities.find((candidate) => candidate.name === name);
  if (entity === undefined) {
    throw new CosmosModelerError(
      "verify.unknownEntity",
      `the model uses entity "${name}", which the workload lacks`,
    );
  }
  return entity;
}

function link(
  workload: Workload,
  parent: string,
  child: string,
): (Relationship & { readonly via: readonly string[] }) | undefined {
  return linkingRelationships(workload).find(
    (relationship) => relationship.parent === parent && relationship.child === child,
  );
}

/**
 * The related data `materializeItem` needs for one record of the item type's entity (everything
 * but replica and bucket, which depend on the item, not on the record).
 */
export function relatedDataOf(
  index: DatasetIndex,
  itemType: ItemType,
  model: Model,
  record: EntityRecord,
): RelatedData {
  const { workload } = index;
  const shape = effectiveItemType(itemType, model);
  const entity = entityOf(workload, itemType.entity);
  const copies: Record<string, EntityRecord> = {};
  const linked: Record<string, readonly EntityRecord[]> = {};
  const manyToManyKeys = manyToManyKeysOf(workload, entity.name);
  for (const copy of shape.copies) {
    const from = copy.from.entity;
    if (manyToManyKeys[from] !== undefined) {
      linked[from] = linkedRecords(workload, index.dataset, entity.name, record, from) ?? [];
      continue;
    }
    if (from === entity.name) {
      copies[from] = record;
      continue;
    }
    const toParent = link(workload, from, entity.name);
    const toChild = link(workload, entity.name, from);
    const source = toParent
      ? index.recordByKey(from, keyValueOf(record, toParent.via))
      : toChild
        ? index.children(toChild, keyValueOf(record, entity.key))[0]
        : undefined;
    // A missing parent copies nothing (null), as a change feed would have nothing to copy.
    copies[from] = source ?? {};
  }
  const counts: Record<string, number> = {};
  for (const counter of shape.counts) {
    const relationship = link(workload, entity.name, counter.of);
    counts[counter.of] =
      relationship === undefined ? 0 : index.children(relationship, keyValueOf(record, entity.key)).length;
  }
  const embeds: Record<string, readonly EntityRecord[] | EntityRecord | null> = {};
  for (const embed of shape.embeds) {
    const relationship = link(workload, entity.name, embed.entity);
    const children =
      relationship === undefined
        ? []
        : newestFirst(
            entityOf(workload, embed.entity),
            index.children(relationship, keyValueOf(record, entity.key)),
          );
    embeds[embed.entity] = relationship?.kind === "one-to-one" ? (children[0] ?? null) : children;
  }
  return {
    copies,
    ...(Object.keys(linked).length === 0 ? {} : { linked, manyToManyKeys }),
    counts,
    embeds,
    ...(shape.ancestors === undefined ? {} : { ancestors: ancestorKeys(index, entity, record) }),
    model,
  };
}

/** Keys of the record's ancestors along its first parent relationship, root first. */
function ancestorKeys(index: DatasetIndex, entity: Entity, record: EntityRecord): KeyValue[] {
  const keys: KeyValue[] = [];
  const seen = new Set<EntityRecord>([record]);
  let child: Entity = entity;
  let childRecord: EntityRecord = record;
  for (;;) {
    const childName: string = child.name;
    const parentLink = linkingRelationships(index.workload).find(
      (relationship) => relationship.child === childName,
    );
    if (parentLink === undefined) break;
    const parentEntity: Entity = entityOf(index.workload, parentLink.parent);
    const parent = index.recordByKey(parentLink.parent, keyValueOf(childRecord, parentLink.via));
    if (parent === undefined || seen.has(parent)) break;
    seen.add(parent);
    // A composite key as its id renders it (`{filmId}-{actorId}`).
    const values = parentEntity.key.map((name) => parent[name]);
    const key = values.length === 1 ? values[0] : values.map(String).join("-");
    if (typeof key === "string" || typeof key === "number" || typeof key === "boolean") keys.unshift(key);
    child = parentEntity;
    childRecord = parent;
  }
  return keys;
}

/**
 * The counted flags an item of `itemType` carries when counters kept from the feed count it: per
 * flag, the record's values of the properties that address the holder (its relationship's `via`,
 * as `src/runtime/counters.ts` records which holder counted it), or true without one.
 */
function countedFlagsOf(
  workload: Workload,
  model: Model,
  container: Container,
  itemType: ItemType,
): (record: EntityRecord) => Readonly<Record<string, unknown>> {
  const counted = countedFromFeedOf(workload, model).find(
    (entry) => entry.container === container.name && entry.itemType === itemType.type,
  );
  // The child's properties that address each holder (`parentAddressBinding`, as the generated
  // counter task reads them).
  const addresses = (counted?.holders ?? []).map((holder) =>
    Object.values(parentAddressBinding(workload, holder, itemType.entity, itemType)),
  );
  return (record) =>
    Object.fromEntries(
      (counted?.flags ?? []).map((flag, index) => {
        const names = addresses[index] ?? [];
        return [
          flag,
          names.length === 0 ? true : Object.fromEntries(names.map((name) => [name, record[name] ?? null])),
        ] as const;
      }),
    );
}

/**
 * Every item the model stores for the dataset, per container in model order.
 * @example materializeDataset(workload, model, generateDataset(workload, { seed: 1 }))
 */
export function materializeDataset(
  workload: Workload,
  model: Model,
  dataset: Dataset,
  options: MaterializeOptions = {},
): readonly ContainerItems[] {
  const index = indexDataset(workload, dataset);
  return model.containers.map((container) => ({
    container: container.name,
    items: container.items.flatMap((itemType) =>
      materializeItemType(index, model, container, itemType, options),
    ),
  }));
}

export interface MaterializeOptions {
  /**
   * Emit only the first N replicas of each record (replicas 0..N-1): enough for samples, where a
   * model with 100,000 replicas would otherwise build 100,000 items per record. Default: all.
   */
  readonly maxReplicas?: number;
}

/** The items of one item type (all its records, replicas, buckets; trimmed by keepLatest). */
export function materializeItemType(
  index: DatasetIndex,
  model: Model,
  container: Container,
  itemType: ItemType,
  options: MaterializeOptions = {},
): readonly ItemToLoad[] {
  const entity = entityOf(index.workload, itemType.entity);
  let records = index.dataset.entities[entity.name] ?? [];
  const replicas = Math.min(itemType.replicas ?? 1, options.maxReplicas ?? Number.POSITIVE_INFINITY);
  const keyOf = (record: EntityRecord, extra: Partial<RelatedData> = {}): string =>
    JSON.stringify(
      itemPartitionKeyValue(itemType, record, {
        ...(itemType.replicas === undefined ? {} : { replica: 0 }),
        ...(itemType.bucket?.kind === "records" ? { bucket: 0 } : {}),
        ...extra,
      }),
    );
  if (itemType.keepLatest !== undefined) records = keepLatest(records, itemType.keepLatest, keyOf);
  const out: ItemToLoad[] = [];
  // Children a counter outside their partition already counts carry its flag (latest-version mode).
  const flags = countedFlagsOf(index.workload, model, container, itemType);
  // The flags read the item's properties too: a copy of a parent attribute may address a holder.
  const withFlags = (item: Record<string, unknown>, record: EntityRecord): Record<string, unknown> => ({
    ...item,
    ...flags({ ...record, ...item }),
  });
  const emit = (record: EntityRecord, related: RelatedData): void => {
    for (let replica = 0; replica < replicas; replica++) {
      const full: RelatedData = { ...related, ...(itemType.replicas === undefined ? {} : { replica }) };
      out.push({
        itemType: itemType.type,
        item: withFlags(materializeItem(itemType, container, record, full), record),
        partitionKey: itemPartitionKeyValue(itemType, record, full),
      });
    }
  };
  if (itemType.bucket === undefined) {
    for (const record of records) emit(record, relatedDataOf(index, itemType, model, record));
    return out;
  }
  // Buckets: records grouped per logical partition (oldest first), then per bucket.
  const recency = recencyAttribute(entity);
  const bucket = itemType.bucket;
  for (const group of groupBy(records, (record) => keyOf(record)).values()) {
    const ordered =
      recency === undefined ? group : [...group].sort((a, b) => compareValues(a[recency], b[recency]));
    const buckets = new Map<string, { value: string | number; records: EntityRecord[] }>();
    ordered.forEach((record, ordinal) => {
      const value = bucketOf(bucket, record, ordinal);
      const key = JSON.stringify(value);
      const entry = buckets.get(key);
      if (entry === undefined) buckets.set(key, { value, records: [record] });
      else entry.records.push(record);
    });
    for (const { value, records: bucketRecords } of buckets.values()) {
      const first = bucketRecords[0];
      if (first === undefined) continue;
      emit(first, { ...relatedDataOf(index, itemType, model, first), bucket: value, bucketRecords });
    }
  }
  return out;
}

function keepLatest(
  records: readonly EntityRecord[],
  keep: { readonly count: number; readonly by: string },
  partitionOf: (record: EntityRecord) => string,
): readonly EntityRecord[] {
  const kept: EntityRecord[] = [];
  for (const group of groupBy(records, partitionOf).values()) {
    const newest = [...group].sort((a, b) => compareValues(b[keep.by], a[keep.by])).slice(0, keep.count);
    kept.push(...newest);
  }
  return kept;
}

function groupBy<T>(values: readonly T[], keyOf: (value: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const value of values) {
    const key = keyOf(value);
    const list = groups.get(key);
    if (list === undefined) groups.set(key, [value]);
    else list.push(value);
  }
  return groups;
}

/** An item to remove: its container, id and partition key. */
export interface ItemToDelete {
  readonly container: string;
  readonly itemType: string;
  readonly id: string;
  readonly partitionKey: readonly KeyValue[];
}

/** What changes in the stored items between two materializations of the same model. */
export interface ItemChanges {
  /** New or changed items (write with upsert). */
  readonly upserts: readonly (ItemToLoad & { readonly container: string })[];
  readonly deletes: readonly ItemToDelete[];
}

/**
 * The item writes that bring the containers from `before` to `after`: every item that is new or
 * differs, and every item that is gone. Used to emulate what the model's change-feed processors
 * (copies, counters, source copies, trimming) would have written after a request, on endpoints
 * whose change feed does not deliver changes.
 * @example diffItems(materializeDataset(w, m, before), materializeDataset(w, m, after))
 */
export function diffItems(before: readonly ContainerItems[], after: readonly ContainerItems[]): ItemChanges {
  const identity = (container: string, entry: ItemToLoad): string =>
    JSON.stringify([container, entry.partitionKey, entry.item["id"]]);
  const old = new Map<string, ItemToLoad>();
  for (const { container, items } of before)
    for (const entry of items) old.set(identity(container, entry), entry);
  const upserts: (ItemToLoad & { readonly container: string })[] = [];
  for (const { container, items } of after) {
    for (const entry of items) {
      const key = identity(container, entry);
      const previous = old.get(key);
      old.delete(key);
      if (previous === undefined || JSON.stringify(previous.item) !== JSON.stringify(entry.item)) {
        upserts.push({ ...entry, container });
      }
    }
  }
  const deletes: ItemToDelete[] = [];
  for (const [key, entry] of old) {
    const [container] = JSON.parse(key) as [string];
    deletes.push({
      container,
      itemType: entry.itemType,
      id: String(entry.item["id"]),
      partitionKey: entry.partitionKey,
    });
  }
  return { upserts, deletes };
}

/** Items of one container that share an id within one logical partition: the model's ids collide. */
export interface DuplicateItems {
  readonly container: string;
  readonly id: string;
  readonly partitionKey: readonly KeyValue[];
  /** Item types of the colliding items (the same type twice: its id template is not unique). */
  readonly itemTypes: readonly string[];
  readonly count: number;
}

/**
 * Ids that more than one item would take in the same logical partition: Cosmos DB would refuse
 * all but the first (409). Found without an endpoint, so a conflict that is not listed here is
 * an artifact of the endpoint (the embedded one keys hierarchical partitions by their first level
 * only), not a flaw of the model.
 */
export function findDuplicateItems(containers: readonly ContainerItems[]): readonly DuplicateItems[] {
  const duplicates: DuplicateItems[] = [];
  for (const { container, items } of containers) {
    const groups = new Map<string, ItemToLoad[]>();
    for (const entry of items) {
      const key = JSON.stringify([entry.partitionKey, entry.item["id"]]);
      const list = groups.get(key);
      if (list === undefined) groups.set(key, [entry]);
      else list.push(entry);
    }
    for (const group of groups.values()) {
      const first = group[0];
      if (group.length < 2 || first === undefined) continue;
      duplicates.push({
        container,
        id: String(first.item["id"]),
        partitionKey: first.partitionKey,
        itemTypes: group.map((entry) => entry.itemType),
        count: group.length,
      });
    }
  }
  return duplicates;
}
