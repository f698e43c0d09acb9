/**
 * Plans: how each access pattern executes on a model, as plain serialisable data (STYLE.md rule 2).
 * The same plan is costed by `evaluate`, rendered in the documents, turned into `@azure/cosmos`
 * code by `render`, and executed by `verify`, so they cannot disagree.
 */
import type { RuEstimate } from "../estimator/operation.js";
import type { WriteOperation } from "../workload/types.js";

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
  | { readonly kind: "limit"; readonly value: number };

export interface QueryParameter {
  /** `@name` as used in the SQL text. */
  readonly name: string;
  readonly source: ValueSource;
}

interface StepBase {
  readonly container: string;
  /** The item type (`type` property) this step reads or writes. */
  readonly itemType: string;
  /** Charge of one execution of this step. */
  readonly ru: RuEstimate;
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
}

export type Plan = ReadPlan | WritePlan;
