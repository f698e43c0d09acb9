/**
 * The self-contained helpers every generated data-access module carries (as source text), so the
 * module needs nothing but `@azure/cosmos` at run time. They reproduce, line for line in
 * behaviour, `src/model/templates.ts` (template rendering), `src/model/materialize-item.ts`
 * (item shape, FNV-1a write shards, window buckets, UTF-8 truncation); `runtime-source.test.ts`
 * checks that they agree. The text avoids backticks and dollar-brace so it can live in a string.
 */

/** Type declarations and pure helpers (no SDK calls). */
export const RUNTIME_PURE_SOURCE = String.raw`
/** A key value as Cosmos DB stores it in a partition key property. */
export type KeyValue = string | number | boolean;

/** A stored item: its JSON properties. */
export type StoredItem = Record<string, unknown>;

/** Values substituted into a key template. */
export interface TemplateValues {
  readonly attributes: Readonly<Record<string, unknown>>;
  readonly shard?: number;
  readonly replica?: number;
  readonly bucket?: string | number;
}

/** Bucketing of an item type: N records per item, or a time window. */
export type Bucket =
  | { readonly kind: "records"; readonly records: number }
  | { readonly kind: "window"; readonly by: string; readonly windowSeconds: number };

/** An item type as stored (with what it inherits from its source), as the model defines it. */
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
  readonly embeds: readonly { readonly entity: string; readonly as: string; readonly latest?: number }[];
  readonly copies: readonly {
    readonly from: { readonly entity: string; readonly attribute: string };
    readonly as: string;
  }[];
  readonly counts: readonly { readonly of: string; readonly as: string }[];
  readonly ancestors?: { readonly as: string };
  readonly source?: { readonly container: string; readonly type: string };
  readonly keepLatest?: { readonly count: number; readonly by: string };
  readonly bucket?: Bucket;
  readonly shards?: number;
  readonly shardBy?: string;
  readonly ttl?: number;
  readonly replicas?: number;
}

/** Everything besides the entity record that an item needs. */
export interface RelatedData {
  readonly copies?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  readonly counts?: Readonly<Record<string, number>>;
  readonly embeds?: Readonly<Record<string, unknown>>;
  readonly ancestors?: readonly KeyValue[];
  readonly shard?: number;
  readonly replica?: number;
  readonly bucket?: string | number;
  readonly bucketRecords?: readonly Readonly<Record<string, unknown>>[];
}

type TemplatePart =
  | { readonly kind: "literal"; readonly text: string }
  | { readonly kind: "attribute"; readonly name: string }
  | { readonly kind: "shard" }
  | { readonly kind: "replica" }
  | { readonly kind: "bucket" };

function templateParts(template: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let last = 0;
  for (const match of template.matchAll(/\{([^{}]+)\}/g)) {
    if (match.index > last) parts.push({ kind: "literal", text: template.slice(last, match.index) });
    const name = match[1] ?? "";
    parts.push(
      name === "shard" || name === "replica" || name === "bucket"
        ? { kind: name }
        : { kind: "attribute", name },
    );
    last = match.index + match[0].length;
  }
  if (last < template.length) parts.push({ kind: "literal", text: template.slice(last) });
  return parts;
}

function scalarValue(template: string, name: string, value: unknown): KeyValue {
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return value;
  throw new Error('template "' + template + '" needs a string, number or boolean for {' + name + "}");
}

function partValue(template: string, part: TemplatePart, values: TemplateValues): KeyValue {
  switch (part.kind) {
    case "literal":
      return part.text;
    case "attribute":
      return scalarValue(template, part.name, values.attributes[part.name]);
    case "shard":
      return scalarValue(template, "shard", values.shard);
    case "replica":
      return scalarValue(template, "replica", values.replica);
    case "bucket":
      return scalarValue(template, "bucket", values.bucket);
  }
}

/** Renders a key template ("{postId}-{shard}") to a string. */
export function renderTemplate(template: string, values: TemplateValues): string {
  return templateParts(template)
    .map((part) => String(partValue(template, part, values)))
    .join("");
}

/** Renders a key template; a template that is one placeholder keeps the value's type. */
export function renderKeyValue(template: string, values: TemplateValues): KeyValue {
  const parts = templateParts(template);
  const only = parts.length === 1 ? parts[0] : undefined;
  if (only !== undefined && only.kind !== "literal") return partValue(template, only, values);
  return renderTemplate(template, values);
}

/** FNV-1a 32-bit hash of the UTF-8 bytes of a string. */
export function fnv1a32(value: string): number {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(value)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/** The write shard of a value: FNV-1a modulo the shard count. */
export function computeShard(value: string, shards: number): number {
  return fnv1a32(value) % shards;
}

/** The window start of a record (ISO date-time without milliseconds, or epoch seconds). */
export function bucketOf(bucket: Bucket, record: Readonly<Record<string, unknown>>): string | number {
  if (bucket.kind === "records") {
    throw new Error("a bucket of " + bucket.records + " records needs the bucket number: pass related.bucket");
  }
  const value = record[bucket.by];
  if (typeof value === "number") return Math.floor(value / bucket.windowSeconds) * bucket.windowSeconds;
  const millis = typeof value === "string" ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(millis)) throw new Error('the bucket window needs a date-time or number in "' + bucket.by + '"');
  const start = Math.floor(millis / 1000 / bucket.windowSeconds) * bucket.windowSeconds;
  return new Date(start * 1000).toISOString().replace(".000Z", "Z");
}

/** Cuts a string to at most "bytes" bytes of UTF-8 without splitting a character. */
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

/** Template values of an item of "shape" for a record: replica, bucket and write shard included. */
export function templateValuesOf(
  shape: ItemTypeShape,
  record: Readonly<Record<string, unknown>>,
  related: Pick<RelatedData, "replica" | "bucket" | "shard"> = {},
  idTemplate: string = shape.id,
): TemplateValues {
  let values: TemplateValues = { attributes: record };
  if (shape.replicas !== undefined) {
    if (related.replica === undefined) throw new Error("item type " + shape.type + " needs a replica number");
    values = { ...values, replica: related.replica };
  }
  if (shape.bucket !== undefined) values = { ...values, bucket: related.bucket ?? bucketOf(shape.bucket, record) };
  if (shape.shards !== undefined) {
    let shard = related.shard;
    if (shard === undefined && shape.shardBy !== undefined) {
      const value = record[shape.shardBy];
      if (value === undefined || value === null) throw new Error('shardBy needs a value for "' + shape.shardBy + '"');
      shard = computeShard(typeof value === "string" ? value : JSON.stringify(value), shape.shards);
    }
    values = { ...values, shard: shard ?? computeShard(renderTemplate(idTemplate, values), shape.shards) };
  }
  return values;
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

function getPath(source: Readonly<Record<string, unknown>>, path: string): unknown {
  let current: unknown = source;
  for (const segment of keyPathSegments(path)) {
    if (typeof current !== "object" || current === null) return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

function storedAttributes(shape: ItemTypeShape, record: Readonly<Record<string, unknown>>): StoredItem {
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

function embeddedValue(embed: ItemTypeShape["embeds"][number], related: RelatedData): unknown {
  const children = related.embeds?.[embed.entity];
  if (children === undefined) return [];
  if (children === null || !Array.isArray(children)) return children;
  return embed.latest === undefined ? [...(children as unknown[])] : (children as unknown[]).slice(0, embed.latest);
}

/** The id and partition key values of the item of "shape" for a record. */
export function itemKeyOf(
  shape: ItemTypeShape,
  record: Readonly<Record<string, unknown>>,
  related: Pick<RelatedData, "replica" | "bucket" | "shard"> = {},
): { readonly id: string; readonly keys: KeyValue[] } {
  const values = templateValuesOf(shape, record, related);
  return {
    id: renderTemplate(shape.id, values),
    keys: shape.partitionKey.map((template) => renderKeyValue(template, values)),
  };
}

/** The stored item of "shape" for one entity record (the shape materializeItem of the model defines). */
export function materializeItem(
  shape: ItemTypeShape,
  record: Readonly<Record<string, unknown>>,
  related: RelatedData = {},
): StoredItem {
  const values = templateValuesOf(shape, record, related);
  const item: StoredItem = { id: renderTemplate(shape.id, values) };
  const keys = shape.partitionKey.map((template) => renderKeyValue(template, values));
  shape.keyPaths.forEach((path, index) => setPath(item, keyPathSegments(path), keys[index]));
  item["type"] = shape.type;
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
    for (const part of [shape.id, ...shape.partitionKey].flatMap((template) => templateParts(template))) {
      if (part.kind === "attribute" && !taken.has(part.name)) item[part.name] = record[part.name];
    }
    if (shape.bucket.kind === "window") item[shape.bucket.by] = values.bucket;
    item["records"] = (related.bucketRecords ?? [record]).map((entry) => storedAttributes(shape, entry));
  }
  for (const copy of shape.copies) {
    const source = related.copies?.[copy.from.entity];
    if (source === undefined) {
      throw new Error("item type " + shape.type + " copies " + copy.from.entity + "." + copy.from.attribute + ": pass related.copies." + copy.from.entity);
    }
    item[copy.as] = source[copy.from.attribute] ?? null;
  }
  for (const counter of shape.counts) item[counter.as] = related.counts?.[counter.of] ?? 0;
  for (const embed of shape.embeds) item[embed.as] = embeddedValue(embed, related);
  if (shape.ancestors !== undefined) item[shape.ancestors.as] = [...(related.ancestors ?? [])];
  if (shape.ttl !== undefined) item["ttl"] = shape.ttl;
  return item;
}

const SYSTEM_PROPERTIES = new Set(["_rid", "_self", "_etag", "_attachments", "_ts", "_lsn"]);

/**
 * The entity record an item of "shape" holds: the entity's attributes (all properties but the
 * id, type, key, system and derived ones when the workload lists none).
 */
export function recordOf(shape: ItemTypeShape, item: Readonly<Record<string, unknown>>): StoredItem {
  const out: StoredItem = {};
  if (shape.attributes !== undefined) {
    for (const name of shape.attributes) if (item[name] !== undefined) out[name] = item[name];
    return out;
  }
  const derived = new Set<string>([
    "id",
    "type",
    "ttl",
    ...shape.keyPaths.map((path) => keyPathSegments(path)[0] ?? ""),
    ...shape.copies.map((copy) => copy.as),
    ...shape.counts.map((counter) => counter.as),
    ...shape.embeds.map((embed) => embed.as),
    ...(shape.ancestors === undefined ? [] : [shape.ancestors.as]),
  ]);
  for (const [name, value] of Object.entries(item)) {
    if (!derived.has(name) && !SYSTEM_PROPERTIES.has(name)) out[name] = value;
  }
  return out;
}

/** The copies, counters and embeds an item holds, as related data for items derived from it. */
export function relatedOf(shape: ItemTypeShape, item: Readonly<Record<string, unknown>>): RelatedData {
  const copies: Record<string, Record<string, unknown>> = {};
  for (const copy of shape.copies) {
    copies[copy.from.entity] = { ...copies[copy.from.entity], [copy.from.attribute]: item[copy.as] };
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
    counts,
    embeds,
    ...(Array.isArray(ancestors) ? { ancestors: ancestors as KeyValue[] } : {}),
  };
}

/** The partition key values an item holds, one per key path. */
export function partitionKeyOfItem(shape: ItemTypeShape, item: Readonly<Record<string, unknown>>): KeyValue[] {
  return shape.keyPaths.map((path) => {
    const value = getPath(item, path);
    return typeof value === "string" || typeof value === "number" || typeof value === "boolean" ? value : "";
  });
}

/** The distinct values of a property across items (for "ARRAY_CONTAINS(@values, c.x)"). */
export function distinctValues(items: readonly Readonly<Record<string, unknown>>[], name: string): unknown[] {
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
`;

/** Helpers that call Cosmos DB through @azure/cosmos: reads, queries, writes, maintenance. */
export const RUNTIME_COSMOS_SOURCE = String.raw`
/** Options of createDataAccess. */
export interface DataAccessOptions {
  /**
   * Send co-located writes as one transactional batch (default true). false runs them one by one,
   * for endpoints without atomic batches or patch in batches (such as an embedded test server).
   */
  readonly transactionalBatch?: boolean;
  /** Random numbers in [0, 1) for picking a read replica (default Math.random). */
  readonly random?: () => number;
}

/** A change of an item, as the change feed or a write of this module reports it. */
export interface ItemChange {
  /** "upsert" = created or updated, not known which (the latest-version change feed). */
  readonly kind: "create" | "update" | "upsert" | "delete";
  readonly item: StoredItem;
  /** The item before the change, when known. */
  readonly previous?: StoredItem;
}

/** An item change with where it happened. */
export interface ContainerChange extends ItemChange {
  readonly container: string;
  readonly itemType: string;
}

/** Related data returned by a follow-up step of a read. */
export interface FollowUpResult {
  readonly container: string;
  readonly itemType: string;
  /** True when the step ran once per item of the first step ("byResult" is aligned with "items"). */
  readonly perResult: boolean;
  readonly items: unknown[];
  readonly byResult: unknown[][];
}

/** The answer of a read access pattern. */
export interface ReadResult {
  readonly items: StoredItem[];
  /** The first item (point reads), or undefined. */
  readonly item: StoredItem | undefined;
  readonly requestCharge: number;
  readonly followUps: FollowUpResult[];
}

/** What a write (or change-feed maintenance) did: its charge and the items it changed. */
export interface WriteResult {
  readonly requestCharge: number;
  readonly changes: ContainerChange[];
}

/** Data a write may need besides the record. */
export interface WriteRelated extends RelatedData {
  /** The record before the write (for writes that move an item to a new id); read when absent. */
  readonly previous?: Readonly<Record<string, unknown>>;
  /**
   * Parent records by entity name, for parent items whose key the child record does not hold
   * (an order line embedded in an order partitioned by customer: pass the Order record).
   */
  readonly parents?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
}

/** The attributes a parent item's templates render from: the parent record (if given), then the child. */
function parentAttributes(
  parentEntity: string,
  record: Readonly<Record<string, unknown>>,
  related: WriteRelated,
): Readonly<Record<string, unknown>> {
  const parent = related.parents?.[parentEntity];
  return parent === undefined ? record : { ...parent, ...record };
}

/** A query parameter value taken from the input, a constant, a result item or a key template. */
type ParameterSource =
  | { readonly kind: "literal"; readonly value: string | number | boolean }
  | { readonly kind: "fromResult"; readonly attribute: string }
  | { readonly kind: "template"; readonly template: string }
  | { readonly kind: "limit" };

interface ItemRef {
  readonly container: string;
  readonly itemType: string;
}

/** A point-read of the record an item copies from, by templates rendered from the record. */
interface CopySource extends ItemRef {
  readonly id: string;
  readonly partitionKey: readonly string[];
}

/** One synchronous step of a write access pattern. */
type WriteTask =
  | (ItemRef & {
      readonly kind: "item";
      readonly operation: "create" | "replace" | "upsert" | "patch" | "delete";
    })
  | (ItemRef & { readonly kind: "rekey"; readonly previousFrom?: ItemRef })
  | (ItemRef & {
      readonly kind: "embed";
      readonly id: string;
      readonly partitionKey: readonly string[];
      readonly as: string;
      readonly latest?: number;
      readonly childKey: string;
      readonly many: boolean;
    })
  | (ItemRef & {
      readonly kind: "batch";
      readonly operation: "create" | "replace" | "upsert" | "delete";
      readonly increments: readonly (ItemRef & {
        readonly id: string;
        readonly partitionKey: readonly string[];
        readonly property: string;
        readonly by: number;
      })[];
    });

/** Work the change of a source item triggers. */
type MaintenanceTask =
  | {
      readonly kind: "copy";
      readonly target: ItemRef;
      readonly trim?: {
        readonly countSql: string;
        readonly oldestSql: string;
        readonly parameters: readonly { readonly name: string; readonly source: ParameterSource }[];
      };
    }
  | {
      readonly kind: "propagate";
      readonly holder: ItemRef;
      readonly sql: string;
      readonly parameters: readonly { readonly name: string; readonly source: ParameterSource }[];
      readonly property: string;
      readonly attribute: string;
    }
  | {
      readonly kind: "counter";
      readonly holder: ItemRef;
      readonly id: string;
      readonly partitionKey: readonly string[];
      readonly property: string;
    };

interface WriteContext {
  readonly entity: string;
  readonly change: "create" | "update" | "delete";
  /** Attributes the write changes (absent = all). */
  readonly changes?: readonly string[];
}

interface Runtime {
  readonly container: (name: string) => Container;
  readonly shape: (container: string, itemType: string) => ItemTypeShape;
  readonly copySources: (container: string, itemType: string) => Readonly<Record<string, CopySource>>;
  readonly transactionalBatch: boolean;
  readonly random: () => number;
}

interface Charged {
  requestCharge: number;
  readonly changes: ContainerChange[];
}

function toPartitionKey(keys: readonly KeyValue[]): PartitionKey {
  const [first] = keys;
  return keys.length === 1 && first !== undefined ? first : [...keys];
}

function statusOf(error: unknown): number | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const { code, statusCode } = error as { code?: unknown; statusCode?: unknown };
  if (typeof statusCode === "number") return statusCode;
  return typeof code === "number" ? code : undefined;
}

function chargeOf(error: unknown): number {
  if (typeof error !== "object" || error === null) return 0;
  const charge = (error as { headers?: Record<string, unknown> }).headers?.["x-ms-request-charge"];
  const value = Number(charge);
  return Number.isFinite(value) ? value : 0;
}

/**
 * Template values for reading an item of "shape" by the attributes at hand: a replica picked at
 * random, the window bucket and the write shard when their attributes are known.
 */
function readValues(
  runtime: Runtime,
  shape: ItemTypeShape,
  attributes: Readonly<Record<string, unknown>>,
  idTemplate: string = shape.id,
): TemplateValues {
  let values: TemplateValues = { attributes };
  if (shape.replicas !== undefined) values = { ...values, replica: Math.floor(runtime.random() * shape.replicas) };
  const windowStart = shape.bucket?.kind === "window" ? attributes[shape.bucket.by] : undefined;
  if (shape.bucket !== undefined && (typeof windowStart === "string" || typeof windowStart === "number")) {
    values = { ...values, bucket: bucketOf(shape.bucket, attributes) };
  }
  if (shape.shards !== undefined) {
    const by = shape.shardBy === undefined ? undefined : attributes[shape.shardBy];
    if (by !== undefined && by !== null) {
      values = { ...values, shard: computeShard(typeof by === "string" ? by : JSON.stringify(by), shape.shards) };
    } else if (shape.shardBy === undefined) {
      try {
        values = { ...values, shard: computeShard(renderTemplate(idTemplate, values), shape.shards) };
      } catch {
        // The id is not known: the caller queries every shard.
      }
    }
  }
  return values;
}

/** Every value of a template over the write shards of an item type (queries over all shards). */
function shardValues(shape: ItemTypeShape, template: string, attributes: Readonly<Record<string, unknown>>): KeyValue[] {
  const shards = shape.shards ?? 1;
  return Array.from({ length: shards }, (_, shard) => renderKeyValue(template, { attributes, shard }));
}

/** A point read; a missing item is undefined. */
async function readItem(
  container: Container,
  id: string,
  keys: readonly KeyValue[],
): Promise<{ item: StoredItem | undefined; requestCharge: number }> {
  try {
    const response = await container.item(id, toPartitionKey(keys)).read<StoredItem>();
    const item: StoredItem | undefined = response.resource;
    return { item, requestCharge: response.requestCharge };
  } catch (error) {
    if (statusOf(error) === 404) return { item: undefined, requestCharge: chargeOf(error) };
    throw error;
  }
}

/** A parameterized query, routed to a partition key (or prefix) when given. */
async function queryItems(
  container: Container,
  query: string,
  parameters: readonly { readonly name: string; readonly value: unknown }[],
  keys?: readonly KeyValue[],
): Promise<{ items: unknown[]; requestCharge: number }> {
  const spec: SqlQuerySpec = {
    query,
    parameters: parameters.map((parameter) => ({ name: parameter.name, value: parameter.value as JSONValue })),
  };
  const response = await container.items
    .query<unknown>(spec, keys === undefined ? {} : { partitionKey: toPartitionKey(keys) })
    .fetchAll();
  return { items: response.resources, requestCharge: response.requestCharge };
}

function asItems(values: readonly unknown[]): StoredItem[] {
  return values.filter((value): value is StoredItem => typeof value === "object" && value !== null);
}

function pointer(name: string): string {
  return "/" + name.replace(/~/g, "~0").replace(/\//g, "~1");
}

async function patchItem(
  container: Container,
  id: string,
  keys: readonly KeyValue[],
  operations: readonly PatchOperation[],
): Promise<{ item: StoredItem | undefined; requestCharge: number }> {
  let item: StoredItem | undefined;
  let requestCharge = 0;
  // Cosmos DB accepts at most 10 operations per patch request.
  for (let start = 0; start < operations.length; start += 10) {
    try {
      const response = await container
        .item(id, toPartitionKey(keys))
        .patch<StoredItem>(operations.slice(start, start + 10));
      item = response.resource;
      requestCharge += response.requestCharge;
    } catch (error) {
      if (statusOf(error) === 404) return { item: undefined, requestCharge: requestCharge + chargeOf(error) };
      throw error;
    }
  }
  return { item, requestCharge };
}

async function deleteItem(container: Container, id: string, keys: readonly KeyValue[]): Promise<number> {
  try {
    return (await container.item(id, toPartitionKey(keys)).delete()).requestCharge;
  } catch (error) {
    if (statusOf(error) === 404) return chargeOf(error);
    throw error;
  }
}

/** Fills related.copies with the records the item type copies from (point reads when not given). */
async function withCopies(
  runtime: Runtime,
  charged: Charged,
  shape: ItemTypeShape,
  record: Readonly<Record<string, unknown>>,
  related: RelatedData,
): Promise<RelatedData> {
  const copies: Record<string, Readonly<Record<string, unknown>>> = { ...related.copies };
  const sources = runtime.copySources(shape.container, shape.type);
  for (const copy of shape.copies) {
    const entity = copy.from.entity;
    if (copies[entity] !== undefined) continue;
    const source = sources[entity];
    if (source === undefined) {
      throw new Error("item type " + shape.type + " copies " + entity + "." + copy.from.attribute + ": pass related.copies." + entity);
    }
    const sourceShape = runtime.shape(source.container, source.itemType);
    let values: TemplateValues;
    try {
      values = readValues(runtime, sourceShape, record, source.id);
    } catch {
      copies[entity] = {};
      continue;
    }
    const read = await readItem(
      runtime.container(source.container),
      renderTemplate(source.id, values),
      source.partitionKey.map((template) => renderKeyValue(template, values)),
    );
    charged.requestCharge += read.requestCharge;
    copies[entity] = read.item === undefined ? {} : recordOf(sourceShape, read.item);
  }
  return { ...related, copies };
}

function changeOf(ref: ItemRef, kind: ItemChange["kind"], item: StoredItem, previous?: StoredItem): ContainerChange {
  return previous === undefined
    ? { container: ref.container, itemType: ref.itemType, kind, item }
    : { container: ref.container, itemType: ref.itemType, kind, item, previous };
}

/** A deleted item as handlers see it: the record with the item's id, type and key properties. */
function deletedItem(shape: ItemTypeShape, record: Readonly<Record<string, unknown>>, id: string, keys: readonly KeyValue[]): StoredItem {
  const item: StoredItem = { ...record, id, type: shape.type };
  shape.keyPaths.forEach((path, index) => setPath(item, keyPathSegments(path), keys[index]));
  return item;
}

/** The patch operations that set the attributes a write changes (key and id attributes excluded). */
function changedAttributeOperations(
  shape: ItemTypeShape,
  record: Readonly<Record<string, unknown>>,
  changes: readonly string[] | undefined,
): PatchOperation[] {
  const fixed = new Set<string>(["id", "type"]);
  for (const part of [shape.id, ...shape.partitionKey].flatMap((template) => templateParts(template))) {
    if (part.kind === "attribute") fixed.add(part.name);
  }
  for (const path of shape.keyPaths) fixed.add(keyPathSegments(path)[0] ?? "");
  const stored = storedAttributes(shape, record);
  return Object.keys(stored)
    .filter((name) => !fixed.has(name) && (changes === undefined || changes.includes(name)))
    .map((name) => ({ op: "set" as const, path: pointer(name), value: stored[name] }));
}

/** Writes the item(s) of one item type for a record: replicas, buckets, counters kept on upserts. */
async function writeItem(
  runtime: Runtime,
  charged: Charged,
  ref: ItemRef,
  operation: "create" | "replace" | "upsert" | "patch" | "delete",
  context: WriteContext,
  record: Readonly<Record<string, unknown>>,
  related: WriteRelated,
): Promise<void> {
  const shape = runtime.shape(ref.container, ref.itemType);
  const container = runtime.container(ref.container);
  for (let replica = 0; replica < (shape.replicas ?? 1); replica++) {
    const extra = { ...related, ...(shape.replicas === undefined ? {} : { replica }) };
    const { id, keys } = itemKeyOf(shape, record, extra);
    if (operation === "delete") {
      charged.requestCharge += await deleteItem(container, id, keys);
      charged.changes.push(changeOf(ref, "delete", deletedItem(shape, record, id, keys)));
      continue;
    }
    if (shape.bucket !== undefined) {
      // Append the record to its bucket item; create the bucket on its first record.
      const stored = storedAttributes(shape, record);
      const appended = await patchItem(container, id, keys, [{ op: "add", path: "/records/-", value: stored }]);
      charged.requestCharge += appended.requestCharge;
      if (appended.item !== undefined) {
        charged.changes.push(changeOf(ref, "update", appended.item));
        continue;
      }
      const item = materializeItem(shape, record, await withCopies(runtime, charged, shape, record, extra));
      const response = await container.items.create<StoredItem>(item);
      charged.requestCharge += response.requestCharge;
      charged.changes.push(changeOf(ref, "create", response.resource ?? item));
      continue;
    }
    if (operation === "patch") {
      const patched = await patchItem(container, id, keys, changedAttributeOperations(shape, record, context.changes));
      charged.requestCharge += patched.requestCharge;
      if (patched.item === undefined) throw new Error(ref.itemType + " " + id + " does not exist");
      charged.changes.push(changeOf(ref, "update", patched.item));
      continue;
    }
    let carried: RelatedData = extra;
    let previous: StoredItem | undefined;
    if (operation !== "create" && (shape.counts.length > 0 || shape.embeds.length > 0 || shape.ancestors !== undefined)) {
      // An upsert replaces the whole item: keep the counters and embedded children others maintain.
      const existing = await readItem(container, id, keys);
      charged.requestCharge += existing.requestCharge;
      previous = existing.item;
      if (previous !== undefined) {
        const kept = relatedOf(shape, previous);
        carried = {
          ...extra,
          ...(kept.counts === undefined ? {} : { counts: { ...kept.counts, ...extra.counts } }),
          ...(kept.embeds === undefined ? {} : { embeds: { ...kept.embeds, ...extra.embeds } }),
          ...(kept.ancestors === undefined || extra.ancestors !== undefined ? {} : { ancestors: kept.ancestors }),
        };
      }
    }
    const item = materializeItem(shape, record, await withCopies(runtime, charged, shape, record, carried));
    const response =
      operation === "create"
        ? await container.items.create<StoredItem>(item)
        : operation === "upsert"
          ? await container.items.upsert<StoredItem>(item)
          : await container.item(id, toPartitionKey(keys)).replace<StoredItem>(item);
    charged.requestCharge += response.requestCharge;
    // An upsert answers 201 when it created the item and 200 when it replaced one.
    const kind = operation === "upsert" ? (response.statusCode === 201 ? "create" : "update") : context.change;
    charged.changes.push(changeOf(ref, kind, response.resource ?? item, previous));
  }
}

/** The record before a write that may move an item to a new id: given, or read from a complete item. */
async function previousRecord(
  runtime: Runtime,
  charged: Charged,
  from: ItemRef | undefined,
  record: Readonly<Record<string, unknown>>,
  related: WriteRelated,
): Promise<Readonly<Record<string, unknown>> | undefined> {
  if (related.previous !== undefined) return related.previous;
  if (from === undefined) return undefined;
  const shape = runtime.shape(from.container, from.itemType);
  const { id, keys } = itemKeyOf(shape, record);
  const read = await readItem(runtime.container(from.container), id, keys);
  charged.requestCharge += read.requestCharge;
  return read.item === undefined ? undefined : recordOf(shape, read.item);
}

/**
 * Creates a projection item under its new id and deletes the old one when the id changes (a
 * create, so a lookup item keeps its value unique: 409 when another record holds it); refreshes
 * it in place otherwise.
 */
async function rekeyItem(
  runtime: Runtime,
  charged: Charged,
  task: ItemRef & { readonly previousFrom?: ItemRef },
  record: Readonly<Record<string, unknown>>,
  previous: Readonly<Record<string, unknown>> | undefined,
  related: WriteRelated,
): Promise<void> {
  const shape = runtime.shape(task.container, task.itemType);
  const merged = { ...previous, ...record };
  const next = itemKeyOf(shape, merged);
  const old = previous === undefined ? undefined : itemKeyOf(shape, previous);
  const moved = old === undefined || old.id !== next.id || JSON.stringify(old.keys) !== JSON.stringify(next.keys);
  const container = runtime.container(task.container);
  const item = materializeItem(shape, merged, await withCopies(runtime, charged, shape, merged, related));
  const response = moved
    ? await container.items.create<StoredItem>(item)
    : await container.items.upsert<StoredItem>(item);
  charged.requestCharge += response.requestCharge;
  charged.changes.push(changeOf(task, moved ? "create" : "update", response.resource ?? item));
  if (old === undefined || previous === undefined || !moved) return;
  charged.requestCharge += await deleteItem(container, old.id, old.keys);
  charged.changes.push(changeOf(task, "delete", deletedItem(shape, previous, old.id, old.keys)));
}

/** Updates the embedded copy of a child record in its parent item. */
async function writeEmbedded(
  runtime: Runtime,
  charged: Charged,
  task: Extract<WriteTask, { kind: "embed" }>,
  context: WriteContext,
  record: Readonly<Record<string, unknown>>,
  related: WriteRelated,
): Promise<void> {
  const shape = runtime.shape(task.container, task.itemType);
  const values = readValues(runtime, shape, parentAttributes(shape.entity, record, related), task.id);
  const id = renderTemplate(task.id, values);
  const keys = task.partitionKey.map((template) => renderKeyValue(template, values));
  const container = runtime.container(task.container);
  const parent = await readItem(container, id, keys);
  charged.requestCharge += parent.requestCharge;
  if (parent.item === undefined) return;
  let value: unknown;
  if (!task.many) {
    value = context.change === "delete" ? null : { ...record };
  } else {
    const current = Array.isArray(parent.item[task.as]) ? (parent.item[task.as] as unknown[]) : [];
    const key = record[task.childKey];
    const others = current.filter(
      (child) => typeof child !== "object" || child === null || (child as StoredItem)[task.childKey] !== key,
    );
    const existing = current.find((child) => !others.includes(child));
    const children = context.change === "delete" ? others : [{ ...(existing as StoredItem | undefined), ...record }, ...others];
    value = task.latest === undefined ? children : children.slice(0, task.latest);
  }
  const patched = await patchItem(container, id, keys, [{ op: "set", path: pointer(task.as), value }]);
  charged.requestCharge += patched.requestCharge;
  if (patched.item !== undefined) charged.changes.push(changeOf(task, "update", patched.item, parent.item));
}

/** A write and its parent's counter in one logical partition: one transactional batch. */
async function writeBatch(
  runtime: Runtime,
  charged: Charged,
  task: Extract<WriteTask, { kind: "batch" }>,
  context: WriteContext,
  record: Readonly<Record<string, unknown>>,
  related: WriteRelated,
): Promise<void> {
  if (!runtime.transactionalBatch) {
    await writeItem(runtime, charged, task, task.operation, context, record, related);
    for (const increment of task.increments) {
      const shape = runtime.shape(increment.container, increment.itemType);
      const values = readValues(runtime, shape, parentAttributes(shape.entity, record, related), increment.id);
      const id = renderTemplate(increment.id, values);
      const keys = increment.partitionKey.map((template) => renderKeyValue(template, values));
      const patched = await patchItem(runtime.container(increment.container), id, keys, [
        { op: "incr", path: pointer(increment.property), value: increment.by },
      ]);
      charged.requestCharge += patched.requestCharge;
      if (patched.item !== undefined) charged.changes.push(changeOf(increment, "update", patched.item));
    }
    return;
  }
  const shape = runtime.shape(task.container, task.itemType);
  const { id, keys } = itemKeyOf(shape, record, related);
  const partitionKey = toPartitionKey(keys);
  const operations: OperationInput[] = [];
  if (task.operation === "delete") {
    operations.push({ operationType: BulkOperationType.Delete, id, partitionKey });
  } else {
    const item = materializeItem(shape, record, await withCopies(runtime, charged, shape, record, related));
    const body = item as JSONObject;
    operations.push(
      task.operation === "create"
        ? { operationType: BulkOperationType.Create, resourceBody: body, partitionKey }
        : task.operation === "upsert"
          ? { operationType: BulkOperationType.Upsert, resourceBody: body, partitionKey }
          : { operationType: BulkOperationType.Replace, id, resourceBody: body, partitionKey },
    );
  }
  const holders: { ref: ItemRef; id: string; keys: KeyValue[] }[] = [];
  for (const increment of task.increments) {
    const holderShape = runtime.shape(increment.container, increment.itemType);
    const values = readValues(
      runtime,
      holderShape,
      parentAttributes(holderShape.entity, record, related),
      increment.id,
    );
    const holderId = renderTemplate(increment.id, values);
    const holderKeys = increment.partitionKey.map((template) => renderKeyValue(template, values));
    holders.push({ ref: increment, id: holderId, keys: holderKeys });
    operations.push({
      operationType: BulkOperationType.Patch,
      id: holderId,
      partitionKey: toPartitionKey(holderKeys),
      resourceBody: { operations: [{ op: "incr", path: pointer(increment.property), value: increment.by }] },
    });
  }
  const response = await runtime.container(task.container).items.batch(operations, partitionKey);
  const results = response.result ?? [];
  charged.requestCharge += results.reduce((sum, result) => sum + result.requestCharge, 0);
  results.forEach((result, index) => {
    if (result.statusCode >= 400) {
      throw new Error("transactional batch failed: operation " + index + " answered " + result.statusCode);
    }
  });
  const first = results[0]?.resourceBody;
  const kind =
    task.operation === "upsert" ? (results[0]?.statusCode === 201 ? "create" : "update") : context.change;
  charged.changes.push(
    task.operation === "delete"
      ? changeOf(task, "delete", deletedItem(shape, record, id, keys))
      : changeOf(task, kind, first === undefined ? { ...record, id } : (first as StoredItem)),
  );
  for (const [index, holder] of holders.entries()) {
    let item = results[index + 1]?.resourceBody as StoredItem | undefined;
    if (item === undefined) {
      const read = await readItem(runtime.container(holder.ref.container), holder.id, holder.keys);
      charged.requestCharge += read.requestCharge;
      item = read.item;
    }
    if (item !== undefined) charged.changes.push(changeOf(holder.ref, "update", item));
  }
}

/** Runs the synchronous steps of a write access pattern for one record. */
async function runWrite(
  runtime: Runtime,
  context: WriteContext,
  tasks: readonly WriteTask[],
  record: Readonly<Record<string, unknown>>,
  related: WriteRelated,
): Promise<WriteResult> {
  const charged: Charged = { requestCharge: 0, changes: [] };
  const rekey = tasks.find((task) => task.kind === "rekey");
  const previous =
    rekey === undefined ? undefined : await previousRecord(runtime, charged, rekey.previousFrom, record, related);
  for (const task of tasks) {
    switch (task.kind) {
      case "item":
        await writeItem(runtime, charged, task, task.operation, context, record, related);
        break;
      case "rekey":
        await rekeyItem(runtime, charged, task, record, previous, related);
        break;
      case "embed":
        await writeEmbedded(runtime, charged, task, context, record, related);
        break;
      case "batch":
        await writeBatch(runtime, charged, task, context, record, related);
        break;
    }
  }
  return charged;
}

function parameterValue(source: ParameterSource, values: TemplateValues, limit: number): unknown {
  switch (source.kind) {
    case "literal":
      return source.value;
    case "fromResult":
      return values.attributes[source.attribute];
    case "template":
      return renderKeyValue(source.template, values);
    case "limit":
      return limit;
  }
}

/** Writes the copies of a changed source item (every replica), then trims bounded sets. */
async function maintainCopy(
  runtime: Runtime,
  charged: Charged,
  task: Extract<MaintenanceTask, { kind: "copy" }>,
  sourceShape: ItemTypeShape,
  change: ItemChange,
): Promise<void> {
  const shape = runtime.shape(task.target.container, task.target.itemType);
  const container = runtime.container(task.target.container);
  const record = recordOf(sourceShape, change.item);
  const related = relatedOf(sourceShape, change.item);
  for (let replica = 0; replica < (shape.replicas ?? 1); replica++) {
    const extra = { ...related, ...(shape.replicas === undefined ? {} : { replica }) };
    const { id, keys } = itemKeyOf(shape, record, extra);
    if (change.kind === "delete") {
      charged.requestCharge += await deleteItem(container, id, keys);
      charged.changes.push(changeOf(task.target, "delete", deletedItem(shape, record, id, keys)));
      continue;
    }
    const item = materializeItem(shape, record, await withCopies(runtime, charged, shape, record, extra));
    const response = await container.items.upsert<StoredItem>(item);
    charged.requestCharge += response.requestCharge;
    charged.changes.push(changeOf(task.target, "upsert", response.resource ?? item));
    if (task.trim === undefined || shape.keepLatest === undefined) continue;
    const values = templateValuesOf(shape, record, extra);
    const bind = (limit: number) =>
      (task.trim?.parameters ?? []).map((parameter) => ({
        name: parameter.name,
        value: parameterValue(parameter.source, values, limit),
      }));
    const counted = await queryItems(container, task.trim.countSql, bind(1).filter((p) => p.name !== "@limit"), keys);
    charged.requestCharge += counted.requestCharge;
    const total = typeof counted.items[0] === "number" ? counted.items[0] : 0;
    const excess = total - shape.keepLatest.count;
    if (excess <= 0) continue;
    const oldest = await queryItems(container, task.trim.oldestSql, bind(excess), keys);
    charged.requestCharge += oldest.requestCharge;
    for (const stale of asItems(oldest.items)) {
      if (typeof stale["id"] !== "string") continue;
      charged.requestCharge += await deleteItem(container, stale["id"], keys);
      charged.changes.push(changeOf(task.target, "delete", deletedItem(shape, record, stale["id"], keys)));
    }
  }
}

/** Sets a changed copied attribute on every item holding a copy of it. */
async function propagate(
  runtime: Runtime,
  charged: Charged,
  task: Extract<MaintenanceTask, { kind: "propagate" }>,
  sourceShape: ItemTypeShape,
  change: ItemChange,
): Promise<void> {
  if (change.kind === "delete") return;
  const value = change.item[task.attribute];
  if (change.previous !== undefined && JSON.stringify(change.previous[task.attribute]) === JSON.stringify(value)) return;
  const shape = runtime.shape(task.holder.container, task.holder.itemType);
  const container = runtime.container(task.holder.container);
  const values: TemplateValues = { attributes: recordOf(sourceShape, change.item) };
  const found = await queryItems(
    container,
    task.sql,
    task.parameters.map((parameter) => ({ name: parameter.name, value: parameterValue(parameter.source, values, 1) })),
  );
  charged.requestCharge += found.requestCharge;
  for (const holder of asItems(found.items)) {
    if (typeof holder["id"] !== "string") continue;
    const patched = await patchItem(container, holder["id"], partitionKeyOfItem(shape, holder), [
      { op: "set", path: pointer(task.property), value: value ?? null },
    ]);
    charged.requestCharge += patched.requestCharge;
    if (patched.item !== undefined) charged.changes.push(changeOf(task.holder, "update", patched.item));
  }
}

/** Counts a created (+1) or deleted (-1) child on its parent item. */
async function count(
  runtime: Runtime,
  charged: Charged,
  task: Extract<MaintenanceTask, { kind: "counter" }>,
  sourceShape: ItemTypeShape,
  change: ItemChange,
): Promise<void> {
  if (change.kind === "update") return;
  const shape = runtime.shape(task.holder.container, task.holder.itemType);
  const values = readValues(runtime, shape, recordOf(sourceShape, change.item), task.id);
  const id = renderTemplate(task.id, values);
  const keys = task.partitionKey.map((template) => renderKeyValue(template, values));
  const patched = await patchItem(runtime.container(task.holder.container), id, keys, [
    { op: "incr", path: pointer(task.property), value: change.kind === "delete" ? -1 : 1 },
  ]);
  charged.requestCharge += patched.requestCharge;
  if (patched.item !== undefined) charged.changes.push(changeOf(task.holder, "update", patched.item));
}

/** Applies the change-feed work of a batch of changes of one source item type. */
async function runMaintenance(
  runtime: Runtime,
  source: ItemRef,
  tasks: readonly MaintenanceTask[],
  changes: readonly ItemChange[],
): Promise<WriteResult> {
  const charged: Charged = { requestCharge: 0, changes: [] };
  const sourceShape = runtime.shape(source.container, source.itemType);
  for (const change of changes) {
    if (change.item["type"] !== undefined && change.item["type"] !== source.itemType) continue;
    for (const task of tasks) {
      switch (task.kind) {
        case "copy":
          await maintainCopy(runtime, charged, task, sourceShape, change);
          break;
        case "propagate":
          await propagate(runtime, charged, task, sourceShape, change);
          break;
        case "counter":
          await count(runtime, charged, task, sourceShape, change);
          break;
      }
    }
  }
  return charged;
}

/** How a change feed is read by startChangeFeedProcessors. */
export interface ChangeFeedProcessorOptions {
  /** Where to start (default: now). */
  readonly startFrom?: ChangeFeedStartFrom;
  /**
   * "latestVersion" (default) sees creates and updates as "upsert" and no deletes: counters count
   * every upsert. "allVersionsAndDeletes" (needs continuous backup) tells creates, updates and
   * deletes apart, with the previous version.
   */
  readonly mode?: "latestVersion" | "allVersionsAndDeletes";
  /** Pause between polls when the feed is empty, in milliseconds (default 1000). */
  readonly pollMs?: number;
  /** Called with errors of a poll or a handler (default: rethrown into an unhandled rejection). */
  readonly onError?: (error: unknown) => void;
}

function feedChange(entry: unknown, mode: "latestVersion" | "allVersionsAndDeletes"): ItemChange | undefined {
  if (typeof entry !== "object" || entry === null) return undefined;
  if (mode === "latestVersion") return { kind: "upsert", item: entry as StoredItem };
  const { current, previous, metadata } = entry as {
    current?: StoredItem;
    previous?: StoredItem;
    metadata?: { operationType?: string };
  };
  const operation = metadata?.operationType;
  if (operation === "delete") return previous === undefined ? undefined : { kind: "delete", item: previous };
  if (current === undefined) return undefined;
  const kind = operation === "create" ? "create" : "update";
  return previous === undefined ? { kind, item: current } : { kind, item: current, previous };
}
`;
