/**
 * Which access pattern the throughput bill pays for: each container's monthly throughput cost
 * divided among the patterns that put request units on it, in proportion to the RU/s the bill
 * follows (the peak for manual and shared throughput, which is provisioned for it; the average
 * for autoscale and serverless, which bill what is used, see `billingRules`). Storage is not
 * attributed to patterns and is reported beside them. The attributed amounts add up to the
 * containers' throughput cost exactly, except on containers no pattern uses.
 */
import type { ThroughputMode } from "../model/types.js";
import type { Workload } from "../workload/types.js";
import { patternLoadOn } from "./evaluate.js";
import type { Evaluation, RatePair } from "./evaluation-types.js";

export interface PatternContainerCost {
  readonly container: string;
  /** RU/s this pattern puts on the container (its requests and the change-feed work they trigger). */
  readonly rus: RatePair;
  readonly throughputUSD: number;
}

export interface PatternCost {
  readonly id: string;
  readonly containers: readonly PatternContainerCost[];
  readonly monthlyUSD: number;
  /** `monthlyUSD` / the model's whole monthly bill (storage included); 0 when the bill is 0. */
  readonly shareOfBill: number;
}

export interface CostAttribution {
  readonly patterns: readonly PatternCost[];
  readonly storageUSD: number;
  readonly storageShare: number;
  /** Throughput cost of containers that no pattern uses (their minimum). */
  readonly unattributedUSD: number;
  readonly totalUSD: number;
}

/** The rate a mode's bill follows. */
function billedRate(mode: ThroughputMode, rus: RatePair): number {
  switch (mode) {
    case "manual":
    case "shared":
      return rus.peak;
    case "autoscale":
    case "serverless":
      return rus.avg;
    default:
      return mode satisfies never;
  }
}

/**
 * Divides the evaluated bill among the access patterns.
 * @example attributeCost(workload, evaluation).patterns.map((p) => [p.id, p.shareOfBill])
 */
export function attributeCost(workload: Workload, evaluation: Evaluation): CostAttribution {
  const rates = new Map(workload.accessPatterns.map((p) => [p.id, p.rps]));
  const loads = evaluation.patterns.map((pattern) => {
    const rate = rates.get(pattern.id) ?? { avg: 0, peak: 0 };
    return evaluation.containers.map((container) => {
      const ru = patternLoadOn(pattern.plan, container.name);
      return { avg: ru * rate.avg, peak: ru * rate.peak };
    });
  });
  const totalUSD = evaluation.totals.monthlyCostUSD;
  let unattributedUSD = 0;
  const basis = evaluation.containers.map((container, ci) => {
    const sum = loads.reduce(
      (acc, row) => acc + billedRate(container.throughput.mode, row[ci] ?? { avg: 0, peak: 0 }),
      0,
    );
    if (sum <= 0) unattributedUSD += container.costBreakdown.throughputUSD;
    return sum;
  });
  const patterns = evaluation.patterns.map((pattern, pi): PatternCost => {
    const containers: PatternContainerCost[] = [];
    evaluation.containers.forEach((container, ci) => {
      const rus = loads[pi]?.[ci] ?? { avg: 0, peak: 0 };
      if (rus.avg <= 0 && rus.peak <= 0) return;
      const share = (basis[ci] ?? 0) > 0 ? billedRate(container.throughput.mode, rus) / (basis[ci] ?? 1) : 0;
      containers.push({
        container: container.name,
        rus,
        throughputUSD: share * container.costBreakdown.throughputUSD,
      });
    });
    const monthlyUSD = containers.reduce((sum, c) => sum + c.throughputUSD, 0);
    return { id: pattern.id, containers, monthlyUSD, shareOfBill: totalUSD > 0 ? monthlyUSD / totalUSD : 0 };
  });
  const storageUSD = evaluation.containers.reduce((sum, c) => sum + c.costBreakdown.storageUSD, 0);
  return {
    patterns,
    storageUSD,
    storageShare: totalUSD > 0 ? storageUSD / totalUSD : 0,
    unattributedUSD,
    totalUSD,
  };
}
