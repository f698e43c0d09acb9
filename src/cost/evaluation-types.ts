/**
 * The evaluation of a model against a workload: per pattern, per container and in total.
 * `evaluate --json` prints this shape (docs/json-output.md); documents and design read it.
 */
import type { EvaluationIssue } from "../common/issues.js";
import type { Throughput } from "../model/types.js";
import type { Plan } from "../planner/types.js";
import type { RuEstimate } from "../estimator/operation.js";

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
  /** RU/s this pattern consumes (synchronous + asynchronous) at average and peak rate. */
  readonly rus: RatePair;
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
  /** The throughput chosen for it, with the amount provisioned and why. */
  readonly throughput: Throughput & { readonly provisionedRus: number; readonly reason: string };
  readonly monthlyCostUSD: number;
  readonly costBreakdown: {
    readonly throughputUSD: number;
    readonly storageUSD: number;
    readonly formula: string;
  };
}

export interface Evaluation {
  readonly patterns: readonly PatternEvaluation[];
  readonly containers: readonly ContainerEvaluation[];
  readonly totals: { readonly rus: RatePair; readonly monthlyCostUSD: number };
  readonly issues: readonly EvaluationIssue[];
}
