/**
 * Designs a model for a workload: a search from the baseline (one container per entity) through
 * the rules of the expert prompt, each step evaluated with the same planner and cost model as
 * `evaluate`, keeping the cheapest model that respects every hard limit, with its reasons.
 * Entities that no relationship connects are designed independently, which keeps the search
 * linear in the size of the workload.
 */
import { formatPath } from "../common/issues.js";
import type { DetailedEvaluation, EvaluateOptions } from "../cost/evaluate.js";
import type { Container, Model } from "../model/types.js";
import { withExplicitIndexing } from "../planner/explicit-indexing.js";
import type { ReadPattern, Workload } from "../workload/types.js";
import { baselineModel, distinctItemIds, freshContainerName } from "./model-edits.js";
import { denormalizationCandidates, fanOutCandidates } from "./rules-access.js";
import { atomicPairs, colocation } from "../cost/atomic-writes.js";
import {
  problemContext,
  problemsOf,
  repairCandidates,
  repairMove,
  type Problem,
  type Repaired,
} from "./repair.js";
import {
  aggregateCandidates,
  binningCandidates,
  correlations,
  idCandidates,
  lookupCandidates,
  mergeCandidates,
  sameKeyMergeCandidates,
  partitionKeyCandidates,
} from "./rules-structure.js";
import {
  decide,
  describeScore,
  isBetter,
  scoreModel,
  violations,
  type Decision,
  type Scored,
  type SearchContext,
} from "./search.js";
import { formatDecimal, formatInteger } from "../common/format-number.js";
import { modelThroughputOf } from "../cost/throughput.js";

export interface DesignOptions extends EvaluateOptions {
  /** Return the naive model (one container per entity, keyed by its key) instead of searching. */
  readonly baseline?: boolean;
  /**
   * Called as the search advances: `done` of `total` steps (each group of related entities
   * passes through the same steps), with what is being decided. For progress reports only.
   */
  readonly onProgress?: (done: number, total: number, step: string) => void;
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

/** Copies, counters and embedded newest children for one read's `with` data, each tried in turn. */
function denormalize(search: SearchContext, start: Scored, pattern: ReadPattern): Scored {
  const { workload, decisions } = search;
  let current = start;
  // Each candidate is built on the model as it is when its turn comes, so an accepted one is
  // never undone by the next (candidates built up front would each start from the same model).
  const tried = new Set<string>();
  for (;;) {
    const candidate = denormalizationCandidates(workload, current.model, current.evaluation, pattern).find(
      (c) => !tried.has(c.name),
    );
    if (candidate === undefined) break;
    tried.add(candidate.name);
    current = decide(
      search,
      current,
      {
        id: `denormalize-${pattern.id}-${decisions.length}`,
        subject: { kind: "denormalize", pattern: pattern.id },
        title: `${pattern.id}: ${candidate.name}?`,
        keepName: "read it at query time",
        context: `${pattern.id} runs ${formatDecimal(pattern.rps.peak)} times/s at peak`,
      },
      [candidate],
    );
  }
  return current;
}

/** Rounds of the hard-limit repairs (a repair can leave a problem for the next round). */
const REPAIR_ROUNDS = 3;

/** What a hard-limit problem is, for decision titles. */
function problemTitle(problem: Problem): string {
  switch (problem.kind) {
    case "hotPartition":
      return `Hot logical partition in ${problem.container}`;
    case "largePartition":
      return `Logical partition over 20 GB in ${problem.container}`;
    case "fanOut":
      return `${problem.pattern} fans out over every partition`;
    default:
      return problem satisfies never;
  }
}

/** Tries every repair move on each hard-limit problem of the model, until none helps. */
function repairLimits(search: SearchContext, start: Scored): Scored {
  const { workload } = search;
  let current = start;
  for (let round = 0; round < REPAIR_ROUNDS && (current.errors > 0 || current.nearLimit > 0); round++) {
    const before = current;
    for (const problem of problemsOf(workload, current.evaluation)) {
      const message = problemContext(current.evaluation, problem);
      if (message === undefined) continue;
      const where = problem.kind === "fanOut" ? problem.pattern : problem.container;
      current = decide(
        search,
        current,
        {
          id:
            problem.kind === "hotPartition"
              ? `shard-${where}${round === 0 ? "" : `-${round + 1}`}`
              : `repair-${problem.kind}-${where}${round === 0 ? "" : `-${round + 1}`}`,
          subject:
            problem.kind === "hotPartition"
              ? { kind: "shard", container: where }
              : { kind: "repair", problem: `${problem.kind} ${where}` },
          title: problemTitle(problem),
          keepName: problem.kind === "hotPartition" ? "one logical partition per key" : "leave it",
          context: message,
        },
        repairCandidates(workload, current.model, current.evaluation, problem, "all"),
      );
    }
    if (current === before) break;
  }
  return current;
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
): Model {
  const singleDecisions: Decision[] = [];
  const single = designComponent(workload, options, singleDecisions, step, false);
  // Moves combined with their repairs are searched when one move at a time leaves something to
  // repair: a hard limit, split atomic writes, a support ticket, no headroom or a frequent fan-out.
  if (
    violations(single) === 0 &&
    single.overMaximum === 0 &&
    single.nearLimit === 0 &&
    single.frequentFanOuts === 0
  ) {
    decisions.push(...singleDecisions);
    for (let skipped = 0; skipped < STEPS_PER_COMPONENT / 2; skipped++) step("done");
    return single.model;
  }
  const combinedDecisions: Decision[] = [];
  const combined = designComponent(workload, options, combinedDecisions, step, true);
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
        },
        {
          name: names.single,
          rusPeak: single.rusPeak,
          monthlyCostUSD: single.monthlyCostUSD,
          errors: single.errors,
        },
      ],
      why: `searching with ${names.combined} reached ${describeScore(combined)}; searching ${names.single} reached ${describeScore(single)}: the decisions above are those of the better search`,
    });
  }
  return kept.model;
}

function designComponent(
  workload: Workload,
  options: EvaluateOptions,
  decisions: Decision[],
  step: (label: string) => void,
  combineMoves: boolean,
): Scored {
  const ownRepairs = new WeakMap<Scored, Repaired>();
  const search: SearchContext = {
    workload,
    options,
    decisions,
    ...(combineMoves
      ? {
          repair: (scored: Scored, reference: Scored | undefined) => {
            // The current model's own repairs are asked for at every decision it survives.
            if (reference !== undefined) return repairMove(workload, options, scored, reference);
            const known = ownRepairs.get(scored) ?? repairMove(workload, options, scored, undefined);
            ownRepairs.set(scored, known);
            return known;
          },
        }
      : {}),
  };
  let current: Scored = scoreModel(workload, baselineModel(workload), options);
  const correlation = correlations(workload);
  // 1. Aggregates, most correlated pairs first.
  step("aggregates");
  const pairs = [...workload.relationships].sort(
    (a, b) =>
      (correlation.get(`${b.parent}>${b.child}`) ?? 0) - (correlation.get(`${a.parent}>${a.child}`) ?? 0),
  );
  for (const relationship of pairs) {
    const share = correlation.get(`${relationship.parent}>${relationship.child}`) ?? 0;
    current = decide(
      search,
      current,
      {
        id: `aggregate-${relationship.parent}-${relationship.child}`,
        subject: {
          kind: "aggregate",
          parent: relationship.parent,
          child: relationship.child,
          correlation: share,
          identifying: relationship.owned,
        },
        title: `${relationship.parent} and ${relationship.child}: one aggregate or separate items?`,
        keepName: `keep ${relationship.child} where it is`,
        context: `${Math.round(share * 100)}% of requests touching the pair need both (prompt thresholds: over 50% consolidate, under 30% separate); ${relationship.max === undefined ? "unbounded" : `at most ${relationship.max}`} ${relationship.child} per ${relationship.parent}${relationship.owned ? ", identifying" : ""}`,
      },
      aggregateCandidates(workload, current.model, relationship, share, combineMoves),
    );
  }
  // 2. Uniqueness through lookup items.
  step("unique attributes");
  for (const entity of workload.entities) {
    current = decide(
      search,
      current,
      {
        id: `unique-${entity.name}`,
        subject: { kind: "unique", entity: entity.name },
        title: `Unique ${entity.name} attributes`,
        keepName: "query by the attribute",
        context:
          "a unique key policy only holds within one logical partition; a lookup item keyed by the value holds across all",
      },
      lookupCandidates(workload, current.model, entity.name),
    );
  }
  // 3. Partition keys.
  step("partition keys");
  for (const container of current.model.containers) {
    current = decide(
      search,
      current,
      {
        id: `key-${container.name}`,
        subject: { kind: "partitionKey", container: container.name },
        title: `Partition key of ${container.name}`,
        keepName: `${container.name} by ${container.partitionKey.join(", ")}`,
        context: "a key with many distinct values that the frequent filters give",
      },
      partitionKeyCandidates(workload, current.model, container.name),
    );
  }
  // Ids that turn single-item reads into point reads.
  for (const entity of workload.entities) {
    current = decide(
      search,
      current,
      {
        id: `id-${entity.name}`,
        subject: { kind: "id", entity: entity.name },
        title: `Id of ${entity.name} items`,
        keepName: `id = {${entity.key}}`,
        context: "a read that identifies one item by other attributes",
      },
      idCandidates(workload, current.model, entity.name),
    );
  }
  // 4. Binning of small records written often per key.
  step("binning");
  for (const entity of workload.entities) {
    current = decide(
      search,
      current,
      {
        id: `bucket-${entity.name}`,
        subject: { kind: "binning", entity: entity.name },
        title: `Binning ${entity.name} records`,
        keepName: "one item per record",
        context: "many small records written per key and read in time order",
      },
      binningCandidates(workload, current.model, entity.name),
    );
  }
  // 5. Denormalization, then 6. fan-out removal, busiest patterns first.
  step("denormalization");
  const reads = workload.accessPatterns
    .filter((p) => p.type === "read")
    .sort((a, b) => b.rps.peak - a.rps.peak);
  for (const pattern of reads) {
    if (pattern.type !== "read") continue;
    current = denormalize(search, current, pattern);
  }
  step("fan-out removal");
  for (const pattern of reads) {
    if (pattern.type !== "read") continue;
    current = decide(
      search,
      current,
      {
        id: `fan-out-${pattern.id}`,
        subject: { kind: "fanOut", pattern: pattern.id },
        title: `${pattern.id} without fan-out`,
        keepName: "accept the fan-out",
        context: `${pattern.id} queries every physical partition as modeled`,
      },
      fanOutCandidates(workload, current.model, current.evaluation, pattern),
    );
    // The new copy may need denormalized data of its own source.
    current = denormalize(search, current, pattern);
  }
  // 7. Hard limits still broken: hot and oversized logical partitions, fan-outs that cannot
  // scale; every repair move is tried (each with the repairs of what it breaks in turn).
  step("hard limits");
  current = repairLimits(search, current);
  // 8. Containers whose items are all read by id may share one (one minimum throughput).
  step("containers that can share one");
  current = decide(
    search,
    current,
    {
      id: "consolidate-containers",
      subject: { kind: "consolidateContainers" },
      title: "Containers that can share one",
      keepName: "one container per aggregate",
      context: "every container pays its own minimum throughput",
    },
    [...mergeCandidates(current.model), ...sameKeyMergeCandidates(current.model, workload, correlation)],
  );
  return current;
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

/** Writes the derived indexing policy and the recommended throughput into the model. */
function finalize(
  workload: Workload,
  model: Model,
  evaluation: DetailedEvaluation,
  pinThroughput: boolean,
): Model {
  return {
    ...model,
    containers: withExplicitIndexing(workload, distinctItemIds(model)).containers.map((container) => {
      const evaluated = evaluation.containers.find((c) => c.name === container.name)?.throughput;
      return {
        ...container,
        ...(!pinThroughput || evaluated === undefined || container.throughput !== undefined
          ? {}
          : { throughput: modelThroughputOf(evaluated) }),
      };
    }),
  };
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
  let containers: Container[] = [];
  const components = connectedComponents(workload);
  let steps = 0;
  const total = components.length * STEPS_PER_COMPONENT;
  for (const entities of components) {
    const part = designGroup(subWorkload(workload, entities), options, decisions, (label) => {
      options.onProgress?.(Math.min(steps, total), total, `${label} (${entities.join(", ")})`);
      steps++;
    });
    // Names are unique per component; rename clashes across components (and their sources).
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
  let model: Model = applyTtl(workload, { version: 1, containers }, decisions);
  let designed = scoreModel(workload, model, options);
  if (!(
    violations(designed) < violations(baseline) ||
    (violations(designed) === violations(baseline) && designed.monthlyCostUSD <= baseline.monthlyCostUSD)
  )) {
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
        },
        {
          name: "the baseline",
          rusPeak: baseline.rusPeak,
          monthlyCostUSD: baseline.monthlyCostUSD,
          errors: baseline.errors,
        },
      ],
      why: `the searched design (${describeScore(designed)}) is no better than the baseline (${describeScore(baseline)})`,
    });
    designed = baseline;
    model = baseline.model;
  }
  // The written throughput and indexing must not make the model worse than the one evaluated:
  // pinned RU/s fix the partition count, and where the explicit indexing changes the load by a
  // little, the RU/s computed before may leave the busiest partition just over its limit. Then
  // the throughput stays to the evaluation (unpinned), or the model stays as it was searched.
  // Pinned autoscale RU/s also fix the partitions at creation (max RU/s / 10,000), which can
  // multiply a fan-out's cost: the written model may not cost more than the searched one either.
  const worse = (scored: Scored): boolean =>
    violations(scored) > violations(designed) ||
    scored.monthlyCostUSD > designed.monthlyCostUSD * (1 + FINALIZED_COST_TOLERANCE);
  const finalized = finalize(workload, model, designed.evaluation, true);
  let final = scoreModel(workload, finalized, options);
  if (worse(final)) {
    const indexedOnly = finalize(workload, model, designed.evaluation, false);
    final = scoreModel(workload, indexedOnly, options);
    model = worse(final) ? model : indexedOnly;
    if (model !== indexedOnly) final = designed;
  } else model = finalized;
  decisions.push({
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
  });
  decisions.push(...atomicityDecisions(workload, model));
  const unmet = final.evaluation.issues.filter((issue) => issue.severity === "error");
  if (unmet.length > 0) {
    decisions.push({
      id: "unmet-limits",
      subject: { kind: "unmetLimits", errors: unmet.length },
      title: "Hard limits the design does not meet",
      chosen: `${unmet.length} hard-limit error(s) remain`,
      alternatives: [],
      why: `no candidate the search tried removes ${unmet.length === 1 ? "it" : "them"}: ${unmet.map((issue) => `${formatPath(issue.path)}: ${issue.message}`).join(" | ")}`,
    });
  }
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
