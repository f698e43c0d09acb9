/**
 * What an open unknown is worth asking (issue 27: "questions ranked by what they change"). Before
 * a turn of the closing questions, each unknown the tool would otherwise guess is designed at a
 * plausible low and high value: a read's result size at a page of 20 against what the evaluation
 * assumes without an answer (a vet clinic's unpaid invoices: 112,946 per request), the planning
 * horizon at 12 against 36 months, how requests spread over a located attribute's values (even
 * against a few popular ones: skew 0 and 1). The questions whose answer changes the design or moves the cost
 * most come first, and each says why ("this decides how Invoice is partitioned and the cost: $432
 * a month at 20 items, $14,935 at 112,946").
 *
 * The designs are the real search (`designModel`, without the horizon's stress scales), memoized
 * by workload; at most `MAX_DESIGNS` new designs a call and workloads of at most `MAX_ENTITIES`
 * entities, so a turn stays within a few seconds. Larger workloads keep the askers' order.
 */
import { formatInteger, formatUsd } from "../common/format-number.js";
import { designModel } from "../design/design-model.js";
import type { Model } from "../model/types.js";
import { loadWorkload } from "../workload/load-workload.js";
import type { Workload } from "../workload/types.js";
import { serializeDraft } from "./checklist.js";
import type { Question } from "./questions.js";
import type { SessionState } from "./state.js";

/**
 * Largest workload whose unknowns are designed: a design of 15 entities takes up to about half a
 * second on the 2-core machine (the design-speed bench: 20 entities, median 3 s with the horizon's
 * stress scales), so a turn's designs stay within a few seconds.
 */
export const MAX_ENTITIES = 15;
/** New designs one call may run (the rest keep the asker's order). */
export const MAX_DESIGNS = 6;
/** A read's result size at its plausible low: a page of this many items. */
export const LOW_RESULT_SIZE = 20;
/** An attribute's skew at its plausible high: a few popular values (Zipf 1), against even (0). */
export const HIGH_SKEW = 1;
/** The horizon at its plausible high, against the default 12 months. */
export const HIGH_HORIZON_MONTHS = 36;

/** What one design of a variant gives. */
interface Outcome {
  readonly monthlyCostUSD: number;
  /** Entity -> where its own items live (`invoices (/clinicId = {clinicId})`). */
  readonly placement: ReadonlyMap<string, string>;
  /** Read id -> items its first query returns, as the evaluation assumes. */
  readonly returned: ReadonlyMap<string, number>;
}

/** What an unknown changes between its plausible low and high value. */
export interface Impact {
  readonly lowLabel: string;
  readonly highLabel: string;
  readonly lowCostUSD: number;
  readonly highCostUSD: number;
  /** Entities placed differently (`Invoice: clinics (/id = invoice-{invoiceId}) vs invoices (/id = {invoiceId})`). */
  readonly placementChanges: readonly string[];
  /** The reason to ask it, in one sentence. */
  readonly sentence: string;
}

const outcomes = new Map<string, Outcome>();
const OUTCOMES_KEPT = 256;

function placementOf(model: Model): Map<string, string> {
  const placement = new Map<string, string>();
  for (const container of model.containers)
    for (const item of container.items)
      if (item.source === undefined && !placement.has(item.entity))
        placement.set(
          item.entity,
          `${container.name} (${container.partitionKey.map((path, i) => `${path} = ${item.partitionKey[i] ?? ""}`).join(", ")})`,
        );
  return placement;
}

/** The design of `workload`, memoized; undefined when the budget of new designs is spent. */
function outcomeOf(workload: Workload, budget: { designs: number }): Outcome | undefined {
  const key = JSON.stringify(workload);
  const known = outcomes.get(key);
  if (known !== undefined) return known;
  if (budget.designs <= 0) return undefined;
  budget.designs -= 1;
  let outcome: Outcome;
  try {
    const designed = designModel(workload, { horizon: false });
    const returned = new Map<string, number>();
    for (const pattern of designed.evaluation.patterns) {
      const query = pattern.plan.operations.find((step) => step.kind === "query");
      if (query !== undefined && query.kind === "query") returned.set(pattern.id, query.returned);
    }
    outcome = {
      monthlyCostUSD: designed.evaluation.totals.monthlyCostUSD,
      placement: placementOf(designed.model),
      returned,
    };
  } catch {
    return undefined;
  }
  if (outcomes.size >= OUTCOMES_KEPT) outcomes.delete(outcomes.keys().next().value as string);
  outcomes.set(key, outcome);
  return outcome;
}

function compare(low: Outcome, high: Outcome, lowLabel: string, highLabel: string): Impact {
  const placementChanges = [...high.placement]
    .filter(
      ([entity, where]) => low.placement.get(entity) !== undefined && low.placement.get(entity) !== where,
    )
    .map(([entity, where]) => `${entity}: ${low.placement.get(entity) ?? ""} vs ${where}`);
  const entities = placementChanges.map((change) => change.split(":")[0] ?? "");
  const costs = `${formatUsd(low.monthlyCostUSD)} a month at ${lowLabel}, ${formatUsd(high.monthlyCostUSD)} at ${highLabel}`;
  const sentence =
    placementChanges.length > 0
      ? `This decides how ${entities.join(", ")} ${entities.length === 1 ? "is" : "are"} partitioned (${placementChanges.join("; ")}) and the cost: ${costs}.`
      : `This moves the cost: ${costs}.`;
  return {
    lowLabel,
    highLabel,
    lowCostUSD: low.monthlyCostUSD,
    highCostUSD: high.monthlyCostUSD,
    placementChanges,
    sentence,
  };
}

/** True when the answer matters: the design changes, or the cost moves by 10% and $1 a month. */
export function matters(impact: Impact): boolean {
  const delta = Math.abs(impact.highCostUSD - impact.lowCostUSD);
  const base = Math.max(impact.lowCostUSD, impact.highCostUSD);
  return impact.placementChanges.length > 0 || (delta >= 1 && delta >= 0.1 * base);
}

/** The unknown a question group asks about, and its low and high workloads. */
interface Unknown {
  readonly group: string;
  /** Whether a question of the group asks the unknown (it carries the sentence). */
  readonly asks: (questionId: string) => boolean;
  readonly variants: (
    workload: Workload,
    budget: { designs: number },
  ) => { low: Workload; high: Workload; lowLabel: string; highLabel: string } | undefined;
}

/** The skew of an attribute reads locate items by: the requests even (0) or on a few values (1). */
function skewUnknown(group: string, questionId: string): Unknown | undefined {
  const skew = /^skew:([^:]+):([^:]+)$/.exec(questionId);
  if (skew === null) return undefined;
  const entity = skew[1] ?? "";
  const attribute = skew[2] ?? "";
  const withSkew = (workload: Workload, value: number): Workload => ({
    ...workload,
    entities: workload.entities.map((e) =>
      e.name !== entity
        ? e
        : { ...e, attributes: e.attributes.map((a) => (a.name === attribute ? { ...a, skew: value } : a)) },
    ),
  });
  return {
    group,
    asks: (id) => id === questionId,
    variants: (workload) => ({
      low: withSkew(workload, 0),
      high: withSkew(workload, HIGH_SKEW),
      lowLabel: `requests spread evenly over ${entity}.${attribute}`,
      highLabel: `a few popular values (skew ${HIGH_SKEW})`,
    }),
  };
}

/** The unknowns a question group asks about (a relationship's group may ask a skew). */
function unknownsOf(group: string, questionIds: readonly string[]): readonly Unknown[] {
  const own = unknownOf(group);
  const skews = questionIds.map((id) => skewUnknown(group, id)).filter((u) => u !== undefined);
  return [...(own === undefined ? [] : [own]), ...skews];
}

function unknownOf(group: string): Unknown | undefined {
  const read = /^result-size:([^:]+)$/.exec(group);
  if (read !== null) {
    const id = read[1] ?? "";
    return {
      group,
      asks: () => true,
      variants: (workload, budget) => {
        const assumed = outcomeOf(workload, budget)?.returned.get(id);
        if (assumed === undefined || assumed <= LOW_RESULT_SIZE) return undefined;
        const low: Workload = {
          ...workload,
          accessPatterns: workload.accessPatterns.map((pattern) =>
            pattern.id === id && pattern.type === "read"
              ? { ...pattern, returns: { avg: LOW_RESULT_SIZE } }
              : pattern,
          ),
        };
        return {
          low,
          high: workload,
          lowLabel: `${LOW_RESULT_SIZE} items`,
          highLabel: `the ${formatInteger(assumed)} items assumed without an answer`,
        };
      },
    };
  }
  if (group === "distribution") {
    return {
      group,
      asks: (questionId) => questionId === "distribution:horizon",
      variants: (workload) => {
        if (workload.scale.horizonMonths >= HIGH_HORIZON_MONTHS) return undefined;
        return {
          low: workload,
          high: { ...workload, scale: { ...workload.scale, horizonMonths: HIGH_HORIZON_MONTHS } },
          lowLabel: `a ${workload.scale.horizonMonths}-month horizon`,
          highLabel: `${HIGH_HORIZON_MONTHS} months`,
        };
      },
    };
  }
  return undefined;
}

/**
 * The turn's questions with what each unknown changes: groups whose answer changes the design or
 * moves the cost most first (the others keep their order, after them), each question of such a
 * group carrying the `impact` sentence. Unchanged when the draft does not load yet, is larger than
 * `MAX_ENTITIES`, or none of its groups is an unknown this module designs.
 */
export function rankByImpact(state: SessionState, questions: readonly Question[]): readonly Question[] {
  const groupOf = (question: Question): string => question.group?.id ?? question.id;
  const groups = [...new Set(questions.map(groupOf))];
  const unknowns = groups.flatMap((group) =>
    unknownsOf(
      group,
      questions.filter((question) => groupOf(question) === group).map((question) => question.id),
    ),
  );
  if (unknowns.length === 0) return questions;
  if (state.workload.entities.length > MAX_ENTITIES) return questions;
  const loaded = loadWorkload(serializeDraft(state.workload), { file: "workload.yaml" });
  if (!loaded.ok) return questions;
  const budget = { designs: MAX_DESIGNS };
  // per group, the unknowns that matter: the sentence of each, and the largest for the ranking
  const impacts = new Map<string, { impact: Impact; asks: Unknown["asks"] }[]>();
  for (const unknown of unknowns) {
    const variants = unknown.variants(loaded.value, budget);
    if (variants === undefined) continue;
    const low = outcomeOf(variants.low, budget);
    const high = outcomeOf(variants.high, budget);
    if (low === undefined || high === undefined) continue;
    const impact = compare(low, high, variants.lowLabel, variants.highLabel);
    if (!matters(impact)) continue;
    impacts.set(unknown.group, [...(impacts.get(unknown.group) ?? []), { impact, asks: unknown.asks }]);
  }
  if (impacts.size === 0) return questions;
  const weightOf = (impact: Impact): number =>
    (impact.placementChanges.length > 0 ? 1e12 : 0) + Math.abs(impact.highCostUSD - impact.lowCostUSD);
  const weight = (group: string): number =>
    Math.max(-1, ...(impacts.get(group) ?? []).map(({ impact }) => weightOf(impact)));
  const ranked = groups
    .map((group, index) => ({ group, index, weight: weight(group) }))
    .sort((a, b) => b.weight - a.weight || a.index - b.index)
    .map((entry) => entry.group);
  return ranked.flatMap((group) =>
    questions
      .filter((question) => groupOf(question) === group)
      .map((question) => {
        const found = (impacts.get(group) ?? []).find(({ asks }) => asks(question.id));
        return found === undefined ? question : { ...question, impact: found.impact.sentence };
      }),
  );
}
