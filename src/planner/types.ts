/**
 * Plans: how each access pattern executes on a model, as plain serialisable data (STYLE.md rule 2).
 * The same plan is costed by `evaluate`, rendered in the documents, turned into `@azure/cosmos`
 * code by `render`, and executed by `verify`, so they cannot disagree.
 */
import type { RuEstimate } from "../estimator/operation.js";
import type { Truncation, WriteOperation } from "../workload/types.js";
import type { Operation } from "../estimator/operation.js";
import type { VectorDistanceFunction, VectorIndexType } from "../cosmos/vector-search.js";

/**
 * What a search query searches (`search` of the read, planned on a container's policies): the
 * vector path with its index, the full-text path with its terms, k, and the search's own charge
 * (besides reading the k results) with how it is computed (`estimator/search-charge.ts`).
 */
export interface SearchStepInfo {
  readonly kind: "vector" | "fullText" | "hybrid";
  readonly k: number;
  readonly vector?: {
    readonly attribute: string;
    readonly index: VectorIndexType | "none";
    readonly distance: VectorDistanceFunction;
    readonly dimensions: number;
    /** Vectors matching the filters, and in each index searched. */
    readonly vectorsMatched: number;
    readonly vectorsPerIndex: number;
  };
  readonly text?: { readonly attribute: string; readonly terms: number };
  /** The property of each result holding its VectorDistance score (vector and hybrid searches). */
  readonly scoreProperty?: string;
  readonly charge: RuEstimate;
  readonly basis: readonly string[];
}

/** Where a value in a query parameter, id or partition key comes from at run time. */
export type ValueSource =
  /** Supplied by the caller: an attribute the access pattern filters on (its `where`). */
  | {
      readonly kind: "input";
      readonly attribute: string;
      /** For `range` predicates: the lower (inclusive) or upper (exclusive) bound. */
      readonly bound?: "from" | "to";
      /**
       * Round the value down to the start of its window of this many seconds before binding it:
       * a bucket item holds its window's start, so the bucket holding `from` starts before it.
       */
      readonly alignToWindowSeconds?: number;
    }
  /** A constant, e.g. the item type or a literal partition key. */
  | { readonly kind: "literal"; readonly value: string | number | boolean }
  /** Taken from each item returned by the previous step (follow-up reads). */
  | { readonly kind: "fromResult"; readonly attribute: string }
  /**
   * A key template (`post-{replica}`, `{postId}-{shard}`) rendered from the values available at
   * that step: inputs (or result attributes for follow-ups), `{replica}` picked at random,
   * `{shard}` computed from the shard attribute, `{bucket}` from the bucket attribute.
   */
  | { readonly kind: "template"; readonly template: string; readonly from: "input" | "result" }
  /** Picked at random in 0..count-1 by the reader (replicas). */
  | { readonly kind: "random"; readonly count: number }
  /** The written item itself (writes). */
  | { readonly kind: "item" }
  /** The pattern's `limit`. */
  | { readonly kind: "limit"; readonly value: number }
  /**
   * The `index`-th term (1-based) of a full-text search the caller gives (`input.terms`); a call
   * with fewer terms leaves the others out of the query (runtime `searchTermsQuery`).
   */
  | { readonly kind: "searchTerm"; readonly index: number };

export interface QueryParameter {
  /** `@name` as used in the SQL text. */
  readonly name: string;
  readonly source: ValueSource;
}

/**
 * What a step of change-feed work is for, when the generated code must tell it apart: the search
 * for copies left at an old address (`staleCopies`), the read of a copy before deleting it
 * (`checkCopy`: the delete of a moved source must not remove the copy its create wrote), the read
 * of a bounded set's members (`boundedSet`), the read of the newest N from a bounded set's source
 * when a member leaves (`boundedSetRefill`), the read of a written record's current item for
 * what the write's input does not give (`currentRecord`, `src/model/write-inputs.ts`).
 */
export type StepRole = "staleCopies" | "checkCopy" | "boundedSet" | "boundedSetRefill" | "currentRecord";

interface StepBase {
  /** What the step is for, when the code must tell it apart (change-feed work). */
  readonly role?: StepRole;
  /** For a follow-up read: the `with` entry it answers, as the workload writes it (`count(Comment)`). */
  readonly withEntry?: string;
  readonly container: string;
  /** The item type (`type` property) this step reads or writes. */
  readonly itemType: string;
  /** Charge of one execution of this step. */
  readonly ru: RuEstimate;
  /**
   * The estimator input the charge was estimated from (item size, indexed values, items
   * returned, partitions...): the features a measured charge is recorded with for `calibrate`.
   */
  readonly estimatedFrom?: Operation;
  /** Executions of this step per request of the pattern (may be fractional: amortized or rare). */
  readonly times: number;
  /** Why this step exists, in one sentence. */
  readonly note: string;
  /** True when the step runs once for each item the first step returned (follow-up reads). */
  readonly perResult?: boolean;
}

/** A point read: id and the full partition key are known. */
export interface PointReadStep extends StepBase {
  readonly kind: "pointRead";
  /** Id template, e.g. `{postId}`. */
  readonly id: string;
  /** One template per partition key path. */
  readonly partitionKey: readonly string[];
}

/** A parameterized SQL query. */
export interface QueryStep extends StepBase {
  readonly kind: "query";
  readonly sql: string;
  readonly parameters: readonly QueryParameter[];
  /**
   * Partition key templates the query is routed with: the full key (`single`), a hierarchical
   * prefix (`prefix`), none (`fanOut`), or one per shard (`shards`).
   */
  readonly partitionKey?: readonly string[];
  readonly scope: "single" | "prefix" | "fanOut" | "shards";
  /** Physical partitions visited. */
  readonly partitions: number;
  /** Expected items returned. */
  readonly returned: number;
  /**
   * Items per page (the pattern's `limit`): the query has no TOP; the generated function returns
   * this many items and a continuation token for the next page.
   */
  readonly pageSize?: number;
  /** Whether the ORDER BY (if any) is served by an index; false = the query sorts more than it returns. */
  readonly orderServedByIndex: boolean;
  /**
   * A query over write shards (`shards`) with ORDER BY runs once per shard and its pages are
   * merged: where each item holds each ORDER BY value (`alias`: a property the SQL adds for the
   * merge, not returned to the caller).
   */
  readonly orderValues?: readonly {
    readonly property: string;
    readonly direction: "asc" | "desc";
    readonly alias: boolean;
  }[];
  /** A vector, full-text or hybrid search: what it searches and what its search costs. */
  readonly search?: SearchStepInfo;
}

/** One write of one item. */
export interface WriteStep extends StepBase {
  readonly kind: "write";
  readonly operation: WriteOperation;
  readonly id: string;
  readonly partitionKey: readonly string[];
  /** Counter increments (patch `incr`), for counter maintenance. */
  readonly increments?: readonly { readonly property: string; readonly by: number }[];
  /** Attributes written by a patch (copies, propagation). */
  readonly sets?: readonly string[];
}

/** A transactional batch: several writes in one logical partition, all or nothing. */
export interface BatchStep extends StepBase {
  readonly kind: "batch";
  readonly partitionKey: readonly string[];
  readonly operations: readonly WriteStep[];
}

/** Work the change feed of `from` triggers, executed asynchronously after the write. */
export interface ChangeFeedStep extends StepBase {
  readonly kind: "changeFeed";
  readonly reason: "copy" | "propagate" | "trim" | "counter" | "replica";
  readonly from: { readonly container: string; readonly itemType: string };
  readonly steps: readonly PlanStep[];
}

export type PlanStep = PointReadStep | QueryStep | WriteStep | BatchStep | ChangeFeedStep;

export type ReadPlanKind = "pointRead" | "singlePartitionQuery" | "prefixQuery" | "fanOut";

/**
 * What a read's function returns of each item, when the pattern has `select` or `truncate`: only
 * these properties (absent = all) and strings cut to bytes. Queries project and cut in the SQL
 * already (the charge follows the smaller response); a point read is charged for the whole item.
 */
export interface ReturnedShape {
  readonly properties?: readonly string[];
  readonly truncate: readonly Truncation[];
  /** Bucket items: the shape applies to each record of their `records`. */
  readonly bucketed: boolean;
}

export interface ReadPlan {
  readonly patternId: string;
  readonly type: "read";
  readonly kind: ReadPlanKind;
  /** Container and item type that answer the pattern. */
  readonly container: string;
  readonly itemType: string;
  /** Synchronous steps in order (the first answers the pattern, the rest are follow-ups). */
  readonly operations: readonly PlanStep[];
  /** True when a step visits every physical partition (or every shard). */
  readonly fanOut: boolean;
  /** False when the model cannot answer the pattern (e.g. keepLatest count below the limit). */
  readonly served: boolean;
  readonly notes: readonly string[];
  /**
   * Bounded sets (`keepLatest`) in the pattern's order that keep fewer items than it asks for,
   * one description each, whether or not the plan reads them (they are maintained for nothing).
   */
  readonly boundedSetsTooSmall?: readonly string[];
  /** What the function returns of each item (`select`, `truncate`); absent = the items as stored. */
  readonly returnedShape?: ReturnedShape;
}

/**
 * An item a write moves because it changes an attribute of its id or partition key (a partition
 * key value cannot be changed in place): the write finds the current item, creates it under its
 * new id and key and deletes the old one (two requests in two logical partitions: no
 * transactional batch); when the attribute keeps its value, it writes in place.
 */
export interface PlannedMove {
  readonly container: string;
  readonly itemType: string;
  /** The id / key attributes whose change moves the item. */
  readonly attributes: readonly string[];
  /** Share of the pattern's records that move (the change probability of those attributes). */
  readonly share: number;
  /**
   * An item type the record's known attributes address with a point read and that holds the
   * moving item's id and key attributes: read first, then the moving item at the key it names.
   */
  readonly helper?: {
    readonly container: string;
    readonly itemType: string;
    readonly id: string;
    readonly partitionKey: readonly string[];
    /**
     * The helper is the record itself (not a copy that may lag) and holds all the moving item
     * stores, which keeps nothing others maintain: the item is derived from it, not read.
     */
    readonly derives: boolean;
  };
  /** The query that finds the current item by the entity key (alone, or when the helper lags). */
  readonly query: {
    readonly sql: string;
    readonly parameters: readonly QueryParameter[];
    /** Key templates the query is routed with (absent = every partition). */
    readonly partitionKey?: readonly string[];
  };
}

/**
 * What planning a write finds that the model cannot do right, as data: the evaluation turns each
 * into a typed issue (`evaluate.*`) that the design search reads.
 */
export type WriteFinding =
  | {
      /** An item whose id or key the write changes and that cannot be moved (e.g. a bucket item). */
      readonly kind: "keyChangedInPlace";
      readonly container: string;
      readonly itemType: string;
      readonly attributes: readonly string[];
      readonly reason: string;
    }
  | {
      /**
       * A copy (`copies`) of an attribute of the written entity on items no relationship with
       * `via` leads to (many-to-many without a link attribute): they cannot be found to update.
       */
      readonly kind: "copyNotMaintainable";
      readonly container: string;
      readonly itemType: string;
      readonly property: string;
      readonly entity: string;
      readonly attribute: string;
    }
  | {
      /**
       * A counter kept from the change feed of the counted child whose holder the child's item
       * cannot address: the holder's id or partition key needs attributes the child's entity does
       * not have (an order counted on its account kept in the account's customer's partition).
       */
      readonly kind: "counterNotAddressable";
      readonly container: string;
      readonly itemType: string;
      readonly property: string;
      /** The counted entity. */
      readonly entity: string;
      /** The entity whose items hold the counter. */
      readonly holder: string;
      /** The holder's attributes (placing its item) that a change of the counted entity does not give. */
      readonly missing: readonly string[];
    }
  | {
      /**
       * A child embedded in its parent's item (`embeds`) whose write patches the parent, but the
       * child's record does not give what places the parent's item (its key comes through the
       * via; a same-named attribute of the child is the child's own).
       */
      readonly kind: "embedNotAddressable";
      readonly container: string;
      readonly itemType: string;
      /** The embedded entity (the one written). */
      readonly entity: string;
      /** The entity whose items embed it. */
      readonly holder: string;
      readonly missing: readonly string[];
    }
  | {
      /**
       * A child embedded in its parent's item (`embeds`) that the write may move to another parent
       * (it changes the relationship's `via`): the write patches the parent the record names now,
       * and nothing finds the old one, which keeps the child (and a `latest` embed there is not
       * refilled).
       */
      readonly kind: "embedReparented";
      readonly container: string;
      readonly itemType: string;
      /** The embedded entity (the one written). */
      readonly entity: string;
      /** The entity whose items embed it. */
      readonly holder: string;
      /** The via attributes the write changes. */
      readonly via: readonly string[];
    }
  | {
      /**
       * A bounded set (`keepLatest`) holding fewer than all of its source's records, which the write
       * takes a member from (`delete`: a delete; `key`: a change of the set's key moves it to
       * another set) or may make older than a record outside the set (`order`: a change of the
       * attribute it is ordered by), and which the change-feed handler cannot refill from its
       * source (`cause`: the source holds only some records, a bounded set or buckets itself, or
       * its container does not index the order attribute, so the ORDER BY cannot run): the set
       * keeps fewer than the newest `count`.
       */
      readonly kind: "boundedSetNotRefilled";
      readonly container: string;
      readonly itemType: string;
      /** The entity the set keeps. */
      readonly entity: string;
      readonly reason: "delete" | "key" | "order";
      readonly cause: RefillObstacle;
      /** The attributes the write changes (none for a delete). */
      readonly attributes: readonly string[];
    }
  | {
      /**
       * A copy of a parent's attribute on items the write creates or rewrites, whose parent no
       * item type lets read by its key alone (its complete records keyed by the key only): the
       * new item cannot be given the parent's value (the generated code would need the caller to
       * pass the parent's record).
       */
      readonly kind: "copySourceUnreadable";
      readonly container: string;
      readonly itemType: string;
      readonly property: string;
      /** The parent copied from. */
      readonly entity: string;
      readonly attribute: string;
    };

/** Why a bounded set cannot be refilled from its source (`boundedSetNotRefilled`). */
export type RefillObstacle = "sourceIncomplete" | "orderNotIndexed";

/**
 * The query that refills a `latest: N` embed from the children's own items when the kept N may no
 * longer be the newest (a kept child deleted or made older); its step is in `operations`.
 */
export interface PlannedRefill {
  /** The embedding parent item type. */
  readonly container: string;
  readonly itemType: string;
  /** The children's item type the query reads, with its SQL and routing (`QueryStep`). */
  readonly query: {
    readonly container: string;
    readonly itemType: string;
    readonly sql: string;
    readonly parameters: readonly QueryParameter[];
    readonly partitionKey?: readonly string[];
  };
}

export interface WritePlan {
  readonly patternId: string;
  readonly type: "write";
  readonly kind: "write" | "batch";
  /** Synchronous steps: the primary write (or batch) per request. */
  readonly operations: readonly PlanStep[];
  /** Change-feed work triggered per request (copies, propagation, trimming, counters, replicas). */
  readonly async: readonly ChangeFeedStep[];
  readonly served: boolean;
  readonly notes: readonly string[];
  /** Items the write moves when it changes their id or key (their steps are in `operations`). */
  readonly moves?: readonly PlannedMove[];
  /** Refills of `latest: N` embeds (their query steps are in `operations`). */
  readonly refills?: readonly PlannedRefill[];
  /** What the model cannot do right for this write (reported by the evaluation). */
  readonly findings?: readonly WriteFinding[];
  /**
   * The records are embedded in their parent's item and written with the parent's create in the
   * same request (`operations` is empty): the parent's create takes them (`related.embeds`), and
   * a write of them alone has no item to land in (the generated function refuses it).
   */
  readonly writtenWithParent?: {
    readonly parent: string;
    readonly container: string;
    readonly itemType: string;
    readonly as: string;
  };
}

export type Plan = ReadPlan | WritePlan;
