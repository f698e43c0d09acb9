/**
 * The shape of a stored item, as far as cost depends on it: its JSON size (average and largest)
 * and the leaf values an indexing policy can index. Derived from the entity's sizes and
 * attributes and from the item type's projection, truncation, embeds, copies, counters and
 * buckets.
 */
import { KEY_PROPERTY_VALUE_BYTES } from "../cosmos/limits.js";
import { isKeyAttribute } from "../workload/keys.js";
import type { Container, Copy, ItemType } from "../model/types.js";
import type { Attribute, Entity } from "../workload/types.js";
import type { PlanningContext } from "./context.js";
import { manyToManyLink, type ManyToManyLink } from "./many-to-many.js";

/** JSON sizes of values whose size the workload does not give (quotes included). */
const DEFAULT_VALUE_BYTES = {
  number: 8,
  boolean: 5,
  // "2026-11-22T08:15:00.000Z" with its quotes.
  datetime: 26,
} as const;
/** Smallest size assumed for a string/object/array value whose size is not given. */
const MIN_FREE_VALUE_BYTES = 12;
/** Leaf values assumed inside an `object` or `array` attribute whose content is not described. */
const LEAVES_PER_COMPOSITE_VALUE = 3;
/**
 * How many times the average a maximum is when the workload gives none: children per parent,
 * links per holder (as an entity's `maxBytes` defaults to 4 x `avgBytes`).
 */
export const UNBOUNDED_MAX_FACTOR = 4;
/** JSON of a counter value (`"commentCount":123,` is the name plus this). */
const COUNTER_VALUE_BYTES = 6;

/** Bytes of `"name":` plus the separating comma. */
function propertyOverhead(name: string): number {
  return name.length + 4;
}

/** Average JSON size of each attribute's value: given sizes first, the rest shares what is left. */
export function attributeValueBytes(entity: Entity): ReadonlyMap<string, number> {
  const sizes = new Map<string, number>();
  let known = 2; // the braces of the object
  const free: Attribute[] = [];
  for (const attribute of entity.attributes) {
    known += propertyOverhead(attribute.name);
    if (attribute.avgBytes !== undefined) {
      sizes.set(attribute.name, attribute.avgBytes);
      known += attribute.avgBytes;
    } else if (attribute.type === "number" || attribute.type === "boolean" || attribute.type === "datetime") {
      sizes.set(attribute.name, DEFAULT_VALUE_BYTES[attribute.type]);
      known += DEFAULT_VALUE_BYTES[attribute.type];
    } else {
      free.push(attribute);
    }
  }
  const share =
    free.length === 0 ? 0 : Math.max(MIN_FREE_VALUE_BYTES, (entity.avgBytes - known) / free.length);
  for (const attribute of free) sizes.set(attribute.name, share);
  return sizes;
}

/** Size of one attribute as a property (name, value and comma). */
export function attributePropertyBytes(entity: Entity, name: string): number {
  const value = attributeValueBytes(entity).get(name) ?? MIN_FREE_VALUE_BYTES;
  return propertyOverhead(name) + value;
}

/** Paths (without leading slash) an item type adds besides the entity's attributes. */
function extraKeyProperties(container: Container, item: ItemType, entity: Entity): string[] {
  const names = new Set(entity.attributes.map((a) => a.name));
  const extra: string[] = [];
  for (const path of container.partitionKey) {
    const name = path.replace(/^\//, "");
    if (name !== "id" && !names.has(name)) extra.push(name);
  }
  if (item.bucket !== undefined) extra.push("bucketStart");
  return extra;
}

export interface ItemShape {
  /** Average JSON size without system properties. */
  readonly avgBytes: number;
  /** Largest JSON size without system properties (a bucket at `recordsPerItem` records). */
  readonly maxBytes: number;
  /** Entity records in one item (buckets hold several; on average for a time window). */
  readonly recordsPerItem: number;
  /**
   * The largest record's share of `maxBytes`: a bucket of N records is at most
   * `maxBytes + (N - recordsPerItem) x recordMaxBytes` (what an evaluation at the workload's
   * maxima needs).
   */
  readonly recordMaxBytes: number;
  /** Leaf paths of the item with how many values each holds (e.g. 30 for a bucket's array). */
  readonly leaves: readonly { readonly path: string; readonly count: number }[];
}

/**
 * The size and leaf paths of one item of `item` in `container`.
 * `recordsPerBucket` is the number of records a bucket item holds (computed by the planner from
 * the write rate for time-window buckets).
 */
export function describeItemShape(
  context: PlanningContext,
  container: Container,
  item: ItemType,
  recordsPerBucket = 1,
): ItemShape {
  const entity = context.entity(item.entity);
  const sizes = attributeValueBytes(entity);
  const attributes = entity.attributes.filter(
    (a) => item.select === undefined || item.select.includes(a.name),
  );
  let record: number;
  let recordMax: number;
  if (entity.attributes.length === 0) {
    record = entity.avgBytes;
    recordMax = entity.maxBytes;
  } else if (item.select === undefined) {
    record = entity.avgBytes;
    recordMax = entity.maxBytes;
  } else {
    record = 2 + attributes.reduce((sum, a) => sum + propertyOverhead(a.name) + (sizes.get(a.name) ?? 0), 0);
    recordMax = Math.min(entity.maxBytes, record * (entity.maxBytes / entity.avgBytes));
  }
  for (const cut of item.truncate) {
    const size = sizes.get(cut.attribute);
    if (size !== undefined && size > cut.bytes) {
      record -= size - cut.bytes;
      // The largest item loses at least as much: its long value is cut to the same N bytes.
      recordMax -= Math.max(size - cut.bytes, 0) * (entity.maxBytes / entity.avgBytes);
    }
  }
  const leaves: { path: string; count: number }[] = [];
  const records = item.bucket === undefined ? 1 : recordsPerBucket;
  const recordPrefix = item.bucket === undefined ? "" : "/records/[]";
  for (const attribute of attributes) {
    const leafCount =
      attribute.type === "object" || attribute.type === "array" ? LEAVES_PER_COMPOSITE_VALUE : 1;
    leaves.push({ path: `${recordPrefix}/${attribute.name}`, count: records * leafCount });
  }
  if (entity.attributes.length === 0) leaves.push({ path: `${recordPrefix}/*`, count: records * 5 });
  let avg = record * records;
  let max = Math.max(recordMax, record) * records;
  // id, type and any synthetic key property.
  const keyValueBytes = KEY_PROPERTY_VALUE_BYTES;
  const fixed = ["id", "type", ...extraKeyProperties(container, item, entity)];
  for (const name of fixed) {
    leaves.push({ path: `/${name}`, count: 1 });
    avg += propertyOverhead(name) + keyValueBytes;
    max += propertyOverhead(name) + keyValueBytes;
  }
  for (const copy of item.copies) {
    const link = manyToManyLink(context, item.entity, copy.from.entity);
    if (link !== undefined) {
      // An array of { key, attribute } elements, one per linked record (many-to-many.ts).
      const array = manyToManyCopyBytes(context, copy, link);
      avg += propertyOverhead(copy.as) + 2 + array.avg;
      max += propertyOverhead(copy.as) + 2 + array.max;
      leaves.push({ path: `/${copy.as}/[]/*`, count: link.linksPerHolder.avg * 2 });
      continue;
    }
    const source = context.entity(copy.from.entity);
    const bytes = propertyOverhead(copy.as) + (attributeValueBytes(source).get(copy.from.attribute) ?? 20);
    avg += bytes;
    max += bytes;
    leaves.push({ path: `/${copy.as}`, count: 1 });
  }
  for (const counter of item.counts) {
    avg += propertyOverhead(counter.as) + COUNTER_VALUE_BYTES;
    max += propertyOverhead(counter.as) + COUNTER_VALUE_BYTES;
    leaves.push({ path: `/${counter.as}`, count: 1 });
  }
  for (const embed of item.embeds) {
    const child = context.entity(embed.entity);
    const relationship = context.relationship(item.entity, embed.entity);
    const average = Math.min(embed.latest ?? Number.POSITIVE_INFINITY, relationship?.avg ?? 1);
    // At most `max` children, or 4 x the average when the relationship gives no maximum (the
    // default of maxima throughout: an entity's largest record, a many-to-many holder's links).
    const most = Math.min(
      embed.latest ?? Number.POSITIVE_INFINITY,
      relationship?.max ?? UNBOUNDED_MAX_FACTOR * (relationship?.avg ?? 1),
    );
    avg += propertyOverhead(embed.as) + average * (child.avgBytes + 1);
    max += propertyOverhead(embed.as) + Math.max(most, average) * (child.maxBytes + 1);
    const childLeaves = Math.max(1, child.attributes.length);
    leaves.push({ path: `/${embed.as}/[]/*`, count: average * childLeaves });
  }
  if (item.ancestors !== undefined) {
    avg += propertyOverhead(item.ancestors.as) + 3 * keyValueBytes;
    max += propertyOverhead(item.ancestors.as) + 3 * keyValueBytes;
    leaves.push({ path: `/${item.ancestors.as}/[]`, count: 3 });
  }
  if (item.ttl !== undefined) {
    avg += propertyOverhead("ttl") + 8;
    max += propertyOverhead("ttl") + 8;
  }
  return {
    avgBytes: Math.max(avg, 2),
    maxBytes: Math.max(max, avg, 2),
    recordsPerItem: records,
    recordMaxBytes: Math.max(recordMax, record),
    leaves,
  };
}

/** JSON bytes of one array element `{"tagId":...,"label":...}` (braces and comma included). */
export function elementBytes(context: PlanningContext, copy: Copy): number {
  const source = context.entity(copy.from.entity);
  const key = source.key.reduce((sum, name) => sum + attributePropertyBytes(source, name), 0);
  return (
    3 +
    key +
    (isKeyAttribute(source, copy.from.attribute) ? 0 : attributePropertyBytes(source, copy.from.attribute))
  );
}

/**
 * Bytes of the copied array in the average and the largest holder: the links per holder times
 * an element; the largest holder has `max` links, else (no maximum given) 4 x the average, as
 * an entity's largest item is 4 x its average by default.
 */
export function manyToManyCopyBytes(
  context: PlanningContext,
  copy: Copy,
  link: ManyToManyLink,
): { readonly avg: number; readonly max: number } {
  const element = elementBytes(context, copy);
  const most = link.linksPerHolder.max ?? UNBOUNDED_MAX_FACTOR * link.linksPerHolder.avg;
  return { avg: link.linksPerHolder.avg * element, max: Math.max(most, link.linksPerHolder.avg) * element };
}
