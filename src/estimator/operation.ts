/**
 * One Cosmos DB request as the RU estimator sees it: the JSON contract of `estimate-ru`
 * (docs/json-output.md). Planner, evaluation, design and verify all describe requests in this shape.
 */
import type { Consistency } from "../cosmos/consistency.js";

/** One request on one item or one query. */
export type SingleOperationKind = "read" | "create" | "replace" | "upsert" | "delete" | "patch" | "query";

/**
 * Several operations in one request of one logical partition: a transactional batch (point
 * operations, no script) or a stored procedure (its JavaScript runs the operations).
 */
export type TransactionKind = "batch" | "storedProcedure";

export type OperationKind = SingleOperationKind | TransactionKind;

export interface Operation {
  readonly op: OperationKind;
  /** The item's JSON size without system properties (point operations and writes). */
  readonly itemBytes?: number;
  /** Values the indexing policy indexes in the written item (writes). */
  readonly indexedValues?: number;
  /** Indexed values that the write changes (replace, upsert of an existing item, patch). */
  readonly changedValues?: number;
  readonly consistency?: Consistency;
  /** Items a query returns. */
  readonly returned?: number;
  /** Total bytes of the items a query returns. */
  readonly returnedBytes?: number;
  /** Items a query loads and checks but does not return (filters not served by the index). */
  readonly scannedNotReturned?: number;
  /** Total bytes of those scanned items. */
  readonly scannedBytes?: number;
  /**
   * Items an aggregate (COUNT, SUM, MIN, MAX, AVG) reads through the index without returning
   * them (the query returns `returned` values, usually 1).
   */
  readonly aggregated?: number;
  /** Total bytes of those aggregated items. */
  readonly aggregatedBytes?: number;
  /**
   * The query's only filter is the partition key (equality), or it has none: its items are read
   * in the partition's order without an index lookup, so they pay for their bytes but not the
   * per-item lookup charge (queries whose filter needs the index, the default, pay both).
   */
  readonly partitionKeyOnly?: boolean;
  /** Physical partitions a query visits (1 = single-partition). */
  readonly partitions?: number;
  /**
   * The operations of a batch or stored procedure, in order (single operations only; a batch
   * holds point operations, at most 100).
   */
  readonly operations?: readonly Operation[];
}

/** An RU charge: the best estimate and the range the real charge is expected to fall in. */
export interface RuEstimate {
  readonly estimate: number;
  readonly low: number;
  readonly high: number;
}
