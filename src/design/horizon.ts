/**
 * How long the chosen model stays right (issue 26): the model is evaluated at 1x, 3x and 10x the
 * horizon's data and traffic, with its throughput left to the evaluation (more RU/s is a setting,
 * a partition limit is not); the first factor at which a hard limit breaks is named with the
 * limit, and the design the search makes for that scale is summarized beside it.
 *
 * The scaled workload at factor f: `scale.horizonMonths x f` (the data the entities hold after f
 * times the horizon, `workload/horizon.ts`: linear growth, or the TTL's steady state) and every
 * pattern's average and peak rate x f (the traffic grows with the data: an assumption, said in the
 * decision).
 */
import { formatInteger } from "../common/format-number.js";
import { evaluateModel, type EvaluateOptions } from "../cost/evaluate.js";
import type { Model } from "../model/types.js";
import { MAX_HORIZON_MONTHS } from "../workload/raw-schema.js";
import type { Workload } from "../workload/types.js";
import type { Alternative, Decision } from "./search.js";

/** The factors of the horizon's data and traffic the chosen model is evaluated at. */
export const HORIZON_FACTORS = [1, 3, 10] as const;

/**
 * Bounds of the check's time (design time stays bounded whatever the workload): the model is
 * evaluated at the factors for workloads of at most this many entities and patterns, and the
 * breaking scale is designed again for at most `HORIZON_DESIGN_ELEMENTS` (a second search).
 */
export const HORIZON_EVALUATED_ELEMENTS = 400;
export const HORIZON_DESIGN_ELEMENTS = 60;

/**
 * Errors no scale brings: the written model turns TTL on and names its lease container, whatever
 * the data (see FIXED_WHEN_WRITTEN in search.ts).
 */
const NOT_SCALE_ERRORS: ReadonlySet<string> = new Set(["evaluate.ttlOff", "evaluate.leaseContainerMissing"]);

/** `workload` with `factor` times the horizon's months and `factor` times every rate. */
export function scaledWorkload(workload: Workload, factor: number): Workload {
  return {
    ...workload,
    scale: {
      ...workload.scale,
      horizonMonths: Math.min(MAX_HORIZON_MONTHS, workload.scale.horizonMonths * factor),
    },
    accessPatterns: workload.accessPatterns.map((pattern) => ({
      ...pattern,
      rps: { avg: pattern.rps.avg * factor, peak: pattern.rps.peak * factor },
    })),
  };
}

/** The model with every container's throughput left to the evaluation. */
function unpinned(model: Model): Model {
  return {
    ...model,
    containers: model.containers.map(
      ({ throughput: _throughput, physicalPartitions: _pinned, ...rest }) => rest,
    ),
  };
}

function usd(value: number): string {
  return `$${formatInteger(value)}`;
}

/**
 * The horizon decision: the model at each factor (its monthly cost with the throughput each scale
 * needs, and the hard limits it breaks there), the first factor that breaks one, and the design
 * at that scale (`designAt`, the same search on the scaled workload).
 */
export function horizonDecision(
  workload: Workload,
  model: Model,
  options: EvaluateOptions,
  designAt: (scaled: Workload) => {
    readonly model: Model;
    readonly monthlyCostUSD: number;
    readonly errors: number;
  },
): Decision {
  const months = workload.scale.horizonMonths;
  const elements = workload.entities.length + workload.accessPatterns.length;
  const howToSee = `evaluate the model on the workload with scale.horizonMonths x ${HORIZON_FACTORS.slice(1).join(" and x ")} and every rate multiplied alike`;
  if (elements > HORIZON_EVALUATED_ELEMENTS)
    return {
      id: "horizon",
      subject: { kind: "horizon" },
      title: "How long the design stays right",
      chosen: "not evaluated",
      alternatives: [],
      why: `not evaluated for a workload of ${formatInteger(elements)} entities and patterns (over ${HORIZON_EVALUATED_ELEMENTS}: design time stays bounded); to see it, ${howToSee}`,
    };
  const free = unpinned(model);
  const rows = HORIZON_FACTORS.map((factor) => {
    const scaled = scaledWorkload(workload, factor);
    const evaluation = evaluateModel(scaled, free, options);
    const errors = evaluation.issues.filter(
      (issue) => issue.severity === "error" && !NOT_SCALE_ERRORS.has(issue.code),
    );
    return { factor, scaled, evaluation, errors };
  });
  const nameOf = (factor: number, scaled: Workload): string =>
    factor === 1
      ? `as designed: ${months} months of data, the stated traffic`
      : `${formatInteger(scaled.scale.horizonMonths)} months of data, ${factor}x the traffic`;
  const alternatives: Alternative[] = rows.map(({ factor, scaled, evaluation, errors }) => ({
    name: nameOf(factor, scaled),
    rusPeak: evaluation.totals.rus.peak,
    monthlyCostUSD: evaluation.totals.monthlyCostUSD,
    errors: errors.length,
    unsound: 0,
  }));
  const today = rows[0];
  const breaking = rows.find((row) => row.factor > 1 && row.errors.length > (today?.errors.length ?? 0));
  const costs = rows
    .map(({ factor, evaluation }) => `${factor}x ${usd(evaluation.totals.monthlyCostUSD)}/month`)
    .join(", ");
  let why: string;
  if (breaking === undefined) {
    why = `the model holds every hard limit it holds today at up to ${HORIZON_FACTORS.at(-1)}x the horizon's data and traffic (${costs}, each with the throughput it needs; the traffic is assumed to grow with the data)`;
  } else {
    const [first] = breaking.errors;
    const broken = `the model breaks at ${breaking.factor}x the horizon's data and traffic (${formatInteger(breaking.scaled.scale.horizonMonths)} months; ${costs}): ${breaking.errors.length} hard-limit error(s)${first === undefined ? "" : `, first: ${first.message}`}`;
    let next: string;
    if (elements > HORIZON_DESIGN_ELEMENTS) {
      next = `the design for that scale is not searched for a workload of ${formatInteger(elements)} entities and patterns (over ${HORIZON_DESIGN_ELEMENTS}); to see it, design the workload with scale.horizonMonths x ${breaking.factor} and every rate x ${breaking.factor}`;
    } else {
      const design = designAt(breaking.scaled);
      const keys = design.model.containers
        .map((container) => `${container.name} by ${container.partitionKey.join(", ")}`)
        .join("; ");
      next =
        design.errors > 0
          ? `the search finds no design for that scale that meets every limit (its best: ${keys}, ${usd(design.monthlyCostUSD)}/month, ${design.errors} hard-limit error(s))`
          : `the design for that scale: ${keys} (${usd(design.monthlyCostUSD)}/month at that scale)`;
    }
    why = `${broken}. ${next.charAt(0).toUpperCase()}${next.slice(1)}; re-design before then (the traffic is assumed to grow with the data)`;
  }
  return {
    id: "horizon",
    subject: { kind: "horizon", ...(breaking === undefined ? {} : { breaksAt: breaking.factor }) },
    title: "How long the design stays right",
    chosen: alternatives[0]?.name ?? "as designed",
    alternatives,
    why,
  };
}
