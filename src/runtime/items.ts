/**
 * The one place that turns entity records into the stored items of an item type, and stored
 * items back into records: the generated data-access code, the sample items of the documents
 * and the data `verify` loads all follow it, so they cannot disagree about what an item is.
 *
 * An item holds, in this order: `id` (its rendered template); one property per partition key
 * path (`/feedPartition` -> `feedPartition`, `/a/b` -> `a.b`) holding the rendered key; `type`;
 * the entity's attributes (after `select` and `truncate`); copies, counters and embeds under
 * their `as`; the ancestors array; `ttl`. The id, key properties and `type` win over attributes
 * of the same name. A bucketed item holds the attributes its templates use, the window start
 * under the bucket's `by` attribute (time windows), and the bucket's records under `records`.
 */
import { keyIdentity } from "./record-keys.js";
import { DataAccessError } from "./errors.js";
import { computeShard } from "./hash.js";
import {
  parseTemplate,
  renderItemId,
  renderPartitionKeyValue,
  renderTemplate,
  type KeyValue,
  type TemplateValues,
} from "./templates.js";

/** A plain JSON-like record: attribute name -> value. */
export type EntityRecord = Readonly<Record<string, unknown>>;

/** A stored item: its JSON properties. */
export type StoredItem = Record<string, unknown>;

/** Property of a bucketed item that holds the records of the bucket. */
export const BUCKET_RECORDS_PROPERTY = "records";

/** Bucketing of an item type: N records per item, or a time window. */
export type Bucket =
  | { readonly kind: "records"; readonly records: number }
  | { readonly kind: "window"; readonly by: string; readonly windowSeconds: number };

/** A child entity embedded in its parent's item. */
export interface Embed {
  readonly entity: string;
  readonly as: string;
  /** Keep only the newest N children. */
  readonly latest?: number;
}

/** An attribute of a related entity copied into the item. */
export interface Copy {
  readonly from: { readonly entity: string; readonly attribute: string };
  readonly as: string;
  /**
   * Across a many-to-many relationship: the source entity's key attributes. The item then holds
   * an array with one element per linked record, `{ <key attributes>: values, <attribute>: value }`,
   * taken from `related.linked`.
   */
  readonly key?: readonly string[];
}

/** A count of child items kept on the item. */
export interface Counter {
  readonly of: string;
  readonly as: string;
}

/** An item type as stored (with what it inherits from its source): what the model defines. */
export interface ItemTypeShape {
  readonly container: string;
  readonly type: string;
  readonly entity: string;
  /** The entity's attributes, when the workload lists them. */
  readonly attributes?: readonly string[];
  readonly id: string;
  readonly partitionKey: readonly string[];
  /** The container's partition key paths. */
  readonly keyPaths: readonly string[];
  readonly select?: readonly string[];
  readonly truncate: readonly { readonly attribute: string; readonly bytes: number }[];
  readonly embeds: readonly Embed[];
  readonly copies: readonly Copy[];
  readonly counts: readonly Counter[];
  readonly ancestors?: { readonly as: string };
  readonly source?: { readonly container: string; readonly type: string };
  readonly keepLatest?: { readonly count: number; readonly by: string };
  readonly bucket?: Bucket;
  readonly shards?: number;
  readonly shardBy?: string;
  readonly ttl?: number;
  readonly replicas?: number;
  /**
   * Deletes of this item type reach counters and copies as tombstones: a delete sets `property`
   * to true and the item's `ttl` (the model's `deletes: softDelete`, for delete carriers).
   */
  readonly softDelete?: { readonly property: string; readonly ttlSeconds: number };
  /**
   * Counted by a parent's counter kept from the change feed: the item carries the counters' flags
   * (`src/runtime/counters.ts`: the latest-version feed's handlers and changes applied in-process
   * read them), which a rewrite keeps.
   */
  readonly countedFromFeed?: boolean;
}

/** Everything besides the entity record that an item needs. */
export interface RelatedData {
  /** For `copies`: the record of each entity copied from, by entity name (e.g. the post's `User`). */
  readonly copies?: Readonly<Record<string, EntityRecord>>;
  /**
   * For copies across a many-to-many relationship (`Copy.key`): the linked records of each
   * entity copied from, by entity name (e.g. a product's `Tag` records).
   */
  readonly linked?: Readonly<Record<string, readonly EntityRecord[]>>;
  /** For `counts`: the counter value by counted child entity name; missing = 0. */
  readonly counts?: Readonly<Record<string, number>>;
  /**
   * For `embeds`: the child records by entity name, newest first (`latest: N` keeps the first N);
   * a single record (or null) for a one-to-one embed; missing = no children ([]).
   */
  readonly embeds?: Readonly<Record<string, unknown>>;
  /** For `ancestors`: the ancestor keys, root first; missing = []. */
  readonly ancestors?: readonly KeyValue[];
  /** Write shard 0..shards-1; missing = computed with `computeShard` from `shardBy` (or the id). */
  readonly shard?: number;
  /** Read replica 0..replicas-1; required for item types with `replicas` (one item per replica). */
  readonly replica?: number;
  /** Bucket number or window start; missing = computed from the record for time windows. */
  readonly bucket?: string | number;
  /** For bucketed item types: the records of the bucket (default: the record alone). */
  readonly bucketRecords?: readonly EntityRecord[];
}

/**
 * The bucket of a record: for a time window, the window start (an ISO date-time string without
 * milliseconds for a datetime attribute, epoch seconds for a number); for `records: N`, the
 * chunk number floor(ordinal / N), where `ordinal` is the record's position among the records
 * that share the item's partition key (0-based).
 * @example bucketOf({ kind: "window", by: "timestamp", windowSeconds: 60 }, { timestamp: "2026-11-22T10:15:42Z" }) // "2026-11-22T10:15:00Z"
 */
export function bucketOf(bucket: Bucket, record: EntityRecord, ordinal?: number): string | number {
  switch (bucket.kind) {
    case "records":
      if (ordinal === undefined || !Number.isInteger(ordinal) || ordinal < 0) {
        throw new DataAccessError(
          "missingRelatedData",
          `a bucket of ${bucket.records} records needs the record's ordinal (or related.bucket)`,
        );
      }
      return Math.floor(ordinal / bucket.records);
    case "window": {
      const value = record[bucket.by];
      if (typeof value === "number") return Math.floor(value / bucket.windowSeconds) * bucket.windowSeconds;
      const millis = typeof value === "string" ? Date.parse(value) : Number.NaN;
      if (Number.isNaN(millis)) {
        throw new DataAccessError(
          "missingTemplateValue",
          `the bucket window needs a date-time or number in "${bucket.by}", got ${JSON.stringify(value) ?? "nothing"}`,
        );
      }
      const start = Math.floor(millis / 1000 / bucket.windowSeconds) * bucket.windowSeconds;
      return new Date(start * 1000).toISOString().replace(".000Z", "Z");
    }
    default:
      return bucket satisfies never;
  }
}

/**
 * Cuts a string to at most `bytes` bytes of UTF-8 without splitting a character.
 * @example truncateUtf8("héllo", 2) // "h" (é takes 2 bytes)
 */
export function truncateUtf8(text: string, bytes: number): string {
  let used = 0;
  let end = 0;
  for (const char of text) {
    const codePoint = char.codePointAt(0) ?? 0;
    const size = codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4;
    if (used + size > bytes) break;
    used += size;
    end += char.length;
  }
  return text.slice(0, end);
}

/** The write shard of a record of `shape`: from `shardBy`, else from the rendered id. */
function shardOf(shape: ItemTypeShape, shards: number, record: EntityRecord, values: TemplateValues): number {
  if (shape.shardBy !== undefined) {
    const value = record[shape.shardBy];
    if (value === undefined || value === null) {
      throw new DataAccessError("missingTemplateValue", `shardBy needs a value for "${shape.shardBy}"`);
    }
    return computeShard(typeof value === "string" ? value : JSON.stringify(value), shards);
  }
  return computeShard(renderTemplate(shape.id, values), shards);
}

/** Template values of an item of `shape` for a record: replica, bucket and write shard included. */
export function templateValuesOf(
  shape: ItemTypeShape,
  record: EntityRecord,
  related: Pick<RelatedData, "replica" | "bucket" | "shard"> = {},
): TemplateValues {
  const values: { -readonly [K in keyof TemplateValues]: TemplateValues[K] } = { attributes: record };
  if (shape.replicas !== undefined) {
    if (related.replica === undefined) {
      throw new DataAccessError(
        "missingRelatedData",
        `item type "${shape.type}" has ${shape.replicas} replicas: pass related.replica (0 to ${shape.replicas - 1}), one item per replica`,
      );
    }
    values.replica = related.replica;
  }
  if (shape.bucket !== undefined) values.bucket = related.bucket ?? bucketOf(shape.bucket, record);
  if (shape.shards !== undefined)
    values.shard = related.shard ?? shardOf(shape, shape.shards, record, values);
  return values;
}

/** The segments of a partition key path: `/a/b` -> ["a", "b"]. */
export function keyPathSegments(path: string): string[] {
  return path.slice(1).split("/");
}

/** Sets a (possibly nested) property, copying the objects on the way. */
export function setPath(target: Record<string, unknown>, segments: readonly string[], value: unknown): void {
  const [head, ...rest] = segments;
  if (head === undefined) return;
  if (rest.length === 0) {
    target[head] = value;
    return;
  }
  const current = target[head];
  const child: Record<string, unknown> =
    typeof current === "object" && current !== null && !Array.isArray(current)
      ? { ...(current as Record<string, unknown>) }
      : {};
  setPath(child, rest, value);
  target[head] = child;
}

/** The value at a partition key path of an item. */
export function valueAtPath(source: EntityRecord, path: string): unknown {
  let current: unknown = source;
  for (const segment of keyPathSegments(path)) {
    if (typeof current !== "object" || current === null) return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

/** The attributes of a record an item of `shape` stores (`select`, then `truncate`). */
export function storedAttributes(shape: ItemTypeShape, record: EntityRecord): StoredItem {
  const out: StoredItem = {};
  for (const name of shape.select ?? Object.keys(record)) {
    if (record[name] !== undefined) out[name] = record[name];
  }
  for (const { attribute, bytes } of shape.truncate) {
    const value = out[attribute];
    if (typeof value === "string") out[attribute] = truncateUtf8(value, bytes);
  }
  return out;
}

function embeddedValue(embed: Embed, related: RelatedData): unknown {
  const children = related.embeds?.[embed.entity];
  if (children === undefined) return [];
  if (children === null || !Array.isArray(children)) return children;
  return embed.latest === undefined
    ? [...(children as unknown[])]
    : (children as unknown[]).slice(0, embed.latest);
}

/** The id and partition key values of the item of `shape` for a record. */
export function itemKeyOf(
  shape: ItemTypeShape,
  record: EntityRecord,
  related: Pick<RelatedData, "replica" | "bucket" | "shard"> = {},
): { readonly id: string; readonly keys: KeyValue[] } {
  const values = templateValuesOf(shape, record, related);
  return {
    id: renderItemId(shape.id, values),
    keys: shape.partitionKey.map((template) => renderPartitionKeyValue(template, values)),
  };
}

/**
 * The stored item of `shape` for one entity record.
 * @example materializeItem(postShape, { postId: "p1", userId: "u1" }, { copies: { User: { username: "ann" } } })
 */
export function materializeItem(
  shape: ItemTypeShape,
  record: EntityRecord,
  related: RelatedData = {},
): StoredItem {
  const values = templateValuesOf(shape, record, related);
  // Checked like every key the runtime sends (`badKey`), naming the attribute at fault.
  const item: StoredItem = { id: renderItemId(shape.id, values) };
  const keys = shape.partitionKey.map((template) => renderPartitionKeyValue(template, values));
  shape.keyPaths.forEach((path, index) => setPath(item, keyPathSegments(path), keys[index]));
  item["type"] = shape.type;
  // Attributes never replace the id, the type or a top-level key property; a nested key
  // (/address/zip) is merged into the attribute object of the same name.
  const nestedKeys = shape.keyPaths.map((path, index) => [keyPathSegments(path), keys[index]] as const);
  const taken = new Set<string | undefined>([
    "id",
    "type",
    ...nestedKeys.filter(([segments]) => segments.length === 1).map(([segments]) => segments[0]),
  ]);
  if (shape.bucket === undefined) {
    for (const [name, value] of Object.entries(storedAttributes(shape, record))) {
      if (!taken.has(name)) item[name] = value;
    }
    for (const [segments, value] of nestedKeys) if (segments.length > 1) setPath(item, segments, value);
  } else {
    for (const part of [shape.id, ...shape.partitionKey].flatMap((template) => parseTemplate(template))) {
      if (part.kind === "attribute" && !taken.has(part.name)) item[part.name] = record[part.name];
    }
    if (shape.bucket.kind === "window") item[shape.bucket.by] = values.bucket;
    item[BUCKET_RECORDS_PROPERTY] = (related.bucketRecords ?? [record]).map((entry) =>
      storedAttributes(shape, entry),
    );
  }
  for (const copy of shape.copies) {
    if (copy.key !== undefined) {
      item[copy.as] = linkedElements(shape, copy, copy.key, related);
      continue;
    }
    const source = related.copies?.[copy.from.entity];
    if (source === undefined) {
      throw new DataAccessError(
        "missingRelatedData",
        `item type "${shape.type}" copies ${copy.from.entity}.${copy.from.attribute}: pass the ${copy.from.entity} record in related.copies.${copy.from.entity}`,
        { context: { type: shape.type, entity: copy.from.entity } },
      );
    }
    item[copy.as] = source[copy.from.attribute] ?? null;
  }
  for (const counter of shape.counts) item[counter.as] = related.counts?.[counter.of] ?? 0;
  for (const embed of shape.embeds) item[embed.as] = embeddedValue(embed, related);
  if (shape.ancestors !== undefined) item[shape.ancestors.as] = [...(related.ancestors ?? [])];
  if (shape.ttl !== undefined) item["ttl"] = shape.ttl;
  return item;
}

/** The array of a copy across a many-to-many relationship: `{ key..., attribute }` per linked record. */
function linkedElements(
  shape: ItemTypeShape,
  copy: Copy,
  key: readonly string[],
  related: RelatedData,
): Record<string, unknown>[] {
  const records = related.linked?.[copy.from.entity];
  if (records === undefined) {
    throw new DataAccessError(
      "missingRelatedData",
      `item type "${shape.type}" copies ${copy.from.entity}.${copy.from.attribute} of each linked ${copy.from.entity}: pass the linked ${copy.from.entity} records in related.linked.${copy.from.entity}`,
      { context: { type: shape.type, entity: copy.from.entity } },
    );
  }
  return records.map((record) => ({
    ...Object.fromEntries(key.map((name) => [name, record[name] ?? null])),
    [copy.from.attribute]: record[copy.from.attribute] ?? null,
  }));
}

const SYSTEM_PROPERTIES = new Set(["_rid", "_self", "_etag", "_attachments", "_ts", "_lsn"]);

/** Properties an item holds besides the entity's attributes (id, type, keys, copies, counters...). */
export function derivedProperties(shape: ItemTypeShape): ReadonlySet<string> {
  return new Set<string>([
    "id",
    "type",
    "ttl",
    ...shape.keyPaths.map((path) => keyPathSegments(path)[0] ?? ""),
    ...shape.copies.map((copy) => copy.as),
    ...shape.counts.map((counter) => counter.as),
    ...shape.embeds.map((embed) => embed.as),
    ...(shape.ancestors === undefined ? [] : [shape.ancestors.as]),
  ]);
}

/**
 * The entity record an item of `shape` holds: the entity's attributes (all properties but the
 * id, type, key, system and derived ones when the workload lists none).
 */
export function recordOf(shape: ItemTypeShape, item: EntityRecord): StoredItem {
  const out: StoredItem = {};
  if (shape.attributes !== undefined) {
    for (const name of shape.attributes) if (item[name] !== undefined) out[name] = item[name];
    return out;
  }
  const derived = derivedProperties(shape);
  for (const [name, value] of Object.entries(item)) {
    if (!derived.has(name) && !SYSTEM_PROPERTIES.has(name)) out[name] = value;
  }
  return out;
}

/** The copies, counters and embeds an item holds, as related data for items derived from it. */
export function relatedOf(shape: ItemTypeShape, item: EntityRecord): RelatedData {
  const copies: Record<string, Record<string, unknown>> = {};
  // Linked records by entity, then by key value: several copies of one entity merge per record.
  const linked = new Map<string, Map<string, Record<string, unknown>>>();
  for (const copy of shape.copies) {
    const key = copy.key;
    if (key === undefined) {
      copies[copy.from.entity] = { ...copies[copy.from.entity], [copy.from.attribute]: item[copy.as] };
      continue;
    }
    const records = linked.get(copy.from.entity) ?? new Map<string, Record<string, unknown>>();
    linked.set(copy.from.entity, records);
    const elements: unknown[] = Array.isArray(item[copy.as]) ? (item[copy.as] as unknown[]) : [];
    for (const element of elements) {
      if (typeof element !== "object" || element === null) continue;
      const values = element as Record<string, unknown>;
      const id = keyIdentity(key, values);
      records.set(id, { ...records.get(id), ...values });
    }
  }
  const counts: Record<string, number> = {};
  for (const counter of shape.counts) {
    const value = item[counter.as];
    counts[counter.of] = typeof value === "number" ? value : 0;
  }
  const embeds: Record<string, unknown> = {};
  for (const embed of shape.embeds) if (item[embed.as] !== undefined) embeds[embed.entity] = item[embed.as];
  const ancestors = shape.ancestors === undefined ? undefined : item[shape.ancestors.as];
  return {
    copies,
    ...(linked.size === 0
      ? {}
      : {
          linked: Object.fromEntries([...linked].map(([entity, records]) => [entity, [...records.values()]])),
        }),
    counts,
    embeds,
    ...(Array.isArray(ancestors) ? { ancestors: ancestors as KeyValue[] } : {}),
  };
}

/** The partition key values an item holds, one per key path. */
export function partitionKeyOfItem(shape: ItemTypeShape, item: EntityRecord): KeyValue[] {
  return shape.keyPaths.map((path) => {
    const value = valueAtPath(item, path);
    return typeof value === "string" || typeof value === "number" || typeof value === "boolean" ? value : "";
  });
}

/** A deleted item as handlers see it: the record with the item's id, type and key properties. */
export function deletedItem(
  shape: ItemTypeShape,
  record: EntityRecord,
  id: string,
  keys: readonly KeyValue[],
): StoredItem {
  const item: StoredItem = { ...record, id, type: shape.type };
  shape.keyPaths.forEach((path, index) => setPath(item, keyPathSegments(path), keys[index]));
  return item;
}

/** The distinct values of a property across items (for "ARRAY_CONTAINS(@values, c.x)"). */
export function distinctValues(items: readonly EntityRecord[], name: string): unknown[] {
  const seen = new Set<string>();
  const out: unknown[] = [];
  for (const item of items) {
    const value = item[name];
    if (value === undefined) continue;
    const key = JSON.stringify(value);
    if (!seen.has(key)) {
      seen.add(key);
      out.push(value);
    }
  }
  return out;
}

/** True when `item` is a soft-delete tombstone of its item type (reads treat it as missing). */
export function isTombstone(shape: Pick<ItemTypeShape, "softDelete">, item: EntityRecord): boolean {
  return shape.softDelete !== undefined && item[shape.softDelete.property] === true;
}

/** The item, or undefined when it is a tombstone (what a point read answers). */
export function liveItem<T extends EntityRecord>(
  shape: Pick<ItemTypeShape, "softDelete">,
  item: T | undefined,
): T | undefined {
  return item === undefined || isTombstone(shape, item) ? undefined : item;
}
