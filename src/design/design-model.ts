/**
 * Designs a model for a workload: a search from the baseline (one container per entity) through
 * the rules of the expert prompt, each step evaluated with the same planner and cost model as
 * `evaluate`, keeping the cheapest model that respects every hard limit, with its reasons.
 * Entities that no relationship connects are designed independently, which keeps the search
 * linear in the size of the workload.
 */
import { designSearchPolicies } from "./search-decisions.js";
import { briefIssue } from "../common/brief-issue.js";
import type { EvaluationIssue } from "../common/issues.js";
import { evaluateModel, type DetailedEvaluation, type EvaluateOptions } from "../cost/evaluate.js";
import { hotReplicatedKeyWhy } from "./unmet-limits.js";
import { horizonDecision } from "./horizon.js";
import type { Container, Model } from "../model/types.js";
import { createPlanningContext } from "../planner/context.js";
import { withExplicitIndexing } from "../planner/explicit-indexing.js";
import { deriveIndexingPolicy, usedIndexingPolicy } from "../planner/indexing.js";
import type { Workload } from "../workload/types.js";
import { baselineModel, distinctItemIds, freshContainerName } from "./model-edits.js";
import { syntheticKeyPaths } from "./key-paths.js";
import { changeFeedSources, expiringItems } from "../cost/soundness.js";
import { atomicPairs, colocation } from "../cost/atomic-writes.js";
import { designComponent } from "./design-component.js";
import { chooseIntegratedCache } from "./integrated-cache-move.js";
import {
  describeScore,
  isBetter,
  scoreModel,
  violations,
  type Decision,
  type Scored,
  type SearchBudget,
} from "./search.js";
import { formatInteger } from "../common/format-number.js";
import { modelThroughputOf } from "../cost/throughput.js";

export interface DesignOptions extends EvaluateOptions {
  /** Return the naive model (one container per entity, keyed by its key) instead of searching. */
  readonly baseline?: boolean;
  /**
   * Called as the search advances: `done` of `total` steps (each group of related entities
   * passes through the same steps), with what is being decided. For progress reports only.
   */
  readonly onProgress?: (done: number, total: number, step: string) => void;
  /**
   * Work the search may spend scoring candidates, in evaluated elements (see `SearchBudget`);
   * default `designWorkBudget(workload)`.
   */
  readonly workBudget?: number;
  /**
   * Evaluate the chosen model at 1x, 3x and 10x the horizon's data and traffic and design the
   * first scale that breaks it (the `horizon` decision); default true.
   */
  readonly horizon?: boolean;
}

/**
 * The search's work for small workloads, in scoring work (see `SearchBudget`): the full search.
 * The six examples spend at most 54 per element (805 in all), random workloads of 20 entities
 * 90 to 250 (up to 20,000). Scoring costs 0.2 to 0.3 ms of CPU per unit on the shared 2-core
 * machine (2026-11-25).
 */
export const DESIGN_WORK_FLOOR = 25_000;
/** Elements (entities plus access patterns) up to which a workload keeps the whole floor. */
export const FULL_SEARCH_ELEMENTS = 250;
/**
 * What the evaluations every design makes besides its search cost per element (the baseline, each
 * group's start, the chosen model, the integrated cache's candidates, the written model at 1x,
 * 3x and 10x), in the same units: on a random 200-entity workload (850 elements, 2026-11-29) they
 * took 4.9 s of its 10 s design, against 0.21 ms per unit of the search (27 units per element).
 * Past {@link FULL_SEARCH_ELEMENTS}, they are taken from the search's floor, so that the whole
 * design's time grows no faster than the workload.
 */
export const FIXED_WORK_PER_ELEMENT = 27;
/**
 * The least the search gets per element, however large the workload: design stays linear in its
 * size (500 entities and 2,000 patterns: 37,500 units, about 8 s of scoring besides the fixed
 * evaluations).
 */
export const DESIGN_WORK_PER_ELEMENT = 15;

/**
 * The work the design search of `workload` may spend (see `DesignOptions.workBudget`): the floor,
 * less the fixed evaluations of the elements past {@link FULL_SEARCH_ELEMENTS}, and never less
 * than {@link DESIGN_WORK_PER_ELEMENT} per element. Past it the search stops scoring candidates
 * and keeps the best model found so far. Measured on 12 random workloads of 40 to 200 entities
 * (seed 7, 2026-11-29) against the floor alone: 10 designs the same in cost and errors, one with
 * 10 fewer hard-limit errors (a search cut sooner in one group leaves more to the next) and one
 * dearer by 0.005%; the 200-entity designs took 40% less time (`npm run bench`: design-speed).
 */
export function designWorkBudget(workload: Workload): number {
  const elements = workload.entities.length + workload.accessPatterns.length;
  return Math.max(
    DESIGN_WORK_PER_ELEMENT * elements,
    DESIGN_WORK_FLOOR - FIXED_WORK_PER_ELEMENT * Math.max(0, elements - FULL_SEARCH_ELEMENTS),
  );
}

/**
 * The steps of the search per group of related entities: the numbered steps of designComponent,
 * twice (moves combined with their repairs, and one at a time).
 */
const STEPS_PER_COMPONENT = 16;

export interface DesignResult {
  readonly model: Model;
  readonly evaluation: DetailedEvaluation;
  readonly decisions: readonly Decision[];
  /** The naive model's figures, for comparison. */
  readonly baseline: { readonly monthlyCostUSD: number; readonly rusPeak: number; readonly errors: number };
}

/** Groups entities connected by relationships (or by `with` references). */
export function connectedComponents(workload: Workload): string[][] {
  const parent = new Map(workload.entities.map((e) => [e.name, e.name]));
  const find = (name: string): string => {
    let root = name;
    while (parent.get(root) !== root) root = parent.get(root) ?? root;
    parent.set(name, root);
    return root;
  };
  const union = (a: string, b: string): void => {
    if (parent.has(a) && parent.has(b)) parent.set(find(a), find(b));
  };
  for (const r of workload.relationships) union(r.parent, r.child);
  for (const p of workload.accessPatterns)
    if (p.type === "read") for (const w of p.with) union(p.entity, w.entity);
  // Writes that must commit together are designed together.
  for (const pair of atomicPairs(workload)) union(pair.entity, pair.partnerEntity);
  const groups = new Map<string, string[]>();
  for (const entity of workload.entities) {
    const root = find(entity.name);
    groups.set(root, [...(groups.get(root) ?? []), entity.name]);
  }
  return [...groups.values()];
}

/** The part of a workload about some entities. */
function subWorkload(workload: Workload, entities: readonly string[]): Workload {
  const set = new Set(entities);
  return {
    ...workload,
    entities: workload.entities.filter((e) => set.has(e.name)),
    relationships: workload.relationships.filter((r) => set.has(r.parent) && set.has(r.child)),
    accessPatterns: workload.accessPatterns.filter((p) => set.has(p.entity)),
  };
}

/**
 * One group of related entities, searched one move at a time and, when that leaves something
 * to repair, again combining moves (each candidate scored after the repairs of what it broke).
 * Repairs let a move that needs a second one through, but an early move made valid that way can
 * also close a cheaper path; the better of the two searches is kept, and a decision says so when
 * they differ.
 */
function designGroup(
  workload: Workload,
  options: EvaluateOptions,
  decisions: Decision[],
  step: (label: string) => void,
  budget: SearchBudget,
): Model {
  const singleDecisions: Decision[] = [];
  const single = designComponent(workload, options, singleDecisions, step, false, budget);
  // Moves combined with their repairs are searched when one move at a time leaves something to
  // repair: a hard limit, split atomic writes, a support ticket, no headroom or a frequent fan-out;
  // or when it only met the limits in its last step, by spreading or relieving a partition (or
  // removing a fan-out) of the model it reached: an earlier move combined with its repair may
  // meet them for less (and the budget is not spent).
  if (
    (violations(single) === 0 &&
      single.overMaximum === 0 &&
      single.nearLimit === 0 &&
      single.frequentFanOuts === 0 &&
      !repairedLast(singleDecisions) &&
      !refusedCheaperKey(singleDecisions)) ||
    budget.spent >= budget.units
  ) {
    decisions.push(...singleDecisions);
    for (let skipped = 0; skipped < STEPS_PER_COMPONENT / 2; skipped++) step("done");
    return single.model;
  }
  const combinedDecisions: Decision[] = [];
  const combined = designComponent(workload, options, combinedDecisions, step, true, budget);
  const keepSingle = isBetter(single, combined);
  decisions.push(...(keepSingle ? singleDecisions : combinedDecisions));
  const [kept, other] = keepSingle ? [single, combined] : [combined, single];
  if (describeScore(kept) !== describeScore(other)) {
    const entities = workload.entities.map((e) => e.name);
    const names = {
      combined: "moves combined with the repairs of what they break",
      single: "one move at a time",
    };
    decisions.push({
      id: `search-${entities.join("-")}`,
      subject: { kind: "search", entities, combinedMoves: !keepSingle },
      title: `How the search moved (${entities.join(", ")})`,
      chosen: keepSingle ? names.single : names.combined,
      alternatives: [
        {
          name: names.combined,
          rusPeak: combined.rusPeak,
          monthlyCostUSD: combined.monthlyCostUSD,
          errors: combined.errors,
          unsound: combined.unsound,
        },
        {
          name: names.single,
          rusPeak: single.rusPeak,
          monthlyCostUSD: single.monthlyCostUSD,
          errors: single.errors,
          unsound: single.unsound,
        },
      ],
      why: `searching with ${names.combined} reached ${describeScore(combined)}; searching ${names.single} reached ${describeScore(single)}: the decisions above are those of the better search`,
    });
  }
  return kept.model;
}

/**
 * True when the search's last step (the repairs of hard limits and headroom) changed the model: a
 * `shard` or `repair` decision that chose another model than the one it kept (its first
 * alternative).
 */
/**
 * A partition key chosen over a cheaper one that broke capacity limits only (a hot or large
 * partition, not an unsound model): a repair of the cheaper key (replicas, shards, a copy) may
 * meet the limits for less, which only moves combined with their repairs find (work-orders: keyed
 * by the order with a copy per company in 4 replicas and 4 shards, $1,836 a month, against the
 * hierarchical key one move at a time reaches, $4,788).
 */
function refusedCheaperKey(decisions: readonly Decision[]): boolean {
  return decisions.some((d) => {
    if (d.subject.kind !== "partitionKey") return false;
    const chosen = d.alternatives.find((a) => a.name === d.chosen);
    if (chosen === undefined) return false;
    return d.alternatives.some(
      (a) => a.errors > 0 && a.unsound === 0 && a.monthlyCostUSD < chosen.monthlyCostUSD,
    );
  });
}

function repairedLast(decisions: readonly Decision[]): boolean {
  return decisions.some(
    (d) =>
      (d.subject.kind === "shard" || d.subject.kind === "repair") && d.chosen !== d.alternatives[0]?.name,
  );
}

/** TTL: the container default when all its items expire alike, else per item type. */
function applyTtl(workload: Workload, model: Model, decisions: Decision[]): Model {
  const ttlOf = (entity: string): number | undefined =>
    workload.entities.find((e) => e.name === entity)?.ttlSeconds;
  const containers = model.containers.map((container): Container => {
    const ttls = container.items.map((i) => ttlOf(i.entity));
    if (ttls.every((t) => t === undefined)) return container;
    const first = ttls[0];
    if (ttls.every((t) => t === first) && first !== undefined) {
      decisions.push({
        id: `ttl-${container.name}`,
        subject: { kind: "ttl", container: container.name },
        title: `Expiry in ${container.name}`,
        chosen: `defaultTtl ${first} s`,
        alternatives: [],
        why: `every item of ${container.name} expires ${first} s after its last write: TTL deletes them with spare RUs instead of delete requests`,
      });
      return { ...container, defaultTtl: first };
    }
    decisions.push({
      id: `ttl-${container.name}`,
      subject: { kind: "ttl", container: container.name },
      title: `Expiry in ${container.name}`,
      chosen: "defaultTtl -1 with a ttl per item type",
      alternatives: [],
      why: "item types of this container expire differently (or not at all): TTL is on, each item type sets its own",
    });
    return {
      ...container,
      defaultTtl: -1,
      items: container.items.map((i) => {
        const ttl = ttlOf(i.entity);
        return ttl === undefined ? i : { ...i, ttl };
      }),
    };
  });
  return { ...model, containers };
}

/** How much more the written model (pinned RU/s, explicit indexing) may cost than the searched one. */
const FINALIZED_COST_TOLERANCE = 0.01;

/**
 * What every written model has, finalized or not: a lease container when derived data is kept from
 * the change feed, and TTL on where items expire (soft-delete tombstones, item types' own).
 */
function withRequiredInfrastructure(workload: Workload, model: Model, evaluation: DetailedEvaluation): Model {
  const needsLeases =
    model.leases === undefined && changeFeedSources(evaluation.patterns.map((p) => p.plan)).length > 0;
  const needsTtl = (container: Container): boolean =>
    container.defaultTtl === undefined && expiringItems(workload, model, container).length > 0;
  // The model itself when it has both already (its evaluation then stands).
  if (!needsLeases && !model.containers.some(needsTtl)) return model;
  return {
    ...model,
    ...(needsLeases ? { leases: freshContainerName(model, "leases") } : {}),
    containers: model.containers.map((container) =>
      needsTtl(container) ? { ...container, defaultTtl: -1 } : container,
    ),
  };
}

/** Writes the derived indexing policy and the recommended throughput into a loadable model. */
function finalize(
  workload: Workload,
  model: Model,
  evaluation: DetailedEvaluation,
  pinThroughput: boolean,
): Model {
  const required = withRequiredInfrastructure(workload, model, evaluation);
  return {
    ...required,
    containers: withExplicitIndexing(workload, required).containers.map((container) => {
      const evaluated = evaluation.containers.find((c) => c.name === container.name)?.throughput;
      // RU/s past what the management API holds are left out by modelThroughputOf (the mode
      // alone is pinned), and the evaluation names the error (evaluate.overContainerMaximum).
      const pinned = evaluated === undefined ? undefined : modelThroughputOf(evaluated);
      return {
        ...container,
        ...(!pinThroughput || pinned === undefined || container.throughput !== undefined
          ? {}
          : { throughput: pinned }),
      };
    }),
  };
}

/**
 * Each group of related entities designed on its own, their containers put together (names
 * made unique across groups, with the sources that point at them).
 */
function designComponents(
  workload: Workload,
  options: DesignOptions,
  decisions: Decision[],
): { readonly containers: Container[]; readonly budget: SearchBudget } {
  let containers: Container[] = [];
  const components = connectedComponents(workload);
  let steps = 0;
  const total = components.length * STEPS_PER_COMPONENT;
  // The work is shared in proportion to each group's size; what a group leaves goes to the next.
  const overall: SearchBudget = {
    units: options.workBudget ?? designWorkBudget(workload),
    spent: 0,
    skipped: 0,
  };
  // (Sizes only: a group's sub-workload, and the evaluation cache that goes with it, lives while
  // the group is designed.)
  let sizeLeft = workload.entities.length + workload.accessPatterns.length;
  for (const entities of components) {
    const sub = subWorkload(workload, entities);
    const size = sub.entities.length + sub.accessPatterns.length;
    const budget: SearchBudget = {
      units: (Math.max(0, overall.units - overall.spent) * size) / Math.max(1, sizeLeft),
      spent: 0,
      skipped: 0,
    };
    sizeLeft -= size;
    const part = designGroup(
      sub,
      options,
      decisions,
      (label) => {
        options.onProgress?.(Math.min(steps, total), total, `${label} (${entities.join(", ")})`);
        steps++;
      },
      budget,
    );
    overall.spent += budget.spent;
    overall.skipped += budget.skipped;
    const renames = new Map<string, string>();
    let taken: Model = { version: 1, containers };
    for (const container of part.containers) {
      const name = freshContainerName(taken, container.name);
      renames.set(container.name, name);
      taken = { version: 1, containers: [...taken.containers, { ...container, name }] };
    }
    containers = [...containers, ...part.containers.map((container) => renameContainer(container, renames))];
  }
  options.onProgress?.(total, total, "final evaluation");
  return { containers, budget: overall };
}

/** The decision that says the search stopped early, when it did. */
function budgetDecisions(budget: SearchBudget): Decision[] {
  if (budget.skipped === 0) return [];
  return [
    {
      id: "search-budget",
      subject: { kind: "searchBudget", units: budget.units, spent: budget.spent, skipped: budget.skipped },
      title: "Search stopped at its work budget",
      chosen: "the best model found before the budget was spent",
      alternatives: [],
      why: `the search may score ${formatInteger(budget.units)} evaluated elements (access patterns plus containers per model scored) and spent ${formatInteger(budget.spent)}: ${formatInteger(budget.skipped)} candidate(s) were not scored, so a cheaper or valid model may exist among them; the decisions above are those made before it stopped`,
    },
  ];
}

/** The searched design, or the baseline when the search did no better (and a decision says so). */
function betterThanBaseline(designed: Scored, baseline: Scored, decisions: Decision[]): Scored {
  if (
    designed.unsound < baseline.unsound ||
    (designed.unsound === baseline.unsound &&
      (violations(designed) < violations(baseline) ||
        (violations(designed) === violations(baseline) &&
          designed.monthlyCostUSD <= baseline.monthlyCostUSD)))
  )
    return designed;
  decisions.push({
    id: "fallback-baseline",
    subject: { kind: "fallbackBaseline" },
    title: "Design versus baseline",
    chosen: "the baseline",
    alternatives: [
      {
        name: "the searched design",
        rusPeak: designed.rusPeak,
        monthlyCostUSD: designed.monthlyCostUSD,
        errors: designed.errors,
        unsound: designed.unsound,
      },
      {
        name: "the baseline",
        rusPeak: baseline.rusPeak,
        monthlyCostUSD: baseline.monthlyCostUSD,
        errors: baseline.errors,
        unsound: baseline.unsound,
      },
    ],
    why: `the searched design (${describeScore(designed)}) is no better than the baseline (${describeScore(baseline)})`,
  });
  return baseline;
}

/**
 * Whether `scored` is worse than `designed` to write: more hard-limit violations, more
 * under-provisioned containers, or a cost over the tolerance.
 */
function worseThan(designed: Scored, scored: Scored): boolean {
  const underProvisioned = (s: Scored): number =>
    s.evaluation.issues.filter((i) => i.code === "evaluate.underProvisioned").length;
  return (
    violations(scored) > violations(designed) ||
    underProvisioned(scored) > underProvisioned(designed) ||
    scored.monthlyCostUSD > designed.monthlyCostUSD * (1 + FINALIZED_COST_TOLERANCE)
  );
}

/**
 * Derived indexing policies cut to the queries each container runs in `evaluation`'s plans
 * (`usedIndexingPolicy`); the model itself when nothing is cut.
 */
function withUsedIndexing(workload: Workload, model: Model, evaluation: DetailedEvaluation): Model {
  const queries = new Map<string, string[]>();
  for (const pattern of evaluation.patterns)
    for (const step of pattern.plan.operations)
      if (step.kind === "query")
        queries.set(step.container, [...(queries.get(step.container) ?? []), step.sql]);
  const context = createPlanningContext(workload, model);
  let changed = false;
  const containers = model.containers.map((container) => {
    if (container.indexing.kind !== "derived") return container;
    const derived = deriveIndexingPolicy(context, container);
    const upkeep = deriveIndexingPolicy(context, container, { reads: false });
    const used = usedIndexingPolicy(derived, upkeep, queries.get(container.name) ?? []);
    if (
      used.included.length === derived.included.length &&
      used.composite.length === derived.composite.length
    )
      return container;
    changed = true;
    return { ...container, indexing: { kind: "custom" as const, ...used } };
  });
  return changed ? { ...model, containers } : model;
}

/**
 * The model as written, with its score: the derived indexing and pinned throughput, unless they
 * make it worse than the one evaluated. Pinned RU/s fix the partition count, and where the
 * explicit indexing changes the load by a little, the RU/s computed before may leave the busiest
 * partition just over its limit: then the throughput stays to the evaluation (unpinned), or the
 * model stays as it was searched (with distinct ids and synthetic key paths, which every written
 * model has). Pinned autoscale RU/s also fix the partitions at creation (max RU/s / 10,000), which
 * can multiply a fan-out's cost: the written model may not cost more than the searched one either,
 * nor leave a container under-provisioned that was not (pinned RU/s whose partitions multiply a
 * fan-out until the peak exceeds them).
 */
function writtenModel(
  workload: Workload,
  searched: Scored,
  options: DesignOptions,
): { readonly model: Model; readonly final: Scored } {
  // What every written model needs, whatever else is kept: distinct ids within a logical
  // partition, and key paths no item type contradicts. The search names a container's path after
  // the attribute it was keyed by (its rules find containers by that path); a lookup item keyed
  // by another attribute may have joined it since.
  const keyed = syntheticKeyPaths(workload, distinctItemIds(searched.model, workload));
  // Indexes cut to the queries each container runs (cheaper writes), tried first: with the
  // throughput evaluated for the cut model, then with the searched model's pinned (fewer index
  // terms can shift a partition count the wrong way, where the searched RU/s still hold).
  const used = withUsedIndexing(workload, keyed, searched.evaluation);
  const scoredUsed = used === keyed ? undefined : scoreModel(workload, used, options);
  const attempts: { loadable: Model; base: Scored }[] = [
    ...(scoredUsed !== undefined && !worseThan(searched, scoredUsed)
      ? [{ loadable: used, base: scoredUsed }]
      : []),
    ...(used === keyed ? [] : [{ loadable: used, base: searched }]),
    { loadable: keyed, base: searched },
  ];
  for (const { loadable, base } of attempts) {
    // A pinned figure under what the pinned layout needs is throttled at peak: cheaper, not
    // better (worseThan counts the under-provisioned containers). The throughput evaluated is
    // pinned: a synthetic key property adds a few bytes per item, and unpinned, such a change can
    // tip a container into another mode and partition count.
    const pinned = finalize(workload, loadable, base.evaluation, true);
    const scoredPinned = scoreModel(workload, pinned, options);
    if (!worseThan(base, scoredPinned)) return { model: pinned, final: scoredPinned };
    // The cut model with the searched throughput is that or nothing.
    if (loadable === used && base === searched) continue;
    const indexedOnly = finalize(workload, loadable, base.evaluation, false);
    const scoredIndexed = scoreModel(workload, indexedOnly, options);
    if (!worseThan(base, scoredIndexed)) return { model: indexedOnly, final: scoredIndexed };
  }
  const required = withRequiredInfrastructure(workload, keyed, searched.evaluation);
  if (required === searched.model) return { model: searched.model, final: searched };
  return { model: required, final: scoreModel(workload, required, options) };
}

/** The throughput chosen per container, and the hard limits left (when any). */
function closingDecisions(
  workload: Workload,
  model: Model,
  final: Scored,
  options: DesignOptions,
): Decision[] {
  const decisions: Decision[] = [
    {
      id: "throughput",
      subject: { kind: "throughput" },
      title: "Throughput per container",
      chosen: final.evaluation.containers
        .map(
          (c) =>
            `${c.name}: ${c.throughput.mode}${c.throughput.provisionedRus > 0 ? ` ${formatInteger(c.throughput.provisionedRus)} RU/s` : ""}`,
        )
        .join("; "),
      alternatives: [],
      why: final.evaluation.containers.map((c) => `${c.name}: ${c.throughput.reason}`).join(" | "),
    },
    ...atomicityDecisions(workload, model),
    ...(options.horizon === false
      ? []
      : [
          horizonDecision(workload, model, options, (scaled) => {
            const { onProgress: _progress, ...rest } = options;
            const next = designModel(scaled, { ...rest, horizon: false });
            return {
              model: next.model,
              monthlyCostUSD: next.evaluation.totals.monthlyCostUSD,
              errors: next.evaluation.issues.filter((issue) => issue.severity === "error").length,
            };
          }),
        ]),
  ];
  const unmet = final.evaluation.issues.filter((issue) => issue.severity === "error");
  if (unmet.length > 0) {
    decisions.push({
      id: "unmet-limits",
      subject: { kind: "unmetLimits", errors: unmet.length },
      title: "Hard limits the design does not meet",
      chosen: `${unmet.length} hard-limit error(s) remain`,
      alternatives: [],
      why: `no candidate the search tried removes ${unmet.length === 1 ? "it" : "them"}: ${unmet.map((issue) => `${briefIssue(issue)}: ${issue.message}`).join(" | ")}${hotKeysWhy(workload, model, final, options, unmet)}`,
    });
  }
  return decisions;
}

/** For each container over a partition limit with replicated hot keys: why no spread fixes it. */
function hotKeysWhy(
  workload: Workload,
  model: Model,
  final: Scored,
  options: DesignOptions,
  unmet: readonly EvaluationIssue[],
): string {
  const hot = new Set(
    unmet.flatMap((issue) =>
      issue.code === "evaluate.hotPartition" || issue.code === "evaluate.hotPhysicalPartition"
        ? [issue.container]
        : [],
    ),
  );
  const whys = [...hot].flatMap((container) => {
    const why = hotReplicatedKeyWhy(workload, model, final.evaluation, options, container, (variant) =>
      evaluateModel(workload, variant, options),
    );
    return why === undefined ? [] : [why];
  });
  return whys.length === 0 ? "" : ` | ${whys.join(" | ")}`;
}

/**
 * Designs the cheapest model that respects every hard limit, with the decisions that led to it.
 * @example designModel(workload).decisions.map((d) => d.chosen)
 */
export function designModel(workload: Workload, options: DesignOptions = {}): DesignResult {
  const baseline = scoreModel(workload, baselineModel(workload), options);
  const baselineFigures = {
    monthlyCostUSD: baseline.monthlyCostUSD,
    rusPeak: baseline.rusPeak,
    errors: baseline.errors,
  };
  if (options.baseline === true) {
    return {
      model: baseline.model,
      evaluation: baseline.evaluation,
      decisions: [],
      baseline: baselineFigures,
    };
  }
  const decisions: Decision[] = [];
  const { containers, budget } = designComponents(workload, options, decisions);
  decisions.push(...budgetDecisions(budget));
  const searched = scoreModel(workload, applyTtl(workload, { version: 1, containers }, decisions), options);
  const designed = chooseIntegratedCache(
    workload,
    betterThanBaseline(searched, baseline, decisions),
    options,
    decisions,
  );
  const written = writtenModel(workload, designed, options);
  // The search policies the evaluation derived, written out with their decisions (the same
  // policies: the figures stay those of `final`).
  const withSearch = designSearchPolicies(workload, written.model, {
    ...options,
    partitions: written.final.evaluation.partitions,
  });
  const { final } = written;
  const model = withSearch.model;
  decisions.push(...withSearch.decisions);
  decisions.push(...closingDecisions(workload, model, final, options));
  return { model, evaluation: final.evaluation, decisions, baseline: baselineFigures };
}

/** One decision per pair of writes that must commit together: one logical partition, or why not. */
function atomicityDecisions(workload: Workload, model: Model): Decision[] {
  return atomicPairs(workload).map((pair) => {
    const where = colocation(workload, model, pair.entity, pair.partnerEntity);
    return {
      id: `atomic-${pair.pattern}-${pair.partner}`,
      subject: { kind: "atomicity", pattern: pair.pattern, partner: pair.partner, together: where.together },
      title: `${pair.pattern} and ${pair.partner} commit together`,
      chosen: where.together
        ? "one logical partition: a transactional batch"
        : "cannot: the items are in different logical partitions",
      alternatives: [],
      why: where.together
        ? `${where.why}, so each request of ${pair.pattern} and its ${pair.partner} are one transactional batch`
        : `${where.why}; a transactional batch only holds items of one logical partition, so ${pair.pattern} and ${pair.partner} cannot commit together in this model (the application needs a compensating step or an idempotent retry)`,
    };
  });
}

/** Applies a component's renames to a container's name and its items' `source` references. */
function renameContainer(container: Container, renames: ReadonlyMap<string, string>): Container {
  return {
    ...container,
    name: renames.get(container.name) ?? container.name,
    items: container.items.map((item) =>
      item.source === undefined
        ? item
        : {
            ...item,
            source: {
              ...item.source,
              container: renames.get(item.source.container) ?? item.source.container,
            },
          },
    ),
  };
}
