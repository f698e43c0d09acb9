/**
 * The runtime context a generated data-access module creates over a database: its containers,
 * the stored shape of every item type, where copied records are read, and options. Also the change
 * records every write and handler returns, and the template values used to address items.
 */
import type { Container, Database } from "@azure/cosmos";
import { DataAccessError } from "./errors.js";
import { guardContainer } from "./guarded-container.js";
import { throughIntegratedCache, type CachedReadOptions } from "./integrated-cache.js";
import { computeShard } from "./hash.js";
import {
  bucketOf,
  isTombstone,
  recordOf,
  type ItemTypeShape,
  type RelatedData,
  type StoredItem,
} from "./items.js";
import { readItem } from "./requests.js";
import type { Journal } from "./journal.js";
import type { RetryOptions } from "./retry.js";
import type { AddressBinding, CopySource, ItemRef } from "./tasks.js";
import { renderKeyValue, renderTemplate, type KeyValue, type TemplateValues } from "./templates.js";

/** The model facts a generated module carries: item shapes and copy sources, by "container/type". */
export interface ModelData {
  readonly itemTypes: Readonly<Record<string, ItemTypeShape>>;
  readonly copySources: Readonly<Record<string, Readonly<Record<string, CopySource>>>>;
  /** The change feed mode the model's deletes need (default latestVersion). */
  readonly changeFeedMode?: "latestVersion" | "allVersionsAndDeletes";
}

/** Options of createDataAccess. */
export interface DataAccessOptions {
  /**
   * Send co-located writes as one transactional batch (default true). false runs them one by one,
   * for endpoints without atomic batches or patch in batches (such as an embedded test server).
   */
  readonly transactionalBatch?: boolean;
  /** Random numbers in [0, 1) for picking a read replica (default Math.random). */
  readonly random?: () => number;
  /**
   * How requests the service throttles (429) or that fail transiently are retried: attempts and
   * total wait (default 10 attempts within 30 s), after the SDK's own retries.
   */
  readonly retry?: RetryOptions;
  /**
   * The same database through the dedicated gateway endpoint (a CosmosClient on
   * `https://<account>.sqlx.cosmos.azure.com/`), for the reads the model serves from the
   * integrated cache. Without it those reads go to `database` with the same options: correct,
   * but every request reaches the database and is charged in full.
   */
  readonly cacheDatabase?: Database;
}

/** What the runtime's steps need: containers by name, item shapes, copy sources and options. */
export interface Runtime {
  readonly container: (name: string) => Container;
  readonly shape: (container: string, itemType: string) => ItemTypeShape;
  /** The item types a container holds. */
  readonly itemTypes: (container: string) => readonly ItemTypeShape[];
  readonly copySources: (container: string, itemType: string) => Readonly<Record<string, CopySource>>;
  readonly transactionalBatch: boolean;
  readonly random: () => number;
  /** The change feed mode the model's deletes need: how counters read a change. */
  readonly changeFeedMode: "latestVersion" | "allVersionsAndDeletes";
  /**
   * The runtime whose containers send reads through the integrated cache with `cache`'s
   * staleness and consistency (over `cacheDatabase` when given).
   */
  readonly cached: (cache: CachedReadOptions) => Runtime;
}

/** The runtime over a database, for a model's item types. */
export function createRuntime(
  database: Database,
  model: ModelData,
  options: DataAccessOptions = {},
): Runtime {
  const containers = new Map<string, Container>();
  const cachedRuntimes = new Map<string, Runtime>();
  const runtime = (container: (name: string) => Container): Runtime => ({
    container,
    shape: (container, itemType) => {
      const shape = model.itemTypes[`${container}/${itemType}`];
      if (shape === undefined) {
        throw new DataAccessError("unknownItemType", `no item type ${container}/${itemType} in the model`);
      }
      return shape;
    },
    itemTypes: (container) => Object.values(model.itemTypes).filter((shape) => shape.container === container),
    copySources: (container, itemType) => model.copySources[`${container}/${itemType}`] ?? {},
    transactionalBatch: options.transactionalBatch ?? true,
    random: options.random ?? Math.random,
    changeFeedMode: model.changeFeedMode ?? "latestVersion",
    cached: (cache) => {
      const key = `${cache.maxStalenessMs}/${cache.consistency}`;
      let found = cachedRuntimes.get(key);
      if (found === undefined) {
        const through = new Map<string, Container>();
        found = runtime((name) => {
          let container = through.get(name);
          if (container === undefined) {
            const source = (options.cacheDatabase ?? database).container(name);
            container = guardContainer(throughIntegratedCache(source, cache), options.retry);
            through.set(name, container);
          }
          return container;
        });
        cachedRuntimes.set(key, found);
      }
      return found;
    },
  });
  return runtime((name) => {
    let container = containers.get(name);
    if (container === undefined) {
      // Every request of the runtime goes through the guard: keys checked, retries, typed errors.
      container = guardContainer(database.container(name), options.retry);
      containers.set(name, container);
    }
    return container;
  });
}

/** A change of an item, as the change feed or a write of this module reports it. */
export interface ItemChange {
  /** "upsert" = created or updated, not known which (the latest-version change feed). */
  readonly kind: "create" | "update" | "upsert" | "delete";
  readonly item: StoredItem;
  /** The item before the change, when known. */
  readonly previous?: StoredItem;
  /** Where the change feed delivered it: its logical sequence number and feed range. */
  readonly feed?: { readonly lsn: number; readonly range: string; readonly journal?: Journal };
}

/** An item change with where it happened. */
export interface ContainerChange extends ItemChange {
  readonly container: string;
  readonly itemType: string;
}

/** What a write (or change-feed maintenance) did: its charge and the items it changed. */
export interface WriteResult {
  readonly requestCharge: number;
  readonly changes: ContainerChange[];
}

/** The charge and changes a write or handler accumulates. */
export interface Charged {
  requestCharge: number;
  readonly changes: ContainerChange[];
}

/** A change record of `ref`. */
export function changeOf(
  ref: ItemRef,
  kind: ItemChange["kind"],
  item: StoredItem,
  previous?: StoredItem,
): ContainerChange {
  return previous === undefined
    ? { container: ref.container, itemType: ref.itemType, kind, item }
    : { container: ref.container, itemType: ref.itemType, kind, item, previous };
}

/**
 * Template values for reading an item of `shape` by the attributes at hand: a replica picked at
 * random (or `replica`, the one a continued page must read again), the window bucket and the
 * write shard when their attributes are known.
 */
export function readValues(
  runtime: Runtime,
  shape: ItemTypeShape,
  attributes: Readonly<Record<string, unknown>>,
  idTemplate: string = shape.id,
  replica?: number,
): TemplateValues {
  let values: TemplateValues = { attributes };
  if (shape.replicas !== undefined)
    values = { ...values, replica: replica ?? Math.floor(runtime.random() * shape.replicas) };
  const windowStart = shape.bucket?.kind === "window" ? attributes[shape.bucket.by] : undefined;
  if (shape.bucket !== undefined && (typeof windowStart === "string" || typeof windowStart === "number")) {
    values = { ...values, bucket: bucketOf(shape.bucket, attributes) };
  }
  if (shape.shards !== undefined) {
    const by = shape.shardBy === undefined ? undefined : attributes[shape.shardBy];
    if (by !== undefined && by !== null) {
      values = {
        ...values,
        shard: computeShard(typeof by === "string" ? by : JSON.stringify(by), shape.shards),
      };
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

/**
 * The attributes of a related item that a record gives, by a binding (related attribute -> the
 * record's property): never by name, since names mean nothing across entities.
 * @example boundAttributes({ postId: "postId" }, like) // { postId: like.postId }, not the liker's userId
 */
export function boundAttributes(
  bind: AddressBinding,
  record: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const attributes: Record<string, unknown> = {};
  for (const [attribute, property] of Object.entries(bind)) attributes[attribute] = record[property];
  return attributes;
}

/** Every value of a template over the write shards of an item type (queries over all shards). */
export function shardValues(
  shape: ItemTypeShape,
  template: string,
  attributes: Readonly<Record<string, unknown>>,
): KeyValue[] {
  const shards = shape.shards ?? 1;
  return Array.from({ length: shards }, (_, shard) => renderKeyValue(template, { attributes, shard }));
}

/** Fills related.copies with the records the item type copies from (point reads when not given). */
export async function withCopies(
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
    // Linked records (many-to-many) are the caller's: it knows which records it links to.
    if (copy.key !== undefined || copies[entity] !== undefined) continue;
    const source = sources[entity];
    if (source === undefined) {
      throw new DataAccessError(
        "missingRelatedData",
        `item type ${shape.type} copies ${entity}.${copy.from.attribute}: pass related.copies.${entity}`,
      );
    }
    const sourceShape = runtime.shape(source.container, source.itemType);
    let values: TemplateValues;
    try {
      values = readValues(runtime, sourceShape, boundAttributes(source.bind, record), source.id);
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
    // A tombstone is a deleted source: nothing to copy (the copy reads null, as propagated).
    copies[entity] =
      read.item === undefined || isTombstone(sourceShape, read.item) ? {} : recordOf(sourceShape, read.item);
  }
  return { ...related, copies };
}
