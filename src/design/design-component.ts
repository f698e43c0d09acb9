/**
 * The search over one group of related entities: the steps of the expert prompt in order, each a
 * decision between the current model and its candidates (see `decide`).
 */
import { keyTemplate } from "../workload/keys.js";
import type { EvaluateOptions } from "../cost/evaluate.js";
import type { ReadPattern, Workload } from "../workload/types.js";
import { formatDecimal, formatFigure, formatInteger } from "../common/format-number.js";
import { identifyingRelationshipCheck } from "../analysis/aggregate-analysis.js";
import { baselineModel, editItem, removeItem } from "./model-edits.js";
import { denormalizationCandidates, fanOutCandidates } from "./rules-access.js";
import { counterContext } from "./parent-counters.js";
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
  mergePairs,
  sameKeyMergePairs,
  candidateOfPair,
  partitionKeyCandidates,
} from "./rules-structure.js";
import {
  decide,
  scoreModel,
  type Candidate,
  type Decision,
  type Scored,
  type SearchBudget,
  type SearchContext,
} from "./search.js";

/**
 * What the steps of one search share. Combining moves, every candidate is scored after the
 * repairs of what it broke; the current model's own repairs are computed once per model.
 */
function searchContextOf(
  workload: Workload,
  options: EvaluateOptions,
  decisions: Decision[],
  combineMoves: boolean,
  budget: SearchBudget,
): SearchContext {
  const ownRepairs = new WeakMap<Scored, Repaired>();
  return {
    workload,
    options,
    decisions,
    budget,
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
}

/** Relationship-correlated reads, as shares of the requests touching each parent>child pair. */
type Correlations = ReturnType<typeof correlations>;

/** 1. Aggregates: each parent-child pair, most correlated first. */
function chooseAggregates(
  search: SearchContext,
  start: Scored,
  correlation: Correlations,
  combineMoves: boolean,
): Scored {
  const { workload } = search;
  let current = start;
  const pairs = [...workload.relationships].sort(
    (a, b) =>
      (correlation.get(`${b.parent}>${b.child}`) ?? 0) - (correlation.get(`${a.parent}>${a.child}`) ?? 0),
  );
  for (const relationship of pairs) {
    const share = correlation.get(`${relationship.parent}>${relationship.child}`) ?? 0;
    // The documents' classification of the relationship (the prompt's check), not `owned` alone.
    const identifying = identifyingRelationshipCheck(workload, relationship).useIdentifyingRelationship;
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
          identifying,
        },
        title: `${relationship.parent} and ${relationship.child}: one aggregate or separate items?`,
        keepName: `keep ${relationship.child} where it is`,
        context: `${formatFigure(share * 100, { decimals: 0 })}% of requests touching the pair need both (prompt thresholds: over 50% consolidate, under 30% separate); ${relationship.max === undefined ? "unbounded" : `at most ${formatInteger(relationship.max)}`} ${relationship.child} per ${relationship.parent}${identifying ? ", an identifying relationship" : relationship.owned ? `, owned by its ${relationship.parent} but not an identifying relationship` : ""}`,
      },
      aggregateCandidates(workload, current.model, relationship, share, combineMoves),
    );
  }
  return current;
}

/** 2. Uniqueness through lookup items. */
function chooseLookups(search: SearchContext, start: Scored): Scored {
  const { workload } = search;
  let current = start;
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
  return current;
}

/** 3. Partition keys, then ids that turn single-item reads into point reads. */
function chooseKeysAndIds(search: SearchContext, start: Scored): Scored {
  const { workload } = search;
  let current = start;
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
        keepName: `id = ${keyTemplate(entity.key)}`,
        context: "a read that identifies one item by other attributes",
      },
      idCandidates(workload, current.model, entity.name),
    );
  }
  return current;
}

/** 4. Binning of small records written often per key. */
function chooseBinning(search: SearchContext, start: Scored): Scored {
  const { workload } = search;
  let current = start;
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
  return current;
}

/** 5. Denormalization, then 6. fan-out removal, busiest patterns first. */
function chooseReadPaths(search: SearchContext, start: Scored, step: (label: string) => void): Scored {
  const { workload } = search;
  let current = start;
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
  return current;
}

/** 8. Containers whose items are all read by id may share one (one minimum throughput). */
function consolidateContainers(search: SearchContext, current: Scored, correlation: Correlations): Scored {
  const { workload } = search;
  return decide(
    search,
    current,
    {
      // One per group of related entities: the group names it, so no two decisions read alike.
      id: `consolidate-containers-${workload.entities.map((e) => e.name).join("-")}`,
      subject: { kind: "consolidateContainers" },
      title: `Containers of ${workload.entities.map((e) => e.name).join(", ")} that can share one`,
      keepName: "one container per aggregate",
      context: "every container pays its own minimum throughput",
    },
    boundedMerges(current, [
      ...mergePairs(current.model),
      ...sameKeyMergePairs(current.model, workload, correlation),
    ]).map(candidateOfPair),
  );
}

/**
 * Consolidations scored per container of the model, and at least MIN_MERGES: 45 is every pair of
 * 10 containers (10 x 9 / 2), so a model of up to 10 containers (every example's) scores all its
 * pairs as before the bound; 4 per container keeps the bound linear beyond.
 */
const MERGES_PER_CONTAINER = 4;
const MIN_MERGES = 45;

/**
 * The consolidations worth scoring: every pair while there are at most MERGES_PER_CONTAINER per
 * container (or MIN_MERGES), else that many pairs, those with the least RU/s at peak between their
 * two containers (a merge pays when it saves a small container's minimum throughput), in their
 * order. Pairs of containers grow with the square of the containers: scoring them all would make
 * the design quadratic in the workload's size.
 */
export function boundedMerges<T extends Pick<Candidate, "merges">>(
  current: Scored,
  candidates: readonly T[],
): readonly T[] {
  const limit = Math.max(MIN_MERGES, MERGES_PER_CONTAINER * current.model.containers.length);
  if (candidates.length <= limit) return candidates;
  const peak = new Map(current.evaluation.containers.map((c) => [c.name, c.rus.peak]));
  const pairPeak = (candidate: T): number =>
    candidate.merges === undefined
      ? Number.POSITIVE_INFINITY
      : (peak.get(candidate.merges[0]) ?? 0) + (peak.get(candidate.merges[1]) ?? 0);
  const kept = new Set(
    candidates
      .map((candidate, index) => ({ candidate, index, peak: pairPeak(candidate) }))
      .sort((a, b) => a.peak - b.peak || a.index - b.index)
      .slice(0, limit)
      .map((entry) => entry.candidate),
  );
  return candidates.filter((candidate) => kept.has(candidate));
}

/**
 * Copies, counters and embedded newest children for one read's `with` data, each tried in turn.
 * The step runs again after the fan-out removal (a new copy may need data of its own, and a
 * candidate refused before may pay on the model as it is now): a candidate decided again
 * replaces its earlier decision, so no decision is listed twice.
 */
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
    const title = `${pattern.id}: ${candidate.name}?`;
    const earlier = decisions.findIndex(
      (d) => (d.subject.kind === "denormalize" || d.subject.kind === "counter") && d.title === title,
    );
    if (earlier >= 0) decisions.splice(earlier, 1);
    const { counter } = candidate;
    const id = `denormalize-${pattern.id}-${candidate.name.replace(/[^A-Za-z0-9]+/g, "-")}`;
    current = decide(
      search,
      current,
      counter === undefined
        ? {
            id,
            subject: { kind: "denormalize", pattern: pattern.id },
            title,
            keepName: "read it at query time",
            context: `${pattern.id} runs ${formatDecimal(pattern.rps.peak)} times/s at peak`,
          }
        : {
            // A count of the parent's children: a counter on the parent, or a count at read time.
            id,
            subject: {
              kind: "counter",
              pattern: pattern.id,
              container: counter.container,
              itemType: counter.itemType,
              child: counter.child,
            },
            title,
            keepName: `count ${counter.child} at read time`,
            context: (compared) => counterContext(workload, pattern, counter, compared),
          },
      [{ name: candidate.name, model: candidate.model }],
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

/**
 * Each copy of the model reached is weighed once more against dropping it (its reads then take
 * another path, with the repairs of what that breaks when moves are combined): a copy chosen
 * early for one read, or spread later to keep a partition's headroom, may no longer pay for its
 * upkeep once the other steps are taken.
 */
function pruneCopies(search: SearchContext, start: Scored): Scored {
  let current = start;
  // Copied item types first: dropping one changes which copied attributes its readers need.
  for (const container of start.model.containers)
    for (const item of container.items)
      if (item.source !== undefined) current = pruneCopy(search, current, container.name, item.type);
  for (const container of current.model.containers)
    for (const item of container.items)
      for (const copy of item.copies)
        current = pruneCopiedAttribute(search, current, container.name, item.type, copy.as);
  return current;
}

const COPY_CONTEXT =
  "a copy costs its upkeep on every write of its source; without it, its reads take another path";

function pruneCopy(search: SearchContext, current: Scored, container: string, itemType: string): Scored {
  const holder = current.model.containers.find((c) => c.name === container);
  if (holder?.items.some((item) => item.type === itemType) !== true) return current;
  return decide(
    search,
    current,
    {
      id: `copy-${container}-${itemType}`,
      subject: { kind: "copy", container, itemType },
      title: `Keep the copy ${itemType} in ${container}?`,
      keepName: "keep the copy",
      context: COPY_CONTEXT,
    },
    [
      {
        name: `drop the copy ${container}/${itemType}`,
        model: removeItem(current.model, container, itemType),
      },
    ],
  );
}

function pruneCopiedAttribute(
  search: SearchContext,
  current: Scored,
  container: string,
  itemType: string,
  as: string,
): Scored {
  const item = current.model.containers
    .find((c) => c.name === container)
    ?.items.find((i) => i.type === itemType);
  const copy = item?.copies.find((c) => c.as === as);
  if (copy === undefined) return current;
  return decide(
    search,
    current,
    {
      id: `copy-${container}-${itemType}-${as}`,
      subject: { kind: "copy", container, itemType },
      title: `Keep ${copy.from.entity}.${copy.from.attribute} copied into ${itemType} as ${as}?`,
      keepName: "keep the copy",
      context: COPY_CONTEXT,
    },
    [
      {
        name: `drop ${itemType}.${as} (read ${copy.from.entity}.${copy.from.attribute} at query time)`,
        model: editItem(current.model, container, itemType, (i) => ({
          ...i,
          copies: i.copies.filter((c) => c.as !== as),
        })),
      },
    ],
  );
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
          // A problem left for the next round is decided again: its title says which round.
          title: `${problemTitle(problem)}${round === 0 ? "" : ` (round ${round + 1})`}`,
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
 * Searches one group of related entities from its baseline, step by step (each step calls
 * `step` once: designModel's progress counts them).
 */
export function designComponent(
  workload: Workload,
  options: EvaluateOptions,
  decisions: Decision[],
  step: (label: string) => void,
  combineMoves: boolean,
  budget: SearchBudget,
): Scored {
  const search = searchContextOf(workload, options, decisions, combineMoves, budget);
  const correlation = correlations(workload);
  let current: Scored = scoreModel(workload, baselineModel(workload), options);
  step("aggregates");
  current = chooseAggregates(search, current, correlation, combineMoves);
  step("unique attributes");
  current = chooseLookups(search, current);
  step("partition keys");
  current = chooseKeysAndIds(search, current);
  step("binning");
  current = chooseBinning(search, current);
  step("denormalization");
  current = chooseReadPaths(search, current, step);
  // 7. Hard limits still broken: hot and oversized logical partitions, fan-outs that cannot
  // scale; every repair move is tried (each with the repairs of what it breaks in turn).
  step("hard limits");
  current = repairLimits(search, current);
  current = pruneCopies(search, current);
  step("containers that can share one");
  return consolidateContainers(search, current, correlation);
}
