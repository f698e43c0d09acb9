/**
 * What the sections of the data model document share: the context computed once, number
 * formats (thousands separators, RU with their range, USD) and plan step helpers.
 */
import { formatFigure, formatUsd } from "../common/format-number.js";
import type { PairAnalysis } from "../analysis/aggregate-analysis.js";
import type { Prices } from "../cosmos/prices.js";
import type { LimitStatus } from "../cosmos/limits.js";
import type {
  ContainerEvaluation,
  Evaluation,
  LimitCheck,
  PatternEvaluation,
} from "../cost/evaluation-types.js";
import type { RuEstimate } from "../estimator/operation.js";
import type { Decision } from "../design/search.js";
import type { Model } from "../model/types.js";
import type { PlanEnvironment } from "../planner/environment.js";
import type { PlanStep } from "../planner/types.js";
import type { AccessPattern, Consistency, Workload } from "../workload/types.js";
import {
  escapeMarkdownText as e,
  escapeTableCell as cell,
  formatNumber,
  formatPercent,
  inlineCode,
  table,
} from "./markdown.js";

/** The naive model's figures (`designModel(...).baseline`), for comparison. */
export interface BaselineFigures {
  readonly monthlyCostUSD: number;
  readonly rusPeak: number;
  readonly errors: number;
}

/** What every section needs, computed once. */
export interface Context {
  readonly workload: Workload;
  readonly model: Model;
  readonly evaluation: Evaluation;
  readonly decisions: readonly Decision[];
  readonly prices: Prices;
  readonly baseline?: BaselineFigures;
  readonly env: PlanEnvironment;
  readonly seed: number;
  /** The aggregate analysis of the workload: each relationship's one classification. */
  readonly pairs: readonly PairAnalysis[];
}

// ---------------------------------------------------------------------------------------------
// Number formats

/** An RU figure: 2 decimals under 10, 1 under 100, none above. */
export function ru(value: number): string {
  return formatNumber(value, value >= 100 ? 0 : value >= 10 ? 1 : 2);
}

export function ruRange(estimate: RuEstimate): string {
  return `${ru(estimate.estimate)} RU (${ru(estimate.low)}-${ru(estimate.high)})`;
}

export function rus(value: number): string {
  return `${formatNumber(value, value >= 100 ? 0 : value >= 1 ? 1 : 2)} RU/s`;
}

export function usd(value: number): string {
  return formatUsd(value, true);
}

export function gb(value: number): string {
  // Under 0.0001 GB (about 100 KB) a partition is small enough: `<0.0001 GB`.
  return `${formatFigure(value, { decimals: value >= 10 ? 1 : 2, floor: 0.0001 })} GB`;
}

export function code(text: string): string {
  return inlineCode(text);
}

export function list(values: readonly string[], empty = "none"): string {
  return values.length === 0 ? empty : values.join(", ");
}

export function unique<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}

export function patternOf(context: Context, id: string): AccessPattern | undefined {
  return context.workload.accessPatterns.find((p) => p.id === id);
}

export function containerEvaluation(context: Context, name: string): ContainerEvaluation | undefined {
  return context.evaluation.containers.find((c) => c.name === name);
}

/** Every step of a plan, synchronous and change-feed, flattened. */
export function allSteps(steps: readonly PlanStep[]): PlanStep[] {
  return steps.flatMap((step) =>
    step.kind === "changeFeed"
      ? [step, ...allSteps(step.steps)]
      : step.kind === "batch"
        ? [step, ...step.operations]
        : [step],
  );
}

/** Flattened steps per plan step list: every container section asks for every pattern's. */
const FLATTENED = new WeakMap<readonly PlanStep[], readonly PlanStep[]>();
function flattened(steps: readonly PlanStep[]): readonly PlanStep[] {
  let flat = FLATTENED.get(steps);
  if (flat === undefined) {
    flat = allSteps(steps);
    FLATTENED.set(steps, flat);
  }
  return flat;
}

export function syncSteps(pattern: PatternEvaluation): readonly PlanStep[] {
  return flattened(pattern.plan.operations);
}

export function asyncSteps(pattern: PatternEvaluation): readonly PlanStep[] {
  return pattern.plan.type === "write" ? flattened(pattern.plan.async) : [];
}

/** Why each consistency level is chosen, in one clause. */
export const CONSISTENCY_WHY: Readonly<Record<Consistency, string>> = {
  strong: "every read sees the latest committed write (reads cost twice the RU of session reads)",
  bounded: "reads lag writes by at most the configured staleness (reads cost twice the RU of session reads)",
  session: "a client reads its own writes; the cheapest level that gives read-your-writes",
  "consistent-prefix": "reads never see writes out of order",
  eventual: "the cheapest reads; no ordering guarantee",
};

/** One decision: the choice, the reason, and every alternative with its numbers. */
export function renderDecision(decision: Decision): string {
  const out = [
    `### ${e(decision.title)}`,
    "",
    `- **Chosen**: ${e(decision.chosen)}`,
    `- **Why**: ${e(decision.why)}`,
  ];
  if (decision.alternatives.length > 0) {
    out.push(
      "",
      table(
        ["Alternative", "Peak RU/s", "Monthly cost", "Hard-limit errors"],
        decision.alternatives.map((alt) => [
          `${alt.name === decision.chosen ? "**chosen**: " : ""}${cell(alt.name)}`,
          formatNumber(alt.rusPeak, 0),
          usd(alt.monthlyCostUSD),
          formatNumber(alt.errors, 0),
        ]),
      ),
    );
  }
  return out.join("\n");
}

/**
 * The mark of a limit status: `✅` ok, `⚠️ near the limit`, `❌ over the limit` (the words are
 * what a reader and the consistency test look for).
 */
export function statusMark(status: LimitStatus): string {
  switch (status) {
    case "ok":
      return "✅";
    case "near":
      return "⚠️ near the limit";
    case "over":
      return "❌ over the limit";
    default:
      return status satisfies never;
  }
}

/** The worst of some statuses (`over` before `near` before `ok`); `ok` for none. */
export function worstStatus(statuses: readonly LimitStatus[]): LimitStatus {
  return statuses.includes("over") ? "over" : statuses.includes("near") ? "near" : "ok";
}

/**
 * A figure against its limit with the evaluation's status:
 * `9,988 RU/s (99.9% of 10,000 RU/s) ⚠️ near the limit`.
 */
export function limitText(check: LimitCheck, unit: (value: number) => string): string {
  return `${unit(check.value)} (${formatPercent(check.share)} of ${unit(check.limit)}) ${statusMark(check.status)}`;
}

/** Which request-charge coefficients the figures come from, in words. */
export function requestChargeSource(evaluation: Evaluation): string {
  return evaluation.requestCharges === undefined
    ? "the built-in coefficients, fitted on public measurements"
    : `coefficients fitted on ${evaluation.requestCharges.source}`;
}
