/**
 * Everything the HTML report shows, in one typed value built from the evaluation, the cost
 * projection, the cost attribution, the design decisions and (when given) a verify run and a
 * second model. The renderer only formats these figures; it computes none of its own.
 */
import {
  LOGICAL_PARTITION_GROWTH_WARNING_HOURS,
  MAX_LOGICAL_PARTITION_GB,
  MAX_PHYSICAL_PARTITION_GB,
  MAX_PHYSICAL_PARTITION_RUS,
  NEAR_LOGICAL_PARTITION_GB_SHARE,
  NEAR_PARTITION_RUS_SHARE,
} from "../../cosmos/limits.js";
import { DEFAULT_PRICES, type Prices } from "../../cosmos/prices.js";
import { attributeCost } from "../../cost/cost-attribution.js";
import { basisLabel } from "../../cost/autoscale-billing.js";
import type {
  ContainerEvaluation,
  Evaluation,
  LimitCheck,
  RatePair,
  UsdRange,
} from "../../cost/evaluation-types.js";
import type { RuEstimate } from "../../estimator/operation.js";
import { requestChargeSource } from "../data-model-context.js";
import { projectCost, type CostProjection } from "../../cost/projection.js";
import type { EvaluateOptions } from "../../cost/evaluate.js";
import type { Decision } from "../../design/search.js";
import type { IntegratedCacheEvaluation } from "../../cost/integrated-cache-evaluation.js";
import type { EvaluationIssue, Issue } from "../../common/issues.js";
import { readablePath } from "../readable-path.js";
import type { Model } from "../../model/types.js";
import type { Plan, PlanStep } from "../../planner/types.js";
import type { Rate, Workload } from "../../workload/types.js";
import { diagramGraph, type DiagramGraph } from "../diagram.js";
import type { BaselineFigures } from "../data-model-context.js";
import type { VerificationSummary } from "../verification-summary.js";

export type { VerificationSummary } from "../verification-summary.js";

/** The report file's name in an output folder. */
export const REPORT_FILE_NAME = "report.html";

/** How a pattern's requests reach the data. */
export type PatternScope = "point" | "singlePartition" | "keyPrefix" | "fanOut" | "write";

export interface PatternRow {
  readonly id: string;
  readonly name: string;
  readonly type: "read" | "write";
  readonly entity: string;
  readonly rps: Rate;
  readonly planKind: Plan["kind"];
  readonly served: boolean;
  readonly steps: readonly PlanStep[];
  readonly asyncSteps: readonly PlanStep[];
  readonly notes: readonly string[];
  readonly ru: RuEstimate & { readonly async: number };
  readonly rus: RatePair;
  readonly scope: PatternScope;
  /** Physical partitions the widest query of the plan visits (1 for single-partition requests). */
  readonly partitionsVisited: number;
  readonly monthlyUSD: number;
  readonly shareOfBill: number;
}

/**
 * A figure against a Cosmos DB limit: the evaluation's limit checks (with their status), or a
 * figure shown against a limit the service keeps by itself (no status: physical partitions split
 * before 50 GB).
 */
export interface LimitGauge {
  readonly value: number;
  readonly limit: number;
  /** value / limit. */
  readonly share: number;
  readonly status?: LimitCheck["status"];
}

export interface ContainerRow {
  readonly evaluation: ContainerEvaluation;
  readonly hottestLogicalRus: LimitCheck;
  readonly hottestLogicalGB: ContainerEvaluation["limits"]["largestLogicalPartitionGB"];
  readonly hottestPhysicalRus: LimitCheck;
  readonly physicalPartitionGB: LimitGauge;
  readonly issues: readonly Issue[];
}

/** One model's headline figures (the report's and the compared one's). */
export interface ModelFigures {
  readonly label: string;
  readonly monthlyCostUSD: number;
  /** `monthlyCostUSD` from autoscale average-billed to peak-billed (equal without autoscale range). */
  readonly monthlyCostRange: UsdRange;
  /** The assumption autoscale figures are compared on (`basisLabel`), when any. */
  readonly autoscaleBasis?: string;
  readonly rus: RatePair;
  readonly storageGB: number;
  readonly physicalPartitions: number;
  readonly containers: number;
  readonly errors: number;
  readonly warnings: number;
  readonly horizonCostUSD: number;
}

export interface ComparedPattern {
  readonly id: string;
  readonly name: string;
  readonly a?: {
    readonly planKind: string;
    readonly ru: number;
    readonly rusPeak: number;
    readonly monthlyUSD: number;
  };
  readonly b?: {
    readonly planKind: string;
    readonly ru: number;
    readonly rusPeak: number;
    readonly monthlyUSD: number;
  };
}

export interface Comparison {
  readonly a: ModelFigures;
  readonly b: ModelFigures;
  readonly patterns: readonly ComparedPattern[];
  readonly months: readonly { readonly month: number; readonly a: number; readonly b: number }[];
}

export interface ReportData {
  readonly title: string;
  readonly description?: string;
  readonly figures: ModelFigures;
  readonly diagram: DiagramGraph;
  readonly patterns: readonly PatternRow[];
  readonly containers: readonly ContainerRow[];
  /** The dedicated gateway and the reads it serves from its integrated cache, when the model has one. */
  readonly integratedCache?: IntegratedCacheEvaluation;
  readonly storageUSD: number;
  readonly storageShare: number;
  /** Which request-charge coefficients the RU figures come from, in words. */
  readonly requestCharges: string;
  readonly unattributedUSD: number;
  readonly projection: CostProjection;
  readonly decisions: readonly Decision[];
  readonly baseline?: BaselineFigures;
  readonly verification?: VerificationSummary;
  readonly comparison?: Comparison;
  readonly issues: readonly Issue[];
  /** Where each of `issues` is, as a reader names it (a pattern's id, not its index). */
  readonly issueWhere: readonly string[];
  readonly prices: Prices;
  readonly limits: {
    readonly physicalPartitionRus: number;
    readonly logicalPartitionGB: number;
    readonly physicalPartitionGB: number;
    /** Where "near the limit" starts (cosmos/limits.ts), for the legend. */
    readonly nearPartitionRusShare: number;
    readonly nearLogicalPartitionGBShare: number;
    readonly growthWarningHours: number;
  };
}

/** A model to compare with, already evaluated. */
export interface ComparedModel {
  readonly label: string;
  readonly model: Model;
  readonly evaluation: Evaluation;
  readonly projection?: CostProjection;
}

export interface ReportInput {
  readonly workload: Workload;
  readonly model: Model;
  readonly evaluation: Evaluation;
  /** Label of the model (its file name, or "designed model"). */
  readonly label?: string;
  readonly prices?: Prices;
  readonly decisions?: readonly Decision[];
  readonly baseline?: BaselineFigures;
  /**
   * What the evaluation was made with besides the prices (request-charge coefficients, how
   * follow-ups are fetched): the projection and the compared model's projection use the same, so
   * the projection's last month is the evaluation shown.
   */
  readonly evaluateOptions?: EvaluateOptions;
  /** Computed with the same prices and evaluation options when absent. */
  readonly projection?: CostProjection;
  readonly verification?: VerificationSummary;
  readonly compare?: ComparedModel;
}

function scopeOf(plan: Plan): { scope: PatternScope; partitions: number } {
  const widest = Math.max(
    1,
    ...plan.operations.map((s) => (s.kind === "query" && s.scope !== "single" ? s.partitions : 1)),
  );
  switch (plan.kind) {
    case "pointRead":
      return { scope: "point", partitions: widest };
    case "singlePartitionQuery":
      return { scope: "singlePartition", partitions: widest };
    case "prefixQuery":
      return { scope: "keyPrefix", partitions: widest };
    case "fanOut":
      return { scope: "fanOut", partitions: widest };
    case "write":
    case "batch":
      return { scope: "write", partitions: 1 };
    default:
      return plan satisfies never;
  }
}

function figuresOf(label: string, evaluation: Evaluation, projection: CostProjection): ModelFigures {
  return {
    label,
    monthlyCostUSD: evaluation.totals.monthlyCostUSD,
    monthlyCostRange: evaluation.totals.monthlyCostRange,
    ...(evaluation.account.comparedOn === undefined
      ? {}
      : { autoscaleBasis: basisLabel(evaluation.account.comparedOn) }),
    rus: evaluation.totals.rus,
    storageGB: evaluation.containers.reduce((sum, c) => sum + c.storageGB, 0),
    physicalPartitions: evaluation.containers.reduce((sum, c) => sum + c.physicalPartitions, 0),
    containers: evaluation.containers.length,
    errors: evaluation.issues.filter((i) => i.severity === "error").length,
    warnings: evaluation.issues.filter((i) => i.severity === "warning").length,
    horizonCostUSD: projection.totalUSD.asModeled,
  };
}

/**
 * The report's data for a model and its evaluation.
 * @example buildReportData({ workload, model, evaluation: evaluateModel(workload, model) })
 */
export function buildReportData(input: ReportInput): ReportData {
  const { workload, model, evaluation } = input;
  const prices = input.prices ?? DEFAULT_PRICES;
  const evaluateOptions: EvaluateOptions = { ...input.evaluateOptions, prices };
  const projection = input.projection ?? projectCost(workload, model, evaluateOptions, evaluation);
  const attribution = attributeCost(workload, evaluation);
  const costs = new Map(attribution.patterns.map((p) => [p.id, p]));
  const patterns = evaluation.patterns.map((evaluated): PatternRow => {
    const pattern = workload.accessPatterns.find((p) => p.id === evaluated.id);
    const { scope, partitions } = scopeOf(evaluated.plan);
    const cost = costs.get(evaluated.id);
    return {
      id: evaluated.id,
      name: pattern?.name ?? evaluated.id,
      type: evaluated.plan.type,
      entity: pattern?.entity ?? "",
      rps: pattern?.rps ?? { avg: 0, peak: 0 },
      planKind: evaluated.plan.kind,
      served: evaluated.plan.served,
      steps: evaluated.plan.operations,
      asyncSteps: evaluated.plan.type === "write" ? evaluated.plan.async : [],
      notes: evaluated.plan.notes,
      ru: evaluated.ru,
      rus: evaluated.rus,
      scope,
      partitionsVisited: partitions,
      monthlyUSD: cost?.monthlyUSD ?? 0,
      shareOfBill: cost?.shareOfBill ?? 0,
    };
  });
  const containers = evaluation.containers.map((c): ContainerRow => ({
    evaluation: c,
    hottestLogicalRus: c.limits.hottestLogicalPartitionRus,
    hottestLogicalGB: c.limits.largestLogicalPartitionGB,
    hottestPhysicalRus: c.limits.busiestPhysicalPartitionRus,
    physicalPartitionGB: {
      value: c.hottestPhysicalPartition.storageGB,
      limit: MAX_PHYSICAL_PARTITION_GB,
      share: c.hottestPhysicalPartition.storageGB / MAX_PHYSICAL_PARTITION_GB,
    },
    issues: evaluation.issues.filter((i) => containerOf(i) === c.name),
  }));
  const label = input.label ?? "model";
  const figures = figuresOf(label, evaluation, projection);
  return {
    title: workload.name,
    ...(workload.description === undefined ? {} : { description: workload.description }),
    figures,
    diagram: diagramGraph(model),
    patterns,
    containers,
    ...(evaluation.integratedCache === undefined ? {} : { integratedCache: evaluation.integratedCache }),
    storageUSD: attribution.storageUSD,
    storageShare: attribution.storageShare,
    requestCharges: requestChargeSource(evaluation),
    unattributedUSD: attribution.unattributedUSD,
    projection,
    decisions: input.decisions ?? [],
    ...(input.baseline === undefined ? {} : { baseline: input.baseline }),
    ...(input.verification === undefined ? {} : { verification: input.verification }),
    ...(input.compare === undefined
      ? {}
      : {
          comparison: compareWith(workload, figures, evaluation, projection, input.compare, evaluateOptions),
        }),
    issues: evaluation.issues,
    issueWhere: evaluation.issues.map((issue) => readablePath(issue.path, workload)),
    prices,
    limits: {
      physicalPartitionRus: MAX_PHYSICAL_PARTITION_RUS,
      logicalPartitionGB: MAX_LOGICAL_PARTITION_GB,
      physicalPartitionGB: MAX_PHYSICAL_PARTITION_GB,
      nearPartitionRusShare: NEAR_PARTITION_RUS_SHARE,
      nearLogicalPartitionGBShare: NEAR_LOGICAL_PARTITION_GB_SHARE,
      growthWarningHours: LOGICAL_PARTITION_GROWTH_WARNING_HOURS,
    },
  };
}

function compareWith(
  workload: Workload,
  a: ModelFigures,
  evaluation: Evaluation,
  projection: CostProjection,
  other: ComparedModel,
  options: EvaluateOptions,
): Comparison {
  const otherProjection = other.projection ?? projectCost(workload, other.model, options, other.evaluation);
  const b = figuresOf(other.label, other.evaluation, otherProjection);
  const costA = new Map(attributeCost(workload, evaluation).patterns.map((p) => [p.id, p.monthlyUSD]));
  const costB = new Map(attributeCost(workload, other.evaluation).patterns.map((p) => [p.id, p.monthlyUSD]));
  const side = (e: Evaluation, cost: Map<string, number>, id: string) => {
    const found = e.patterns.find((p) => p.id === id);
    return found === undefined
      ? undefined
      : {
          planKind: found.plan.kind,
          ru: found.ru.estimate + found.ru.async,
          rusPeak: found.rus.peak,
          monthlyUSD: cost.get(id) ?? 0,
        };
  };
  return {
    a,
    b,
    patterns: workload.accessPatterns.map((pattern) => {
      const left = side(evaluation, costA, pattern.id);
      const right = side(other.evaluation, costB, pattern.id);
      return {
        id: pattern.id,
        name: pattern.name,
        ...(left === undefined ? {} : { a: left }),
        ...(right === undefined ? {} : { b: right }),
      };
    }),
    months: projection.months.map((m, i) => ({
      month: m.month,
      a: m.asModeled.monthlyCostUSD,
      b: otherProjection.months[i]?.asModeled.monthlyCostUSD ?? 0,
    })),
  };
}

/** The container a finding is about, for the findings listed per container. */
function containerOf(issue: EvaluationIssue): string | undefined {
  switch (issue.code) {
    case "evaluate.hotPartition":
    case "evaluate.hotPhysicalPartition":
    case "evaluate.pinnedPartitionsOverloaded":
    case "evaluate.logicalPartitionTooLarge":
    case "evaluate.logicalPartitionGrowth":
    case "evaluate.noHeadroom":
    case "evaluate.itemTooLarge":
    case "evaluate.idNotUnique":
    case "evaluate.keyTooLong":
    case "evaluate.ttlOff":
    case "evaluate.underProvisioned":
    case "evaluate.serverlessNotPossible":
      return issue.container;
    case "evaluate.overContainerMaximum":
      return issue.containers.length === 1 ? issue.containers[0] : undefined;
    case "evaluate.integratedCacheTooSmall": // the gateway's findings
    case "evaluate.integratedCacheFewNodes":
    case "evaluate.mixedCapacityModes": // the account's finding
    case "evaluate.leaseContainerMissing": // the model's finding
    case "evaluate.fanOutCannotScale": // a pattern's finding: listed with the patterns
    case "evaluate.patternNotServed":
    case "evaluate.fanOut":
    case "evaluate.boundedSetTooSmall":
    case "evaluate.copyNotMaintainable": // a write's finding: listed with the patterns
    case "evaluate.copySourceUnreadable":
    case "evaluate.embedNotAddressable":
    case "evaluate.embedReparented":
    case "evaluate.boundedSetNotRefilled":
    case "evaluate.counterNotAddressable":
    case "evaluate.notAtomic":
      return undefined;
    case "evaluate.keyChangedInPlace":
      return issue.container;
    default:
      return issue satisfies never;
  }
}
