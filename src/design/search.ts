/**
 * The scoring and bookkeeping of the design search: every candidate model is evaluated with the
 * same evaluation `evaluate` uses; a candidate is better when it breaks fewer hard limits, then
 * when it costs less per month. Every choice is recorded with its alternatives and numbers.
 */
import { briefIssues } from "../common/brief-issue.js";
import { createEvaluator, type DetailedEvaluation, type EvaluateOptions } from "../cost/evaluate.js";
import type { Model } from "../model/types.js";
import type { Workload } from "../workload/types.js";
import { formatInteger, formatUsd } from "../common/format-number.js";
import { MAX_LOGICAL_PARTITION_GB, MAX_PHYSICAL_PARTITION_RUS } from "../cosmos/limits.js";
import type { Repaired } from "./repair.js";

export interface Scored {
  readonly model: Model;
  /** Frequent reads that still query every physical partition (see FREQUENT_FAN_OUT_RPS). */
  readonly frequentFanOuts: number;
  /** Reads whose own query visits every partition, however few partitions there are today. */
  readonly fanOutReads: number;
  readonly evaluation: DetailedEvaluation;
  /** Error issues (hard limits broken, patterns not served). */
  readonly errors: number;
  /**
   * Among `errors`, those of a model that does not work (UNSOUND_CODES: a read it cannot answer,
   * ids that collide, derived data nothing maintains): weighed before any capacity limit.
   */
  readonly unsound: number;
  /** Containers (or shared databases) over the default 1,000,000 RU/s maximum: a support ticket each. */
  readonly overMaximum: number;
  /**
   * Containers without headroom (`headroomShortfalls`): a partition over the workload's target
   * share of its limits (`scale.targetUtilization`), no margin for traffic above the peak or
   * growth beyond the horizon.
   */
  readonly nearLimit: number;
  /**
   * Pairs of writes that must commit together (`atomicWith`) whose items the model keeps in
   * different logical partitions (`evaluate.notAtomic`): already among `errors`, counted here to
   * say so in the decisions, never weighed twice.
   */
  readonly atomicSplit: number;
  readonly monthlyCostUSD: number;
  readonly rusPeak: number;
}

/** A scored model's figures without the model and its evaluation (what alternatives are compared by). */
export type ScoreFigures = Omit<Scored, "model" | "evaluation">;

/**
 * The figures of a scored model, as a new object that keeps neither the model nor its evaluation
 * alive: a decision among hundreds of candidates (consolidation of a 229-entity group) kept every
 * candidate's evaluation until it was made, 750 MB, and a 500-entity design ran out of memory.
 */
function figuresOf(scored: Scored): ScoreFigures {
  const { model: _model, evaluation: _evaluation, ...figures } = scored;
  return figures;
}

export interface Alternative {
  readonly name: string;
  readonly rusPeak: number;
  readonly monthlyCostUSD: number;
  /** Error issues of the alternative (0 = respects every hard limit). */
  readonly errors: number;
  /** Among `errors`, those of a model that does not work (Scored.unsound), weighed first. */
  readonly unsound: number;
}

/**
 * What a decision is about, as data (the documents read it instead of parsing the id): one
 * kind per step of the search, with the entity, relationship, container or pattern it concerns.
 */
export type DecisionSubject =
  | {
      readonly kind: "aggregate";
      readonly parent: string;
      readonly child: string;
      /** Share of the requests touching the pair that need both (0..1). */
      readonly correlation: number;
      /**
       * The relationship is identifying: the prompt's check (`identifyingRelationshipCheck`:
       * owned, always read by the parent key, cross-partition if separate), as the documents say.
       */
      readonly identifying: boolean;
    }
  | { readonly kind: "unique"; readonly entity: string }
  | { readonly kind: "partitionKey"; readonly container: string }
  | { readonly kind: "id"; readonly entity: string }
  | { readonly kind: "binning"; readonly entity: string }
  | { readonly kind: "denormalize"; readonly pattern: string }
  /**
   * A count of a parent's children that `pattern` reads: kept in a counter on the parent's item
   * (`container`/`itemType`, maintained in the child's transactional batch or from the change
   * feed), or counted at read time by a query of the children.
   */
  | {
      readonly kind: "counter";
      readonly pattern: string;
      readonly container: string;
      readonly itemType: string;
      readonly child: string;
    }
  | { readonly kind: "fanOut"; readonly pattern: string }
  | { readonly kind: "shard"; readonly container: string }
  /** A copy of the model the search reached, kept only if it pays for its upkeep (pruneCopies). */
  | { readonly kind: "copy"; readonly container: string; readonly itemType: string }
  /** The model at 1x, 3x and 10x the horizon's data and traffic; the first factor that breaks it. */
  | { readonly kind: "horizon"; readonly breaksAt?: number }
  /** A hard-limit error of the model the search reached, and the moves that could repair it. */
  | { readonly kind: "repair"; readonly problem: string }
  /** Two writes that must commit together: kept in one logical partition, or why they cannot be. */
  | {
      readonly kind: "atomicity";
      readonly pattern: string;
      readonly partner: string;
      readonly together: boolean;
    }
  | { readonly kind: "consolidateContainers" }
  /** The vector index of a container's vector path, chosen on dimensions, recall and RU/s. */
  | { readonly kind: "vectorIndex"; readonly container: string; readonly path: string }
  | { readonly kind: "ttl"; readonly container: string }
  | { readonly kind: "fallbackBaseline" }
  /** Which of the two searches of a group of related entities was kept (see designGroup). */
  | { readonly kind: "search"; readonly entities: readonly string[]; readonly combinedMoves: boolean }
  /**
   * A read that may be stale (`maxStalenessSeconds`): served by the database as designed, by a
   * plain query without the copy only it reads, or through the integrated cache of a dedicated
   * gateway (over either).
   */
  | { readonly kind: "integratedCache"; readonly pattern: string; readonly cached: boolean }
  | { readonly kind: "throughput" }
  | { readonly kind: "unmetLimits"; readonly errors: number }
  /** The search stopped scoring candidates: its work budget was spent (see `SearchBudget`). */
  | {
      readonly kind: "searchBudget";
      /** Work allowed and spent, in evaluated elements (patterns plus containers per model scored). */
      readonly units: number;
      readonly spent: number;
      /** Candidates left unscored. */
      readonly skipped: number;
    };

export interface Decision {
  readonly id: string;
  readonly subject: DecisionSubject;
  readonly title: string;
  readonly chosen: string;
  readonly alternatives: readonly Alternative[];
  readonly why: string;
}

/** What every step of one design search shares: the workload, the options, the decisions so far. */
export interface SearchContext {
  readonly workload: Workload;
  readonly options: EvaluateOptions;
  readonly decisions: Decision[];
  /**
   * Repairs what a candidate move broke before it is compared (see `repair.ts`); absent = every
   * candidate is compared as it is.
   */
  readonly repair?: (scored: Scored, reference: Scored | undefined) => Repaired;
  /** The work this search may still spend on candidates (see `SearchBudget`). */
  readonly budget: SearchBudget;
}

/**
 * How much scoring a search may do, so that design ends in bounded time on any workload. Work is
 * counted in evaluated elements: scoring a model of a group of related entities costs its access
 * patterns plus the model's containers (an evaluation's work grows with both). Once `spent`
 * reaches `units`, the candidates left are not scored: the search keeps the model it has (the
 * best found so far) and counts what it skipped, and the design says so (a `searchBudget`
 * decision). Mutable: the steps of one design share it.
 */
export interface SearchBudget {
  readonly units: number;
  spent: number;
  /** Candidates not scored because the budget was spent. */
  skipped: number;
}

/**
 * The work of scoring one model of `workload` (see `SearchBudget`): its patterns, each `with`
 * entry of a read counted as one more (each is planned and costed like a read of its own: a
 * dashboard with 120 entries took 140 s to design when it counted once), and its containers.
 */
export function scoringWork(workload: Workload, model: Model): number {
  let patterns = 0;
  for (const pattern of workload.accessPatterns)
    patterns += 1 + (pattern.type === "read" ? pattern.with.length : 0);
  return patterns + model.containers.length;
}

/** Work spent scoring models of each workload (a group's sub-workload), repairs included. */
const spentWork = new WeakMap<Workload, number>();

/** The work spent so far scoring models of `workload` (see `scoringWork`). */
export function workSpentOn(workload: Workload): number {
  return spentWork.get(workload) ?? 0;
}

export interface Candidate {
  readonly name: string;
  readonly model: Model;
  /** A rule of the prompt favours it: it wins when it costs at most 5% more than the best. */
  readonly preferred?: boolean;
  /**
   * It wins a cost tie (no more hard-limit errors, fan-outs or tickets, and not dearer by more
   * than the smallest saving that counts): co-location with the parent (transactional batches,
   * fewer containers).
   */
  readonly winsTies?: boolean;
  /** The two containers a consolidation puts in one (see `boundedMerges`). */
  readonly merges?: readonly [string, string];
}

/**
 * The prompt's rule "avoid cross-partition queries for high-frequency access patterns": a read at
 * or above this peak rate that fans out over several physical partitions counts against a model,
 * because its cost and latency grow with every partition the data adds.
 */
export const FREQUENT_FAN_OUT_RPS = 50;
/** How much more a model without such fan-outs may cost and still be preferred. */
export const FAN_OUT_AVOIDANCE_PREMIUM = 1.25;
/**
 * How much more a model with fewer containers over the default 1,000,000 RU/s maximum may cost
 * and still be preferred (each one needs an Azure support ticket before it can be deployed).
 */
export const OVER_MAXIMUM_AVOIDANCE_PREMIUM = 1.25;
/** How much more a model with fewer containers without that margin may cost and still be preferred. */
export const HEADROOM_PREMIUM = 1.1;
/** Costs within this share of each other are a tie (the estimates are not that precise). */
export const TIE_SHARE = 0.01;
/** A change must save this share of the monthly cost, or this many dollars, whichever is less. */
export const MIN_SAVING_SHARE = 0.001;
export const MIN_SAVING_USD = 1;
/** How much more a candidate a rule prefers (e.g. consolidation over 50% correlation) may cost. */
export const PREFERENCE_PREMIUM = 1.05;

/**
 * One evaluator per workload and options (a design search scores hundreds of candidates of one
 * workload, each an edit of the one before): it reuses what a candidate does not change, with
 * the figures of a fresh evaluation (`cost/evaluation-cache.ts`). Held weakly: it goes with the
 * workload.
 */
type Evaluator = ReturnType<typeof createEvaluator>;

/**
 * What the scoring of one workload with one set of options keeps: its evaluator, and the models
 * scored lately by their text (a search reaches the same model again within a few candidates: a
 * move's repair that undoes it, the current model offered by two steps; a 200-entity design
 * scored 357 models, 113 of them seen within the 13 before).
 */
interface Scoring {
  readonly evaluate: Evaluator;
  readonly recent: Map<string, { readonly scored: Scored; readonly work: number }>;
}
const RECENT_SCORES = 16;
const scorings = new WeakMap<Workload, WeakMap<EvaluateOptions, Scoring>>();

function scoringFor(workload: Workload, options: EvaluateOptions): Scoring {
  let byOptions = scorings.get(workload);
  if (byOptions === undefined) {
    byOptions = new WeakMap();
    scorings.set(workload, byOptions);
  }
  let scoring = byOptions.get(options);
  if (scoring === undefined) {
    scoring = { evaluate: createEvaluator(workload, options), recent: new Map() };
    byOptions.set(options, scoring);
  }
  return scoring;
}

/**
 * Errors the written model never has, whatever the candidate: `finalize` (design-model.ts) turns
 * TTL on where items expire. Counting them would steer the search away from soft deletes.
 */
const FIXED_WHEN_WRITTEN: ReadonlySet<string> = new Set([
  "evaluate.ttlOff",
  "evaluate.leaseContainerMissing",
]);

/**
 * Errors of a model that gives wrong answers or refuses writes whatever its throughput, as opposed
 * to the capacity limits (hot partitions, fan-outs that cannot scale) more money or another key
 * may lift: a model that works but is too hot beats one that is cool but wrong (seed 21 of the
 * independent workloads kept a read unserved to save one capacity error).
 */
const UNSOUND_CODES: ReadonlySet<string> = new Set([
  "evaluate.patternNotServed",
  "evaluate.boundedSetTooSmall",
  "evaluate.itemTooLarge",
  "evaluate.idNotUnique",
  "evaluate.keyTooLong",
  "evaluate.keyChangedInPlace",
  "evaluate.copyNotMaintainable",
  "evaluate.copySourceUnreadable",
  "evaluate.embedNotAddressable",
  "evaluate.counterNotAddressable",
  "evaluate.embedReparented",
  "evaluate.boundedSetNotRefilled",
]);

/**
 * Evaluates a model and summarizes it for comparison. A model scored among the last few of its
 * workload and options is not evaluated again: an evaluation is a function of the workload, the
 * options and the model alone (`cost/evaluation-cache.ts` keeps it so to the last bit). Its work
 * is charged again, as if it were evaluated. (The evaluation cache then holds less, so a later
 * evaluation may plan more and the budget may run out a candidate sooner or later: the 48 corpus
 * designs ended at the same cost and errors, 18 with other decision texts.)
 */
export function scoreModel(workload: Workload, model: Model, options: EvaluateOptions): Scored {
  const { evaluate: evaluator, recent } = scoringFor(workload, options);
  const text = JSON.stringify(model);
  const known = recent.get(text);
  if (known !== undefined) {
    recent.delete(text);
    recent.set(text, known);
    spentWork.set(workload, workSpentOn(workload) + known.work);
    // The model as given (callers compare models by identity).
    return known.scored.model === model ? known.scored : { ...known.scored, model };
  }
  const planned = evaluator.planningWork();
  const evaluation = evaluator(model);
  // The larger of the model's size and the planning it took: the partition fixed point may plan
  // a wide read many times over (a dashboard read with 120 `with` entries took 140 s to design).
  const work = Math.max(scoringWork(workload, model), evaluator.planningWork() - planned);
  spentWork.set(workload, workSpentOn(workload) + work);
  const scored = summarize(workload, model, evaluation);
  recent.set(text, { scored, work });
  if (recent.size > RECENT_SCORES) {
    const oldest = recent.keys().next();
    if (oldest.done !== true) recent.delete(oldest.value);
  }
  return scored;
}

/** The figures a search compares models by. */
function summarize(workload: Workload, model: Model, evaluation: DetailedEvaluation): Scored {
  // Evaluated patterns are in the workload's order.
  const frequentFanOuts = evaluation.patterns.filter((p, index) => {
    const pattern = workload.accessPatterns[index];
    // A read through the integrated cache reaches the database at its misses' rate.
    const peak =
      evaluation.integratedCache?.patterns.find((cached) => cached.id === p.id)?.misses.peak ??
      pattern?.rps.peak;
    return (
      pattern !== undefined &&
      peak !== undefined &&
      peak >= FREQUENT_FAN_OUT_RPS &&
      // The pattern's own query (follow-ups by key lists are costed, not counted here).
      p.plan.operations[0]?.kind === "query" &&
      p.plan.operations[0].scope === "fanOut" &&
      p.plan.operations[0].partitions > 1
    );
  }).length;
  const fanOutReads = evaluation.patterns.filter(
    (p) => p.plan.operations[0]?.kind === "query" && p.plan.operations[0].scope === "fanOut",
  ).length;
  return {
    model,
    frequentFanOuts,
    fanOutReads,
    evaluation,
    errors: evaluation.issues.filter(
      (issue) => issue.severity === "error" && !FIXED_WHEN_WRITTEN.has(issue.code),
    ).length,
    unsound: evaluation.issues.filter((issue) => issue.severity === "error" && UNSOUND_CODES.has(issue.code))
      .length,
    overMaximum: evaluation.issues.filter((issue) => issue.code === "evaluate.overContainerMaximum").length,
    nearLimit: headroomShortfalls(evaluation).size,
    atomicSplit: evaluation.issues.filter((issue) => issue.code === "evaluate.notAtomic").length,
    monthlyCostUSD: evaluation.totals.monthlyCostUSD,
    rusPeak: evaluation.totals.rus.peak,
  };
}

/**
 * The containers without headroom (`evaluate.noHeadroom`), each with what lacks it: `rus` when
 * its hottest logical partition at the top of the RU range is over the workload's target share
 * of 10,000 RU/s, `storage` when its largest logical partition at the horizon is over the target
 * share of 20 GB. Containers already over a limit are among the errors, not here. A physical
 * partition's share is not counted: more provisioned RU/s split it (a cost the evaluation prices),
 * where a logical partition cannot be split.
 */
export function headroomShortfalls(evaluation: DetailedEvaluation): Map<string, "rus" | "storage"> {
  const short = new Map<string, "rus" | "storage">();
  for (const issue of evaluation.issues)
    if (issue.code === "evaluate.noHeadroom" && !short.has(issue.container))
      short.set(issue.container, issue.measure);
  return short;
}

/**
 * Hard-limit errors, among them the pairs of writes that must commit together but cannot
 * (`evaluate.notAtomic` is an error: each split pair counts once).
 */
export function violations(scored: Pick<Scored, "errors">): number {
  return scored.errors;
}

/**
 * True when `a` ties with `b` and wins the tie (`Candidate.winsTies`): as many violations,
 * containers over the maximum and frequent fan-outs, and no dearer than the smallest saving.
 */
export function winsTie(a: Scored, b: Scored): boolean {
  return (
    a.unsound === b.unsound &&
    violations(a) === violations(b) &&
    a.overMaximum <= b.overMaximum &&
    a.nearLimit <= b.nearLimit &&
    a.frequentFanOuts <= b.frequentFanOuts &&
    a.monthlyCostUSD <= b.monthlyCostUSD + Math.min(b.monthlyCostUSD * MIN_SAVING_SHARE, MIN_SAVING_USD)
  );
}

/**
 * True when `a` is better than `b`: fewer errors of a model that does not work (`unsound`); then
 * fewer hard-limit errors (with split atomic writes); then
 * fewer containers over the default 1,000,000 RU/s maximum (each needs a support ticket before
 * it deploys) if that costs at most 25% more; then fewer containers whose busiest partition is
 * over 90% of its 10,000 RU/s if that costs at most 10% more; then fewer frequent fan-outs if
 * that costs at most 25% more; at a tie (within 1%), fewer fan-out reads; else cheaper by 0.1% or $1
 * (or at most 5% dearer when `preferred`).
 */
export function isBetter(a: Scored, b: Scored, preferred = false): boolean {
  if (a.unsound !== b.unsound) return a.unsound < b.unsound;
  if (violations(a) !== violations(b)) return violations(a) < violations(b);
  if (a.overMaximum < b.overMaximum && a.monthlyCostUSD <= b.monthlyCostUSD * OVER_MAXIMUM_AVOIDANCE_PREMIUM)
    return true;
  if (a.overMaximum > b.overMaximum && b.monthlyCostUSD <= a.monthlyCostUSD * OVER_MAXIMUM_AVOIDANCE_PREMIUM)
    return false;
  if (a.nearLimit < b.nearLimit && a.monthlyCostUSD <= b.monthlyCostUSD * HEADROOM_PREMIUM) return true;
  if (a.nearLimit > b.nearLimit && b.monthlyCostUSD <= a.monthlyCostUSD * HEADROOM_PREMIUM) return false;
  if (
    a.frequentFanOuts < b.frequentFanOuts &&
    a.monthlyCostUSD <= b.monthlyCostUSD * FAN_OUT_AVOIDANCE_PREMIUM
  )
    return true;
  if (
    a.frequentFanOuts > b.frequentFanOuts &&
    b.monthlyCostUSD <= a.monthlyCostUSD * FAN_OUT_AVOIDANCE_PREMIUM
  )
    return false;
  if (preferred) return a.monthlyCostUSD <= b.monthlyCostUSD * PREFERENCE_PREMIUM;
  // At (nearly) the same cost, a key aligned with more of the filters wins: its queries stay in
  // one partition as the data grows.
  const tie = Math.abs(a.monthlyCostUSD - b.monthlyCostUSD) <= b.monthlyCostUSD * TIE_SHARE;
  if (tie && a.fanOutReads !== b.fanOutReads) return a.fanOutReads < b.fanOutReads;
  return a.monthlyCostUSD < b.monthlyCostUSD - Math.min(b.monthlyCostUSD * MIN_SAVING_SHARE, MIN_SAVING_USD);
}

const usd = (value: number): string => formatUsd(value);
const rus = (value: number): string => `${formatInteger(value)} RU/s`;

/** Describes a scored model in one phrase: cost, peak and errors. */
export function describeScore(scored: Scored): string {
  const errors =
    scored.errors === 0
      ? ""
      : `, ${scored.errors} hard-limit error(s)` +
        (scored.atomicSplit === 0
          ? ""
          : ` (${scored.atomicSplit} of them atomic write pair(s) in different logical partitions)`);
  const fanOuts = scored.frequentFanOuts === 0 ? "" : `, ${scored.frequentFanOuts} frequent fan-out read(s)`;
  return `${usd(scored.monthlyCostUSD)}/month, ${rus(scored.rusPeak)} at peak${errors}${fanOuts}`;
}

/**
 * Evaluates the candidates against the current model and keeps the best; records the decision
 * with its alternatives and why (`compareWhy` with the decision's context).
 */
export function decide(
  search: SearchContext,
  current: Scored,
  decision: {
    readonly id: string;
    readonly subject: DecisionSubject;
    readonly title: string;
    readonly keepName: string;
    /**
     * The rule and its numbers, the start of the decision's "why"; or made from the models
     * compared (the current one first, then each candidate as scored), for figures that only
     * their evaluations give.
     */
    readonly context:
      string | ((compared: readonly { readonly name: string; readonly scored: Scored }[]) => string);
  },
  candidates: readonly Candidate[],
): Scored {
  const { decisions } = search;
  let best = current;
  let bestName = decision.keepName;
  let bestPreferred = false;
  const alternatives: Alternative[] = [alternativeOf(decision.keepName, current)];
  // The models compared, for a context made from them; else their figures alone (see `figuresOf`).
  const keepsModels = typeof decision.context !== "string";
  const compared: { name: string; scored: Scored }[] = [{ name: decision.keepName, scored: current }];
  const figures: { name: string; scored: ScoreFigures }[] = [{ name: decision.keepName, scored: current }];
  const note = (name: string, scored: Scored): void => {
    alternatives.push(alternativeOf(name, scored));
    if (keepsModels) compared.push({ name, scored });
    figures.push({ name, scored: figuresOf(scored) });
  };
  // A candidate that removes a hard-limit error is compared with the current model's own
  // repairs too: the error may have a cheaper repair than the candidate's way around it.
  let keepRepaired: Candidate | undefined;
  let repairedCurrent: Scored | undefined;
  const repairCurrent = (): void => {
    if (repairedCurrent !== undefined || search.repair === undefined || violations(current) === 0) return;
    const before = workSpentOn(search.workload);
    const repaired = search.repair(current, undefined);
    search.budget.spent += workSpentOn(search.workload) - before;
    repairedCurrent = repaired.scored;
    if (repaired.repairs.length > 0)
      keepRepaired = {
        name: `${decision.keepName}, then ${repaired.repairs.join(", then ")}`,
        model: repaired.scored.model,
      };
  };
  const moves: { move: Candidate; scored?: Scored }[] = candidates.map((move) => ({ move }));
  const { budget } = search;
  let skippedHere = 0;
  for (let index = 0; index < moves.length; index++) {
    const entry = moves[index];
    if (entry === undefined) continue;
    const move = entry.move;
    if (entry.scored === undefined && budget.spent >= budget.units) {
      // Out of budget: the candidates left are not scored (the current best stays).
      skippedHere = moves.slice(index).filter((m) => m.scored === undefined).length;
      budget.skipped += skippedHere;
      break;
    }
    if (entry.scored !== undefined) {
      // The current model's repairs (see above), already scored.
      const scored = entry.scored;
      note(move.name, scored);
      if (isBetter(scored, best)) {
        best = scored;
        bestName = move.name;
        bestPreferred = false;
      }
      continue;
    }
    const { candidate, scored } = scoreMove(search, current, move);
    note(candidate.name, scored);
    if (beats(candidate, scored, best, bestPreferred)) {
      best = scored;
      bestName = candidate.name;
      bestPreferred = candidate.preferred === true;
    }
    if (violations(scored) < violations(current) && repairedCurrent === undefined) {
      repairCurrent();
      if (keepRepaired !== undefined && repairedCurrent !== undefined)
        moves.push({ move: keepRepaired, scored: repairedCurrent });
    }
  }
  if (candidates.length > 0) {
    const context = typeof decision.context === "string" ? decision.context : decision.context(compared);
    decisions.push({
      id: decision.id,
      subject: decision.subject,
      title: decision.title,
      chosen: bestName,
      alternatives,
      why:
        skippedHere === 0
          ? compareWhy(bestName, best, current, context, figures, bestPreferred)
          : unscoredWhy(bestName, best, current, context, skippedHere, candidates.length),
    });
  }
  return best;
}

/** A scored model as an alternative of a decision. */
function alternativeOf(name: string, scored: ScoreFigures): Alternative {
  return {
    name,
    rusPeak: scored.rusPeak,
    monthlyCostUSD: scored.monthlyCostUSD,
    errors: scored.errors,
    unsound: scored.unsound,
  };
}

/**
 * Scores one move against the current model: what the move broke is repaired before it is
 * compared (moves that need a second one), and the work spent is charged to the search budget.
 */
function scoreMove(
  search: SearchContext,
  current: Scored,
  move: Candidate,
): { readonly candidate: Candidate; readonly scored: Scored } {
  const { workload, options, budget } = search;
  const before = workSpentOn(workload);
  const plain = scoreModel(workload, move.model, options);
  const repaired = search.repair?.(plain, current) ?? { scored: plain, repairs: [] };
  budget.spent += workSpentOn(workload) - before;
  const candidate =
    repaired.repairs.length === 0
      ? move
      : { ...move, name: `${move.name}, then ${repaired.repairs.join(", then ")}` };
  return { candidate, scored: repaired.scored };
}

/**
 * True when a scored candidate replaces the best so far: it wins a tie when it may
 * (`winsTies`); a candidate a rule prefers wins within 5% of one no rule prefers, and keeps its
 * place unless a challenger no rule prefers is more than 5% cheaper.
 */
function beats(candidate: Candidate, scored: Scored, best: Scored, bestPreferred: boolean): boolean {
  if (candidate.winsTies === true && winsTie(scored, best)) return true;
  const preferred = candidate.preferred === true;
  if (preferred === bestPreferred) return isBetter(scored, best);
  if (preferred) return isBetter(scored, best, true);
  return (
    isBetter(scored, best) &&
    (violations(scored) < violations(best) ||
      scored.monthlyCostUSD * PREFERENCE_PREMIUM < best.monthlyCostUSD)
  );
}

/**
 * The explanation of a decision cut short by the search budget: never "the cheapest", since
 * some candidates were not scored.
 */
function unscoredWhy(
  chosen: string,
  best: Scored,
  current: Scored,
  context: string,
  skipped: number,
  total: number,
): string {
  const base = context === "" ? "" : `${context}. `;
  const outcome =
    best === current
      ? `kept: ${chosen} (${describeScore(current)})`
      : `${chosen}: ${describeScore(best)} instead of ${describeScore(current)}`;
  return `${base}${outcome}; ${skipped} of ${total} candidate(s) were not scored: the design's work budget was spent (see the search budget decision)`;
}

/** The standard explanation: what was chosen and how it compares with the alternatives. */
export function compareWhy(
  chosen: string,
  best: Scored,
  current: Scored,
  context: string,
  compared: readonly { readonly name: string; readonly scored: ScoreFigures }[] = [],
  preferred = false,
): string {
  const base = context === "" ? "" : `${context}. `;
  const dearer = dearerBecause(best, compared, preferred);
  if (best === current) {
    // Never "respects every limit" when a hard limit is broken: say which remain. Never "the
    // cheapest" when a cheaper alternative was passed over: say why (issue 29).
    return current.errors === 0
      ? dearer === ""
        ? `${base}kept: ${chosen} (${describeScore(current)}) is the cheapest that respects every limit`
        : `${base}kept: ${chosen} (${describeScore(current)})${dearer}`
      : `${base}kept: ${chosen} (${describeScore(current)}); no alternative here has fewer hard-limit errors (${remainingErrors(current)})${dearer}`;
  }
  const saving = current.monthlyCostUSD - best.monthlyCostUSD;
  const limits =
    best.errors < current.errors ? `; removes ${current.errors - best.errors} hard-limit error(s)` : "";
  const atomic =
    best.atomicSplit < current.atomicSplit
      ? `; keeps ${current.atomicSplit - best.atomicSplit} pair(s) of atomic writes in one logical partition (a transactional batch)`
      : "";
  const fanOuts =
    best.frequentFanOuts < current.frequentFanOuts
      ? `; no longer fans out a frequent read over every partition (the prompt's rule; worth up to ${Math.round((FAN_OUT_AVOIDANCE_PREMIUM - 1) * 100)}% more)`
      : "";
  const headroom =
    best.nearLimit < current.nearLimit
      ? `; keeps ${current.nearLimit - best.nearLimit} more container(s) under the workload's target share of a partition's limits (scale.targetUtilization of ${formatInteger(MAX_PHYSICAL_PARTITION_RUS)} RU/s at the top of the RU range and of ${MAX_LOGICAL_PARTITION_GB} GB at the horizon; worth up to ${Math.round((HEADROOM_PREMIUM - 1) * 100)}% more)`
      : "";
  const change = saving >= 0 ? `saves ${usd(saving)}/month` : `costs ${usd(-saving)}/month more`;
  const remaining = best.errors === 0 ? "" : `; still breaks: ${remainingErrors(best)}`;
  return `${base}${chosen}: ${describeScore(best)} instead of ${describeScore(current)} (${change}${limits}${atomic}${fanOuts}${headroom}${remaining})${dearer}`;
}

/**
 * Why the chosen model is not the cheapest alternative that works as well (no more errors of a
 * model that does not work, no more hard-limit errors), by the rule of `isBetter` that ranked it
 * first; "" when it is that cheapest one.
 * @example dearerBecause(best, compared) // "; $2,084/month with accept the fan-out passed over: ..."
 */
export function dearerBecause(
  best: ScoreFigures,
  compared: readonly { readonly name: string; readonly scored: ScoreFigures }[],
  preferred = false,
): string {
  const cheaper = compared
    .filter(
      ({ scored }) =>
        scored !== best &&
        scored.unsound <= best.unsound &&
        violations(scored) <= violations(best) &&
        scored.monthlyCostUSD < best.monthlyCostUSD,
    )
    .sort((a, b) => a.scored.monthlyCostUSD - b.scored.monthlyCostUSD)[0];
  if (cheaper === undefined) return "";
  const other = cheaper.scored;
  const percent = (premium: number): string => `${Math.round((premium - 1) * 100)}%`;
  const reason =
    best.overMaximum < other.overMaximum
      ? `it keeps ${other.overMaximum - best.overMaximum} more container(s) under the default maximum of 1,000,000 RU/s (worth up to ${percent(OVER_MAXIMUM_AVOIDANCE_PREMIUM)} more)`
      : best.nearLimit < other.nearLimit
        ? `it keeps ${other.nearLimit - best.nearLimit} more container(s) under the target share of a partition's limits (worth up to ${percent(HEADROOM_PREMIUM)} more)`
        : best.frequentFanOuts < other.frequentFanOuts
          ? `it fans out ${other.frequentFanOuts - best.frequentFanOuts} frequent read(s) fewer over every partition (the prompt's rule; worth up to ${percent(FAN_OUT_AVOIDANCE_PREMIUM)} more)`
          : best.fanOutReads < other.fanOutReads &&
              other.monthlyCostUSD >= best.monthlyCostUSD * (1 - TIE_SHARE)
            ? `within ${Math.round(TIE_SHARE * 100)}% of its cost, the key that keeps ${other.fanOutReads - best.fanOutReads} more read(s) in one partition wins`
            : best.monthlyCostUSD - other.monthlyCostUSD <=
                Math.min(best.monthlyCostUSD * MIN_SAVING_SHARE, MIN_SAVING_USD)
              ? `it saves less than ${usd(MIN_SAVING_USD)} or ${MIN_SAVING_SHARE * 100}% a month, not worth a change`
              : preferred
                ? `the prompt prefers this move when it costs at most ${percent(PREFERENCE_PREMIUM)} more`
                : "the search keeps the candidate that beat those compared before it, two at a time, and this one did";
  return `; ${cheaper.name} (${usd(other.monthlyCostUSD)}/month) is cheaper, but ${reason}`;
}

/**
 * The hard-limit errors of a scored model in a few words each, by pattern id and container name
 * ("Q6's fan-out over posts cannot scale"), never internal codes or index paths.
 */
export function remainingErrors(scored: Scored): string {
  return briefIssues(scored.evaluation.issues.filter((issue) => issue.severity === "error"));
}
