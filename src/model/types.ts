/**
 * A Cosmos DB NoSQL design, as the rest of the tool sees it once loaded: the format of
 * `docs/model-format.md` with defaults applied. `design` produces one, `evaluate`, `render` and
 * `verify` consume one; `serializeModel` writes it back in the file format.
 */
import type { GatewaySize } from "../cosmos/dedicated-gateway.js";
import type {
  FullTextLanguage,
  VectorDataType,
  VectorDistanceFunction,
  VectorIndexType,
} from "../cosmos/vector-search.js";

export type ThroughputMode = "manual" | "autoscale" | "serverless" | "shared";

export type Throughput =
  | { readonly mode: "manual"; readonly rus?: number }
  | { readonly mode: "autoscale"; readonly maxRus?: number }
  | { readonly mode: "serverless" }
  | { readonly mode: "shared" };

export interface CompositePath {
  /** A path such as `/userId`. */
  readonly path: string;
  readonly order: "ascending" | "descending";
}

/**
 * `automatic`: every path indexed (Cosmos DB's default). `custom`: the given paths.
 * `derived`: not given in the file; the tool derives one from the access patterns.
 */
export type IndexingSpec =
  | { readonly kind: "automatic" }
  | { readonly kind: "derived" }
  | {
      readonly kind: "custom";
      /** Included paths, e.g. `/userId/?`. */
      readonly included: readonly string[];
      /** Excluded paths, e.g. `/*`. */
      readonly excluded: readonly string[];
      readonly composite: readonly (readonly CompositePath[])[];
    };

export interface Embed {
  readonly entity: string;
  /** Property that holds the embedded array (or object for one-to-one). */
  readonly as: string;
  /** Only the newest N children (subset pattern); absent = all. */
  readonly latest?: number;
}

export interface Copy {
  readonly from: { readonly entity: string; readonly attribute: string };
  readonly as: string;
}

export interface Counter {
  /** The child entity counted. */
  readonly of: string;
  readonly as: string;
}

export type Bucket =
  | { readonly kind: "records"; readonly records: number }
  | { readonly kind: "window"; readonly by: string; readonly windowSeconds: number };

export interface ItemType {
  /** Value of the `type` property of these items. */
  readonly type: string;
  readonly entity: string;
  /** Template of the item id, e.g. `{postId}`. */
  readonly id: string;
  /** One template per partition key path. */
  readonly partitionKey: readonly string[];
  /** Only these attributes are stored (projection); absent = all. */
  readonly select?: readonly string[];
  readonly truncate: readonly { readonly attribute: string; readonly bytes: number }[];
  readonly embeds: readonly Embed[];
  readonly copies: readonly Copy[];
  readonly counts: readonly Counter[];
  readonly ancestors?: { readonly as: string };
  /** This item is a copy of another container's item type, kept from its change feed. */
  readonly source?: { readonly container: string; readonly type: string };
  readonly keepLatest?: { readonly count: number; readonly by: string };
  readonly bucket?: Bucket;
  readonly shards?: number;
  readonly shardBy?: string;
  readonly ttl?: number;
  readonly replicas?: number;
}

/**
 * A vector path of a container: its entry in the vector embedding policy (`dataType`,
 * `dimensions`, `distance`) and its vector index (`none` = no vector index: VectorDistance scans
 * every vector in scope). `shardKey`: the paths of the index's `vectorIndexShardKey` (one index
 * per value, e.g. per tenant), absent = one index per physical partition.
 */
export interface VectorPath {
  /** The property path, e.g. `/embedding`. */
  readonly path: string;
  readonly dataType: VectorDataType;
  readonly dimensions: number;
  readonly distance: VectorDistanceFunction;
  readonly index: VectorIndexType | "none";
  readonly shardKey?: readonly string[];
}

/** A full-text path of a container: its full-text policy entry and full-text index. */
export interface FullTextPath {
  readonly path: string;
  readonly language: FullTextLanguage;
}

/**
 * A container's vector embedding policy, vector indexes and full-text policy
 * (docs/model-format.md#search). Absent on a container = derived from the workload
 * (`planner/search-policy.ts`), as `design` writes it.
 */
export interface ContainerSearch {
  readonly vectors: readonly VectorPath[];
  readonly fullText: readonly FullTextPath[];
}

export interface Container {
  readonly name: string;
  /** 1 to 3 paths; 2-3 = hierarchical (MultiHash v2). */
  readonly partitionKey: readonly string[];
  /** Pinned physical partition count; absent = derived from data and RU/s. */
  readonly physicalPartitions?: number;
  /** Absent = recommended by evaluate. */
  readonly throughput?: Throughput;
  readonly defaultTtl?: number;
  readonly uniqueKeys: readonly (readonly string[])[];
  readonly indexing: IndexingSpec;
  readonly items: readonly ItemType[];
  /** Vector and full-text policies; absent = derived from the workload's search attributes. */
  readonly search?: ContainerSearch;
}

/**
 * How deletes reach the counters and copies kept from the change feed (`src/model/deletes.ts`,
 * docs/model-format.md#deletes).
 */
export type DeletePropagation =
  /**
   * A delete of an item whose changes feed derived data sets `property: true` and `ttl` (a
   * tombstone the latest-version change feed carries as an update; reads skip it; it expires).
   */
  | { readonly mode: "softDelete"; readonly property: string; readonly ttlSeconds: number }
  /**
   * Plain deletes read from the all-versions-and-deletes change feed: the account needs
   * continuous backup, whose retention (7 or 30 days) bounds how long a processor may stop.
   */
  | { readonly mode: "allVersionsAndDeletes"; readonly retentionDays: 7 | 30 };

/**
 * A dedicated gateway with its integrated cache (docs/model-format.md#integratedcache): `nodes`
 * of one `size`, and the read patterns the application sends through it, each with its request's
 * `MaxIntegratedCacheStaleness` set to the pattern's `maxStalenessSeconds`. A hit costs 0 RU; the
 * evaluation charges the misses (`cost/integrated-cache.ts`) and adds the gateway's bill.
 */
export interface IntegratedCache {
  readonly size: GatewaySize;
  readonly nodes: number;
  /** Ids of the read patterns served through the cache, in the workload's order. */
  readonly patterns: readonly string[];
}

export interface Model {
  readonly version: 1;
  /** Absent = no dedicated gateway: every read goes to the database. */
  readonly integratedCache?: IntegratedCache;
  /** Absent = soft delete with the defaults of `src/model/deletes.ts`. */
  readonly deletes?: DeletePropagation;
  /**
   * The lease container of the change-feed processors (partitioned by `/id`: one item per feed
   * range and processor, holding its continuation and owner). Required when any write's derived
   * data is kept from the change feed (`evaluate.leaseContainerMissing`); the infrastructure
   * creates it and the generated code keeps its checkpoints there.
   */
  readonly leases?: string;
  readonly containers: readonly Container[];
}
