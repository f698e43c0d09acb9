/**
 * The bill month by month over the planning horizon: the model evaluated on the data it holds at
 * the end of each month, with the same evaluation `evaluate` runs (so storage, physical partition
 * splits, fan-out cost, throughput and prices all follow the cost module's own rules; nothing is
 * re-derived here).
 *
 * Formula, for month m = 1..H (H = `scale.horizonMonths`):
 * - the data: every entity holds `itemsAtHorizon(entity, m)` items (count + growthPerMonth x m, or
 *   the TTL steady state; `workload/horizon.ts`);
 * - "as modeled": `evaluateModel(workload at horizon m, model)` with the model's own throughput
 *   settings, so month H is exactly the evaluation of the model;
 * - "following the need": the same with every container's throughput left to the cost module
 *   (the cheapest allowed mode, sized for that month), which shows when the mode or the RU/s
 *   would change; containers on shared database throughput keep it;
 * - each month is priced at the data it holds at its end (storage grows during the month, so the
 *   storage figure is an upper bound for the month);
 * - horizons over {@link MAX_PROJECTED_MONTHS} months (fewer for a large workload:
 *   {@link monthsBudget}) are evaluated at that many evenly spread months; a month in between
 *   costs what the next evaluated month costs (the total says so).
 */
import type { Prices } from "../cosmos/prices.js";
import { DEFAULT_PRICES } from "../cosmos/prices.js";
import { formatPath, type Issue } from "../common/issues.js";
import type { Model, ThroughputMode } from "../model/types.js";
import type { Workload } from "../workload/types.js";
import { itemsAtHorizon } from "../workload/horizon.js";
import { createEvaluator, type EvaluateOptions } from "./evaluate.js";
import type { Evaluation, RatePair } from "./evaluation-types.js";
import { billingRules, type BillingRule } from "./throughput.js";

/** Most months evaluated for one projection (each is a full evaluation). */
export const MAX_PROJECTED_MONTHS = 36;

/** One container in one month. */
export interface ProjectedContainer {
  readonly name: string;
  readonly storageGB: number;
  readonly physicalPartitions: number;
  readonly rus: RatePair;
  readonly mode: ThroughputMode;
  /** RU/s provisioned (manual) or the autoscale maximum; 0 for serverless. */
  readonly provisionedRus: number;
  readonly throughputUSD: number;
  readonly storageUSD: number;
  readonly monthlyCostUSD: number;
}

/** The bill of one variant (as modeled, or following the need) in one month. */
export interface ProjectedBill {
  readonly throughputUSD: number;
  readonly storageUSD: number;
  readonly monthlyCostUSD: number;
  readonly containers: readonly ProjectedContainer[];
}

export interface ProjectedMonth {
  /** 1-based month of the horizon; the figures are those at its end. */
  readonly month: number;
  readonly storageGB: number;
  readonly physicalPartitions: number;
  readonly rus: RatePair;
  readonly asModeled: ProjectedBill;
  readonly followingNeed: ProjectedBill;
}

/** Something that changes from one evaluated month to the next. */
export type ProjectionEvent =
  | {
      readonly kind: "partitionSplit";
      readonly month: number;
      readonly container: string;
      readonly from: number;
      readonly to: number;
    }
  | {
      /** In the "following the need" variant: the cheapest allowed mode changes. */
      readonly kind: "modeChange";
      readonly month: number;
      readonly container: string;
      readonly from: ThroughputMode;
      readonly to: ThroughputMode;
    }
  | {
      /** In the "following the need" variant: the RU/s (or autoscale maximum) to provision change. */
      readonly kind: "throughputChange";
      readonly month: number;
      readonly container: string;
      readonly mode: ThroughputMode;
      readonly from: number;
      readonly to: number;
    }
  | {
      /** A finding of the model as modeled that the previous evaluated month did not have. */
      readonly kind: "newFinding";
      readonly month: number;
      readonly issue: Issue;
    };

/** Items of one entity at the start and at the horizon, with the formula. */
export interface EntityGrowth {
  readonly entity: string;
  readonly itemsNow: number;
  readonly growthPerMonth: number;
  readonly itemsAtHorizon: number;
  readonly formula: string;
}

export interface CostProjection {
  readonly horizonMonths: number;
  readonly months: readonly ProjectedMonth[];
  /** Every month of the horizon was evaluated (false when sampled). */
  readonly everyMonth: boolean;
  readonly events: readonly ProjectionEvent[];
  /** Sum of the monthly bills over the horizon (sampled months stand for the months before them). */
  readonly totalUSD: { readonly asModeled: number; readonly followingNeed: number };
  readonly growth: readonly EntityGrowth[];
  readonly prices: Prices;
  readonly billing: readonly BillingRule[];
}

/**
 * Access patterns evaluated over the whole projection at most (patterns x months evaluated): a
 * large workload is projected at fewer months, never fewer than {@link MIN_PROJECTED_MONTHS}, so
 * writing its files stays within seconds (issue 29: a 624-pattern workload's 24 evaluations took
 * 4.1 s). Workloads of up to 55 patterns are evaluated every month of a horizon of 36 months.
 */
export const PROJECTION_PATTERN_BUDGET = 2_000;
/** Fewest months a projection evaluates (when the horizon has that many). */
export const MIN_PROJECTED_MONTHS = 4;

/**
 * The most months a projection of a workload of `patterns` access patterns evaluates:
 * {@link MAX_PROJECTED_MONTHS}, fewer for a large workload ({@link PROJECTION_PATTERN_BUDGET}).
 * @example monthsBudget(10) // 36
 */
export function monthsBudget(patterns: number): number {
  const affordable = Math.floor(PROJECTION_PATTERN_BUDGET / Math.max(1, patterns));
  return Math.max(MIN_PROJECTED_MONTHS, Math.min(MAX_PROJECTED_MONTHS, affordable));
}

/** The months evaluated: all of 1..H, or `most` (default {@link MAX_PROJECTED_MONTHS}) spread evenly ending at H. */
export function projectedMonths(horizonMonths: number, most = MAX_PROJECTED_MONTHS): number[] {
  const horizon = Math.max(1, Math.floor(horizonMonths));
  if (horizon <= most) return Array.from({ length: horizon }, (_, i) => i + 1);
  const months = new Set<number>();
  for (let i = 1; i <= most; i++) months.add(Math.round((i * horizon) / most));
  return [...months].sort((a, b) => a - b);
}

/** The model with every container's throughput left to the cost module (shared stays shared). */
function releasedThroughput(model: Model): Model {
  return {
    ...model,
    containers: model.containers.map((container) => {
      if (container.throughput === undefined || container.throughput.mode === "shared") return container;
      const { throughput: _released, ...rest } = container;
      return rest;
    }),
  };
}

function billOf(evaluation: Evaluation): ProjectedBill {
  const containers = evaluation.containers.map((c): ProjectedContainer => ({
    name: c.name,
    storageGB: c.storageGB,
    physicalPartitions: c.physicalPartitions,
    rus: c.rus,
    mode: c.throughput.mode,
    provisionedRus: c.throughput.provisionedRus,
    throughputUSD: c.costBreakdown.throughputUSD,
    storageUSD: c.costBreakdown.storageUSD,
    monthlyCostUSD: c.monthlyCostUSD,
  }));
  return {
    throughputUSD: containers.reduce((sum, c) => sum + c.throughputUSD, 0),
    storageUSD: containers.reduce((sum, c) => sum + c.storageUSD, 0),
    monthlyCostUSD: evaluation.totals.monthlyCostUSD,
    containers,
  };
}

const findingKey = (issue: Issue): string => `${issue.code}|${formatPath(issue.path)}`;

/**
 * Projects the monthly bill of `model` over the workload's planning horizon.
 * @param atHorizon the model's evaluation on `workload` with the same `options`, when the caller
 *   has it: month H "as modeled" is that evaluation (see the header), so it is not made again
 * @example projectCost(workload, model).months.map((m) => m.asModeled.monthlyCostUSD)
 */
export function projectCost(
  workload: Workload,
  model: Model,
  options: EvaluateOptions = {},
  atHorizon?: Evaluation,
): CostProjection {
  const prices = options.prices ?? DEFAULT_PRICES;
  const horizon = workload.scale.horizonMonths;
  const pinsThroughput = model.containers.some(
    (c) => c.throughput !== undefined && c.throughput.mode !== "shared",
  );
  const released = pinsThroughput ? releasedThroughput(model) : model;
  const months: ProjectedMonth[] = [];
  const events: ProjectionEvent[] = [];
  let previous: { asModeled: Evaluation; followingNeed: Evaluation; data: string } | undefined;
  for (const month of projectedMonths(horizon, monthsBudget(workload.accessPatterns.length))) {
    const atMonth: Workload = { ...workload, scale: { ...workload.scale, horizonMonths: month } };
    // An evaluation depends on the month only through the items each entity holds
    // (planner/context.ts): a month holding the same data as the month before costs the same.
    const data = JSON.stringify(workload.entities.map((entity) => itemsAtHorizon(entity, month).items));
    let asModeled: Evaluation;
    let followingNeed: Evaluation;
    if (previous !== undefined && previous.data === data) {
      ({ asModeled, followingNeed } = previous);
    } else {
      // One evaluator per month: the released variant reuses the plans and loads of the model's.
      const evaluate = createEvaluator(atMonth, options);
      asModeled = month === horizon && atHorizon !== undefined ? atHorizon : evaluate(model);
      followingNeed = pinsThroughput ? evaluate(released) : asModeled;
    }
    months.push({
      month,
      storageGB: asModeled.containers.reduce((sum, c) => sum + c.storageGB, 0),
      physicalPartitions: asModeled.containers.reduce((sum, c) => sum + c.physicalPartitions, 0),
      rus: asModeled.totals.rus,
      asModeled: billOf(asModeled),
      followingNeed: billOf(followingNeed),
    });
    if (previous !== undefined) events.push(...changesBetween(previous, { asModeled, followingNeed }, month));
    previous = { asModeled, followingNeed, data };
  }
  const everyMonth = months.length === Math.max(1, Math.floor(horizon));
  let last = 0;
  const totalUSD = { asModeled: 0, followingNeed: 0 };
  for (const m of months) {
    const span = m.month - last;
    totalUSD.asModeled += m.asModeled.monthlyCostUSD * span;
    totalUSD.followingNeed += m.followingNeed.monthlyCostUSD * span;
    last = m.month;
  }
  return {
    horizonMonths: horizon,
    months,
    everyMonth,
    events,
    totalUSD,
    growth: workload.entities.map((entity) => {
      const atHorizon = itemsAtHorizon(entity, horizon);
      return {
        entity: entity.name,
        itemsNow: entity.count,
        growthPerMonth: entity.growthPerMonth,
        itemsAtHorizon: atHorizon.items,
        formula: atHorizon.formula,
      };
    }),
    prices,
    billing: billingRules(prices, workload.scale.trafficProfile),
  };
}

function changesBetween(
  before: { asModeled: Evaluation; followingNeed: Evaluation },
  after: { asModeled: Evaluation; followingNeed: Evaluation },
  month: number,
): ProjectionEvent[] {
  const events: ProjectionEvent[] = [];
  for (const container of after.asModeled.containers) {
    const was = before.asModeled.containers.find((c) => c.name === container.name);
    if (was !== undefined && container.physicalPartitions > was.physicalPartitions) {
      events.push({
        kind: "partitionSplit",
        month,
        container: container.name,
        from: was.physicalPartitions,
        to: container.physicalPartitions,
      });
    }
  }
  for (const container of after.followingNeed.containers) {
    const was = before.followingNeed.containers.find((c) => c.name === container.name);
    if (was === undefined) continue;
    if (was.throughput.mode !== container.throughput.mode) {
      events.push({
        kind: "modeChange",
        month,
        container: container.name,
        from: was.throughput.mode,
        to: container.throughput.mode,
      });
    } else if (was.throughput.provisionedRus !== container.throughput.provisionedRus) {
      events.push({
        kind: "throughputChange",
        month,
        container: container.name,
        mode: container.throughput.mode,
        from: was.throughput.provisionedRus,
        to: container.throughput.provisionedRus,
      });
    }
  }
  const known = new Set(before.asModeled.issues.map(findingKey));
  for (const issue of after.asModeled.issues) {
    if (!known.has(findingKey(issue))) events.push({ kind: "newFinding", month, issue });
  }
  return events;
}
