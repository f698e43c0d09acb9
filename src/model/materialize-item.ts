/**
 * The one place that turns entity records into the stored Cosmos DB items of an item type.
 * Sample items in the documents, the data loaded by `verify` and the generated code all follow
 * it, so they cannot disagree about what an item looks like.
 *
 * An item holds, in this order: `id` (its rendered template); one property per partition key
 * path (`/feedPartition` -> `feedPartition`, `/a/b` -> `a.b`) holding the rendered key; `type`;
 * the entity's attributes (after `select` and `truncate`); copies, counters and embeds under
 * their `as`; the ancestors array; `ttl`. The id, key properties and `type` win over attributes
 * of the same name. A bucketed item holds the attributes its templates use, the window start
 * under the bucket's `by` attribute (time windows), and the bucket's records under `records`.
 */
import { CosmosModelerError } from "../common/errors.js";
import type { Bucket, Container, Embed, ItemType, Model } from "./types.js";
import {
  parseTemplate,
  renderKeyValue,
  renderTemplate,
  type KeyValue,
  type TemplateValues,
} from "./templates.js";

/** A plain JSON-like record: attribute name -> value. */
export type EntityRecord = Readonly<Record<string, unknown>>;

/** Property of a bucketed item that holds the records of the bucket. */
export const BUCKET_RECORDS_PROPERTY = "records";

/** Everything besides the entity record that an item needs. */
export interface RelatedData {
  /** For `copies`: the record of each entity copied from, by entity name (e.g. the post's `User`). */
  readonly copies?: Readonly<Record<string, EntityRecord>>;
  /** For `counts`: the counter value by counted child entity name; missing = 0. */
  readonly counts?: Readonly<Record<string, number>>;
  /**
   * For `embeds`: the child records by entity name, newest first (`latest: N` keeps the first N);
   * a single record (or null) for a one-to-one embed; missing = no children ([]).
   */
  readonly embeds?: Readonly<Record<string, readonly EntityRecord[] | EntityRecord | null>>;
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
  /** For item types with `source`: the model, to find the source item type's derived data. */
  readonly model?: Model;
}

/**
 * The stored item of `itemType` for one entity record.
 * @example materializeItem(postType, postsContainer, { postId: "p1", userId: "u1" }, { copies: { User: { username: "ann" } } })
 */
export function materializeItem(
  itemType: ItemType,
  container: Container,
  record: EntityRecord,
  related: RelatedData = {},
): Record<string, unknown> {
  const shape = effectiveItemType(itemType, related.model);
  const values = templateValues(itemType, record, related);
  const item: Record<string, unknown> = { id: renderTemplate(itemType.id, values) };
  const keys = itemPartitionKeyValue(itemType, record, related);
  container.partitionKey.forEach((path, index) => setPath(item, keyPathSegments(path), keys[index]));
  item["type"] = itemType.type;
  // Attributes never replace the id, the type or a top-level key property; a nested key
  // (/address/zip) is merged into the attribute object of the same name.
  const nestedKeys = container.partitionKey.map(
    (path, index) => [keyPathSegments(path), keys[index]] as const,
  );
  const taken = new Set([
    "id",
    "type",
    ...nestedKeys.filter(([segments]) => segments.length === 1).map(([segments]) => segments[0]),
  ]);
  if (itemType.bucket === undefined) {
    for (const [name, value] of Object.entries(storedAttributes(shape, record))) {
      if (!taken.has(name)) item[name] = value;
    }
    for (const [segments, value] of nestedKeys) if (segments.length > 1) setPath(item, segments, value);
  } else {
    for (const part of [itemType.id, ...itemType.partitionKey].flatMap((template) =>
      parseTemplate(template),
    )) {
      if (part.kind === "attribute" && !taken.has(part.name)) item[part.name] = record[part.name];
    }
    if (itemType.bucket.kind === "window") item[itemType.bucket.by] = values.bucket;
    item[BUCKET_RECORDS_PROPERTY] = (related.bucketRecords ?? [record]).map((entry) =>
      storedAttributes(shape, entry),
    );
  }
  for (const copy of shape.copies) {
    const source = related.copies?.[copy.from.entity];
    if (source === undefined) {
      throw new CosmosModelerError(
        "model.missingRelatedData",
        `item type "${itemType.type}" copies ${copy.from.entity}.${copy.from.attribute}: pass the ${copy.from.entity} record in related.copies.${copy.from.entity}`,
        { context: { type: itemType.type, entity: copy.from.entity } },
      );
    }
    item[copy.as] = source[copy.from.attribute] ?? null;
  }
  for (const counter of shape.counts) item[counter.as] = related.counts?.[counter.of] ?? 0;
  for (const embed of shape.embeds) item[embed.as] = embeddedValue(embed, related);
  if (shape.ancestors !== undefined) item[shape.ancestors.as] = [...(related.ancestors ?? [])];
  if (itemType.ttl !== undefined) item["ttl"] = itemType.ttl;
  return item;
}

/**
 * The partition key value(s) of the item for `record`: one per partition key path, in order.
 * A template that is exactly one placeholder keeps the value's type (see `renderKeyValue`).
 * @example itemPartitionKeyValue(feedPost, post, { replica: 3 }) // ["post-3"]
 */
export function itemPartitionKeyValue(
  itemType: ItemType,
  record: EntityRecord,
  related: RelatedData = {},
): KeyValue[] {
  const values = templateValues(itemType, record, related);
  return itemType.partitionKey.map((template) => renderKeyValue(template, values));
}

/** The rendered id of the item for `record`. */
export function itemId(itemType: ItemType, record: EntityRecord, related: RelatedData = {}): string {
  return renderTemplate(itemType.id, templateValues(itemType, record, related));
}

/**
 * The item type as stored, with what it inherits from its `source` chain: the source's copies,
 * counters, embeds and ancestors come first, then its own; `select` is the intersection of the
 * projections; `truncate` keeps the smallest size per attribute. Without `source`, the item type.
 */
export function effectiveItemType(itemType: ItemType, model?: Model): ItemType {
  if (itemType.source === undefined) return itemType;
  if (model === undefined) {
    throw new CosmosModelerError(
      "model.missingRelatedData",
      `item type "${itemType.type}" is a copy of ${itemType.source.container}/${itemType.source.type}: pass the model in related.model`,
    );
  }
  const { container, type } = itemType.source;
  const source = model.containers
    .find((candidate) => candidate.name === container)
    ?.items.find((candidate) => candidate.type === type);
  if (source === undefined || source === itemType) {
    throw new CosmosModelerError("model.unknownSource", `no item type ${container}/${type} in the model`);
  }
  const inherited = effectiveItemType(source, model);
  const select =
    inherited.select === undefined
      ? itemType.select
      : itemType.select === undefined
        ? inherited.select
        : itemType.select.filter((name) => inherited.select?.includes(name));
  const truncate = new Map<string, number>();
  for (const { attribute, bytes } of [...inherited.truncate, ...itemType.truncate]) {
    truncate.set(attribute, Math.min(bytes, truncate.get(attribute) ?? bytes));
  }
  const ancestors = itemType.ancestors ?? inherited.ancestors;
  return {
    ...itemType,
    ...(select === undefined ? {} : { select }),
    truncate: [...truncate].map(([attribute, bytes]) => ({ attribute, bytes })),
    embeds: [...inherited.embeds, ...itemType.embeds],
    copies: [...inherited.copies, ...itemType.copies],
    counts: [...inherited.counts, ...itemType.counts],
    ...(ancestors === undefined ? {} : { ancestors }),
  };
}

/**
 * The write shard of a value: FNV-1a (32-bit: offset basis 2166136261, prime 16777619, over
 * the UTF-8 bytes of `value`) modulo `shards`. Stable across runs, platforms and languages, so
 * generated code and data loading pick the same shard.
 * @example computeShard("user-42", 20) // a number from 0 to 19, always the same
 */
export function computeShard(value: string, shards: number): number {
  if (!Number.isInteger(shards) || shards < 1) {
    throw new CosmosModelerError("model.badShards", `shards must be a positive integer, got ${shards}`);
  }
  return fnv1a32(value) % shards;
}

const UTF8 = new TextEncoder();

/** FNV-1a 32-bit hash of the UTF-8 bytes of `value`, as an unsigned integer. */
export function fnv1a32(value: string): number {
  let hash = 0x811c9dc5;
  for (const byte of UTF8.encode(value)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
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
        throw new CosmosModelerError(
          "model.missingRelatedData",
          `a bucket of ${bucket.records} records needs the record's ordinal (or related.bucket)`,
        );
      }
      return Math.floor(ordinal / bucket.records);
    case "window": {
      const value = record[bucket.by];
      if (typeof value === "number") return Math.floor(value / bucket.windowSeconds) * bucket.windowSeconds;
      const millis = typeof value === "string" ? Date.parse(value) : Number.NaN;
      if (Number.isNaN(millis)) {
        throw new CosmosModelerError(
          "model.missingTemplateValue",
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

function templateValues(itemType: ItemType, record: EntityRecord, related: RelatedData): TemplateValues {
  const values: { -readonly [K in keyof TemplateValues]: TemplateValues[K] } = { attributes: record };
  if (itemType.replicas !== undefined) {
    if (related.replica === undefined) {
      throw new CosmosModelerError(
        "model.missingRelatedData",
        `item type "${itemType.type}" has ${itemType.replicas} replicas: pass related.replica (0 to ${itemType.replicas - 1}), one item per replica`,
      );
    }
    values.replica = related.replica;
  }
  if (itemType.bucket !== undefined) values.bucket = related.bucket ?? bucketOf(itemType.bucket, record);
  if (itemType.shards !== undefined)
    values.shard = related.shard ?? shardOf(itemType, itemType.shards, record, values);
  return values;
}

function shardOf(itemType: ItemType, shards: number, record: EntityRecord, values: TemplateValues): number {
  if (itemType.shardBy !== undefined) {
    const value = record[itemType.shardBy];
    if (value === undefined || value === null) {
      throw new CosmosModelerError(
        "model.missingTemplateValue",
        `shardBy needs a value for "${itemType.shardBy}"`,
      );
    }
    return computeShard(typeof value === "string" ? value : JSON.stringify(value), shards);
  }
  return computeShard(renderTemplate(itemType.id, values), shards);
}

function storedAttributes(shape: ItemType, record: EntityRecord): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const names = shape.select ?? Object.keys(record);
  for (const name of names) {
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
  const list = children as readonly EntityRecord[];
  return embed.latest === undefined ? [...list] : list.slice(0, embed.latest);
}

function keyPathSegments(path: string): string[] {
  return path.slice(1).split("/");
}

function setPath(target: Record<string, unknown>, segments: readonly string[], value: unknown): void {
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
