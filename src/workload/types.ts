/**
 * The workload, as the rest of the tool sees it once loaded: the format of
 * `docs/workload-format.md` with every default applied and every reference resolved.
 * Plain immutable data; the loader (`load-workload.ts`) is the only way to build one from a file.
 */
import type { Consistency } from "../cosmos/consistency.js";
import type { FullTextLanguage, VectorDataType, VectorDistanceFunction } from "../cosmos/vector-search.js";

export type { Consistency };

export type AttributeType = "string" | "number" | "boolean" | "datetime" | "object" | "array";

/** How often writes change an attribute: rare = about 1 write in 100, frequent = about 1 in 2. */
export type ChangeFrequency = "never" | "rare" | "frequent";

export interface Attribute {
  readonly name: string;
  readonly type: AttributeType;
  /** Average JSON size of the value, when given. */
  readonly avgBytes?: number;
  /** Number of distinct values (cardinality), when given. */
  readonly distinct?: number;
  /** Zipf exponent of how values are used (0 = uniform). Default 0. */
  readonly skew: number;
  /** Unique across all items of the entity. */
  readonly unique: boolean;
  readonly changes: ChangeFrequency;
  /**
   * Share of the entity's records that have a value (0 < presence <= 1; default 1). An index,
   * a copy or a container keyed by the attribute holds only those records; the others have no
   * value for it (sparse attribute).
   */
  readonly presence: number;
  /**
   * The attribute holds an embedding (`type: array` with `vector:` in the file): a JSON array of
   * `dimensions` numbers of `dataType`, compared with `distance`. Its `avgBytes` is its JSON size
   * (`vectorJsonBytes`, cosmos/vector-search.ts).
   */
  readonly vector?: VectorSpec;
  /** The attribute's text is searched by full text (`type: string` with `fullText:`). */
  readonly fullText?: FullTextSpec;
}

/** An embedding attribute: what the container's vector embedding policy declares for its path. */
export interface VectorSpec {
  readonly dimensions: number;
  readonly dataType: VectorDataType;
  readonly distance: VectorDistanceFunction;
}

/** A text attribute searched by full text: the language of its full-text path. */
export interface FullTextSpec {
  readonly language: FullTextLanguage;
}

/**
 * How a read searches (`search:` in the file): the k nearest neighbours of a query vector
 * (`vector`), the k best BM25 matches of some terms (`fullText`), or both fused by reciprocal
 * rank (`hybrid`, RRF). Results come ordered by distance or rank; `k` is the TOP.
 */
export type SearchSpec =
  | {
      readonly kind: "vector";
      readonly vector: string;
      readonly k: number;
      /** Share of the true k nearest neighbours the application needs (1 = exact). */
      readonly recall: number;
    }
  | { readonly kind: "fullText"; readonly text: string; readonly k: number; readonly terms: number }
  | {
      readonly kind: "hybrid";
      readonly vector: string;
      readonly text: string;
      readonly k: number;
      readonly recall: number;
      readonly terms: number;
    };

/**
 * How an entity's records may be grouped into bucket items (`binning:` in the file, the answer
 * to the massive-scale question): never, per time window, or a number of records per item.
 * Absent = the design decides.
 */
export type Binning =
  | { readonly kind: "never" }
  | { readonly kind: "window"; readonly seconds: number }
  | { readonly kind: "records"; readonly perItem: number };

export interface Entity {
  readonly name: string;
  /**
   * The attributes whose values together identify one record, in the file's order: one for
   * `key: postId`, several for a composite key (`key: [filmId, actorId]`). Never empty; use the
   * helpers of `keys.ts` (`keyAttributes`, `isKeyAttribute`, `keyTemplate`) rather than reading it.
   */
  readonly key: readonly string[];
  /** Items at the start of the planning horizon. */
  readonly count: number;
  /** New items per month. Default 0. */
  readonly growthPerMonth: number;
  /** Average JSON size of one item in bytes. */
  readonly avgBytes: number;
  /** Largest item in bytes. Default 4 x avgBytes. */
  readonly maxBytes: number;
  /** Items expire this long after their last write. */
  readonly ttlSeconds?: number;
  /** How records may be grouped into bucket items; absent = the design decides. */
  readonly binning?: Binning;
  /** In the order the file lists them; may be empty when the file lists none. */
  readonly attributes: readonly Attribute[];
}

export type RelationshipKind = "one-to-many" | "one-to-one" | "many-to-many";

export interface Relationship {
  readonly parent: string;
  readonly child: string;
  readonly kind: RelationshipKind;
  /**
   * Attributes of the child that hold the parent's key, one per parent key attribute, in the
   * parent's key order (`[filmId]`; `[filmId, actorId]` for a parent with a composite key).
   * Absent for many-to-many without a link.
   */
  readonly via?: readonly string[];
  /** Children per parent, average. */
  readonly avg: number;
  /** Children per parent, maximum; absent = unbounded. */
  readonly max?: number;
  /** The child cannot exist without its parent (identifying relationship). */
  readonly owned: boolean;
}

export interface Rate {
  /** Requests per second, average. */
  readonly avg: number;
  /** Requests per second at peak (>= avg). */
  readonly peak: number;
}

export type PredicateOperator = "eq" | "range" | "in" | "contains" | "prefix";

export interface Predicate {
  readonly attribute: string;
  readonly op: PredicateOperator;
}

export interface SortKey {
  readonly attribute: string;
  readonly direction: "asc" | "desc";
}

export interface Truncation {
  readonly attribute: string;
  readonly bytes: number;
}

/** Related data returned with each item of a read (`with:` in the file). */
export type WithItem =
  | { readonly kind: "attribute"; readonly entity: string; readonly attribute: string }
  | { readonly kind: "count"; readonly entity: string }
  | {
      readonly kind: "aggregate";
      readonly fn: "sum" | "min" | "max";
      readonly entity: string;
      readonly attribute: string;
    }
  | { readonly kind: "latest"; readonly entity: string; readonly n: number }
  | { readonly kind: "all"; readonly entity: string };

export type WriteOperation = "create" | "replace" | "upsert" | "patch" | "delete";

interface PatternBase {
  readonly id: string;
  readonly name: string;
  readonly entity: string;
  readonly rps: Rate;
  /** Exempt from the read-without-write / write-without-read warnings. */
  readonly standalone: boolean;
  /**
   * Zipf exponent of how this pattern's requests spread over the values of the attribute that
   * locates them (its filter, or the written record's partition key), overriding that
   * attribute's `skew` for this pattern's traffic (0 = every value alike). Absent = the
   * attribute's own skew.
   */
  readonly skew?: number;
}

export interface ReadPattern extends PatternBase {
  readonly type: "read";
  readonly where: readonly Predicate[];
  readonly orderBy: readonly SortKey[];
  readonly limit?: number;
  /** Expected items returned; absent = derive from relationships. */
  readonly returns?: { readonly avg: number };
  /** Attributes returned; absent = all. */
  readonly select?: readonly string[];
  readonly truncate: readonly Truncation[];
  readonly with: readonly WithItem[];
  readonly consistency?: Consistency;
  readonly latencyMs?: number;
  /**
   * How old the related data the read returns may be, in seconds: 0 = it reflects every write
   * committed before the read (derived data kept in the same transaction, or read at query
   * time); absent = a few seconds (change-feed maintenance) are acceptable.
   */
  readonly maxStalenessSeconds?: number;
  /** A vector, full-text or hybrid search; absent = an ordinary read. */
  readonly search?: SearchSpec;
}

export interface WritePattern extends PatternBase {
  readonly type: "write";
  readonly operation: WriteOperation;
  /** Attributes the write may change; absent = all. */
  readonly changes?: readonly string[];
  /** Items written per request. Default 1. */
  readonly batch: number;
  /**
   * Ids of other write patterns that must commit in the same transaction as this one (each
   * request of this pattern and one of each listed pattern succeed or fail together). Default [].
   */
  readonly atomicWith: readonly string[];
  /**
   * Records of one key value the writer collects before it writes them in one request (e.g. a
   * device sends 60 readings at once); binning then appends them to the bucket item with one
   * patch. Default 1 (every record written as it comes).
   */
  readonly bufferedRecords: number;
}

export type AccessPattern = ReadPattern | WritePattern;

/**
 * How the workload's traffic spreads over a day, for autoscale billing (Azure bills each hour on
 * the highest RU/s autoscale reached in it). `hourly`: 24 shares (0..1) of the peak rate that each
 * hour's busiest moment reaches, hour 0 first; `peakHours`: that many hours a day at the peak rate,
 * the others at the average rate.
 */
export type TrafficProfile =
  | { readonly kind: "hourly"; readonly shares: readonly number[] }
  | { readonly kind: "peakHours"; readonly peakHoursPerDay: number };

export interface Scale {
  readonly regions: number;
  /** Region names when the file lists them. */
  readonly regionNames?: readonly string[];
  readonly multiRegionWrites: boolean;
  readonly consistency: Consistency;
  /** Planning horizon for growth in months. Default 12. */
  readonly horizonMonths: number;
  /** Daily traffic shape for autoscale billing; absent = unknown (autoscale cost is a range). */
  readonly trafficProfile?: TrafficProfile;
  /**
   * The share of a partition's limits (10,000 RU/s at the top of the RU estimates' range, 20 GB
   * at the horizon) a design keeps under: above it is `evaluate.noHeadroom`. Default
   * `DEFAULT_TARGET_UTILIZATION` (cosmos/limits.ts).
   */
  readonly targetUtilization: number;
}

export interface Workload {
  readonly version: 1;
  readonly name: string;
  readonly domain?: string;
  readonly description?: string;
  readonly scale: Scale;
  readonly entities: readonly Entity[];
  readonly relationships: readonly Relationship[];
  readonly accessPatterns: readonly AccessPattern[];
}
