/**
 * The evaluation of a model against a workload: per pattern, per container and in total.
 * `evaluate --json` prints this shape (docs/json-output.md); documents and design read it.
 */
import type { RuCoefficients } from "../estimator/coefficients.js";
import type { EvaluationIssue } from "../common/issues.js";
import type { LimitStatus } from "../cosmos/limits.js";
import type { Throughput } from "../model/types.js";
import type { Plan } from "../planner/types.js";
import type { RuEstimate } from "../estimator/operation.js";
import type { AccountCapacity } from "./capacity-mode.js";
import type { DescribedBasis } from "./autoscale-billing.js";
import type { CostRange } from "./throughput.js";
import type { IntegratedCacheEvaluation } from "./integrated-cache-evaluation.js";

/** A monthly cost from its lowest to its highest traffic assumption. */
export interface UsdRange {
  readonly lowUSD: number;
  readonly highUSD: number;
}

export interface RatePair {
  readonly avg: number;
  readonly peak: number;
}

export interface PatternEvaluation {
  readonly id: string;
  readonly plan: Plan;
  readonly fanOut: boolean;
  /** `estimate/low/high`: the synchronous request(s); `async`: the change-feed RU it triggers. */
  readonly ru: RuEstimate & { readonly async: number };
  /**
   * RU/s this pattern puts on the database at average and peak rate:
   * `requests + changeFeed - aggregatedChangeFeed` (`rusBreakdown`). The patterns' `rus` add up
   * to the containers' `rus` and to `totals.rus`.
   */
  readonly rus: RatePair;
  readonly rusBreakdown: {
    /** The synchronous requests (`ru.estimate` x rate). */
    readonly requests: RatePair;
    /** The change-feed work they trigger (`ru.async` x rate). */
    readonly changeFeed: RatePair;
    /** Change-feed updates that never reach the database: a batch's changes summed per parent. */
    readonly aggregatedChangeFeed: RatePair;
  };
}

/**
 * A figure against the Cosmos DB limit it must stay under, with its status: `over` the limit,
 * `near` it from `nearShare` of it, else `ok` (thresholds and their reasons: cosmos/limits.ts).
 * Documents and the report print these; none recomputes them.
 */
export interface LimitCheck {
  readonly value: number;
  readonly limit: number;
  /** `value / limit`. */
  readonly share: number;
  /** The share of the limit from which the figure is near it. */
  readonly nearShare: number;
  readonly status: LimitStatus;
}

/** The limits a container's partitions must respect, checked at peak and at the horizon. */
export interface ContainerLimits {
  /** RU/s of the hottest logical partition at peak, against what one partition serves. */
  readonly hottestLogicalPartitionRus: LimitCheck;
  /**
   * The same at the top of the RU estimates' range (`RuEstimate.high` of every request), against
   * what one partition serves, `near` from the workload's `scale.targetUtilization`.
   */
  readonly hottestLogicalPartitionRusHigh: LimitCheck;
  /** RU/s of the busiest physical partition at peak, against what one partition serves. */
  readonly busiestPhysicalPartitionRus: LimitCheck;
  /**
   * GB of the largest logical partition at the horizon, against 20 GB; `near` too when a skewed
   * key would reach 20 GB within `growth.withinHours` of writes at the peak rate.
   */
  readonly largestLogicalPartitionGB: LimitCheck & {
    readonly growth?: {
      readonly itemType: string;
      readonly gbPerHour: number;
      readonly hoursToLimit: number;
      readonly withinHours: number;
    };
  };
}

export interface ContainerEvaluation {
  readonly name: string;
  readonly physicalPartitions: number;
  /** Storage at the end of the planning horizon, GB. */
  readonly storageGB: number;
  readonly rus: RatePair;
  readonly hottestLogicalPartition: {
    readonly rus: number;
    readonly storageGB: number;
    readonly key: string;
  };
  readonly hottestPhysicalPartition: { readonly rus: number; readonly storageGB: number };
  /** The partition limits with their status (ok, near, over). */
  readonly limits: ContainerLimits;
  /** Per item type: items at the horizon and the distinct partition key values they spread over. */
  readonly itemTypes: readonly {
    readonly type: string;
    readonly items: number;
    readonly keyValues: number;
  }[];
  /** How many physical partitions it has and why (RU/s at creation, storage, hot keys). */
  readonly partitionLayout: {
    readonly partitions: number;
    /** Partitions its storage alone needs (50 GB each). */
    readonly partitionsForStorage: number;
    /** More partitions than its peak's RU/s create, so that the busiest partition fits. */
    readonly splitForBusiest: boolean;
    /** RU/s the even split of throughput over the partitions needs, when more than the peak. */
    readonly evenSplitRus?: number;
  };
  /** The throughput chosen for it, with the amount provisioned and why. */
  readonly throughput: Throughput & { readonly provisionedRus: number; readonly reason: string };
  /** Every mode priced on its own layout (the comparison behind the choice). */
  readonly throughputOptions: readonly {
    readonly mode: "manual" | "autoscale" | "serverless";
    readonly provisionedRus: number;
    readonly physicalPartitions: number;
    readonly monthlyThroughputUSD: number;
    /**
     * The traffic assumption of the figure, by `kind`: `provisionedForPeak` (manual),
     * `consumedAtAverage` (serverless), `profile` or `assumedPeakHours` (autoscale; the basis
     * every mode is compared on), with its `description`.
     */
    readonly basis: DescribedBasis;
    /** Autoscale without a traffic profile: average-billed to peak-billed. */
    readonly range?: CostRange;
    readonly allowed: boolean;
    readonly why: string;
  }[];
  readonly monthlyCostUSD: number;
  /**
   * `monthlyCostUSD` from the chosen mode's lowest to its highest traffic assumption (autoscale
   * without a profile: average-billed to peak-billed); equal to it otherwise.
   */
  readonly monthlyCostRange: UsdRange;
  readonly costBreakdown: {
    readonly throughputUSD: number;
    readonly storageUSD: number;
    readonly formula: string;
  };
}

export interface Evaluation {
  readonly patterns: readonly PatternEvaluation[];
  readonly containers: readonly ContainerEvaluation[];
  /**
   * The containers' sums: `rus`, `monthlyCostUSD` and `monthlyCostRange`; with an integrated
   * cache, its gateway's `monthlyCostUSD` is added to both costs (containers + gateway = total).
   */
  readonly totals: {
    readonly rus: RatePair;
    readonly monthlyCostUSD: number;
    readonly monthlyCostRange: UsdRange;
  };
  /** Provisioned or serverless, for every container of the account, with the reason and costs. */
  readonly account: AccountCapacity;
  /**
   * The model's dedicated gateway and the reads it serves (`integratedCache` in the model):
   * requests, misses, hit ratio, RU/s saved, working set and the monthly bill. The patterns'
   * and containers' RU/s are those of the misses.
   */
  readonly integratedCache?: IntegratedCacheEvaluation;
  readonly issues: readonly EvaluationIssue[];
  /**
   * The request-charge coefficients the RU figures come from, when they are not the built-in ones
   * (a file `calibrate` fitted to an account's measured charges, `--coefficients`): where they
   * come from, and the values (so documents rendered from this evaluation estimate alike).
   */
  readonly requestCharges?: { readonly source: string; readonly coefficients: RuCoefficients };
}
