/**
 * What planning needs besides the workload and the model: the RU estimator, the physical
 * partition count of each container (solved by the evaluation as a fixed point), and cached
 * item shapes and indexing policies.
 */
import { estimateRequestCharge } from "../estimator/estimate-request-charge.js";
import type { RuCoefficients } from "../estimator/coefficients.js";
import type { Operation, RuEstimate } from "../estimator/operation.js";
import type { Container, ItemType } from "../model/types.js";
import type { Rate } from "../workload/types.js";
import { createPlanningContext, type Placement, type PlanningContext } from "./context.js";
import { effectiveIndexingPolicy, type ExplicitIndexingPolicy } from "./indexing.js";
import { describeItemShape, type ItemShape } from "./item-shape.js";
import { partitionKeyAttributes } from "./routing.js";
import type { Model } from "../model/types.js";
import type { Workload } from "../workload/types.js";

export interface PlanOptions {
  /**
   * How related data missing from an item is fetched: the cheaper of one request per returned
   * item and one query for all of them (`cheapest`, the default), or always one per item
   * (`perItem`, how the blogging case study measured its V1).
   */
  readonly followUps?: "cheapest" | "perItem";
  /** Physical partitions per container (the evaluation's fixed point); default 1. */
  readonly partitions?: Readonly<Record<string, number>>;
  /** The RU estimator; default `estimateRequestCharge` with `coefficients`. */
  readonly estimate?: (operation: Operation) => RuEstimate;
  /**
   * The request-charge model's coefficients (a file `calibrate` wrote from measured charges);
   * default the calibrated DEFAULT_RU_COEFFICIENTS.
   */
  readonly coefficients?: RuCoefficients;
}

export interface PlanEnvironment {
  readonly context: PlanningContext;
  readonly followUps: "cheapest" | "perItem";
  partitions(container: string): number;
  estimate(operation: Operation): RuEstimate;
  /** A step's charge and the operation it was estimated from (kept on the step, see StepBase). */
  charge(operation: Operation): { readonly ru: RuEstimate; readonly estimatedFrom: Operation };
  shape(placement: Placement): ItemShape;
  policy(container: Container): ExplicitIndexingPolicy;
  /** Items of this item type at the horizon (records / bucket size, x replicas, keepLatest bound). */
  itemCount(placement: Placement): number;
  /** Distinct logical partition key values of this item type. */
  logicalKeys(placement: Placement): number;
  /** Records in one bucket item (1 when not bucketed). */
  recordsPerBucket(item: ItemType): number;
}

/** Builds the planning environment for one workload and model. */
export function createPlanEnvironment(
  workload: Workload,
  model: Model,
  options: PlanOptions = {},
): PlanEnvironment {
  const context = createPlanningContext(workload, model);
  const shapes = new Map<string, ItemShape>();
  const policies = new Map<string, ExplicitIndexingPolicy>();
  const recordsPerBucket = (item: ItemType): number => {
    const bucket = item.bucket;
    if (bucket === undefined) return 1;
    if (bucket.kind === "records") return bucket.records;
    // Records that arrive for one partition key value during one window.
    const writes = workload.accessPatterns
      .filter((p) => p.type === "write" && p.entity === item.entity && p.operation !== "delete")
      .reduce((sum, p) => sum + p.rps.avg * (p.type === "write" ? p.batch : 1), 0);
    const keys = Math.max(
      1,
      partitionKeyAttributes(item).reduce(
        (product, a) => product * context.distinctValues(item.entity, a),
        1,
      ),
    );
    return Math.max(1, (writes * bucket.windowSeconds) / keys);
  };
  const logicalKeys = (placement: Placement): number => {
    const { item } = placement;
    const attributes = partitionKeyAttributes(item);
    const records = context.countAtHorizon(item.entity);
    const distinct = attributes.reduce((product, a) => product * context.distinctValues(item.entity, a), 1);
    return Math.max(1, Math.min(records, distinct)) * (item.shards ?? 1) * (item.replicas ?? 1);
  };
  const estimate =
    options.estimate ?? ((operation: Operation) => estimateRequestCharge(operation, options.coefficients));
  return {
    context,
    followUps: options.followUps ?? "cheapest",
    partitions: (container) => Math.max(1, options.partitions?.[container] ?? 1),
    estimate,
    charge: (operation) => ({ ru: estimate(operation), estimatedFrom: operation }),
    shape(placement) {
      const key = `${placement.container.name}/${placement.item.type}`;
      let shape = shapes.get(key);
      if (shape === undefined) {
        // Always the item as stored with what it inherits from its source (the context's view).
        const item = context.placement(placement.container.name, placement.item.type)?.item ?? placement.item;
        shape = describeItemShape(context, placement.container, item, recordsPerBucket(item));
        shapes.set(key, shape);
      }
      return shape;
    },
    policy(container) {
      let policy = policies.get(container.name);
      if (policy === undefined) {
        policy = effectiveIndexingPolicy(context, container);
        policies.set(container.name, policy);
      }
      return policy;
    },
    itemCount(placement) {
      const { item } = placement;
      const replicas = item.replicas ?? 1;
      if (item.keepLatest !== undefined) {
        const keys = logicalKeys(placement) / replicas;
        return Math.min(context.countAtHorizon(item.entity), item.keepLatest.count * keys) * replicas;
      }
      return (context.countAtHorizon(item.entity) / recordsPerBucket(item)) * replicas;
    },
    logicalKeys,
    recordsPerBucket,
  };
}

/** Multiplies an estimate by a count (several executions of the same request). */
export function scaleEstimate(estimate: RuEstimate, times: number): RuEstimate {
  return { estimate: estimate.estimate * times, low: estimate.low * times, high: estimate.high * times };
}

/** Adds estimates (requests executed one after the other). */
export function sumEstimates(estimates: readonly RuEstimate[]): RuEstimate {
  return estimates.reduce(
    (sum, e) => ({ estimate: sum.estimate + e.estimate, low: sum.low + e.low, high: sum.high + e.high }),
    { estimate: 0, low: 0, high: 0 },
  );
}

/** Rate of a pattern, for code that only has the pattern. */
export type { Rate };
