/**
 * The physical partition count of each container as a least fixed point: a container's count
 * follows its RU/s (and storage), and its RU/s can depend on the count (a query that fans out
 * to every partition costs more per partition). The count P solves P = needed(P), where
 * needed(P) is the layout's count under the load planned at P.
 *
 * Iterating P <- needed(P) converges to the least fixed point from below, but a fan-out that
 * costs almost a partition's worth of RU/s per partition (s = d needed / dP close to 1) creeps:
 * each round adds a fraction s of the round before, so reaching the fixed point takes
 * log(gap) / -log(s) rounds (tens of thousands of partitions, one by one). Here each container
 * jumps to the fixed point of the straight line through its last two iterates (P + (needed(P) - P)
 * / (1 - s), a secant step, exact when the fan-out is linear in P) and bisects down to the least
 * count that needs no more: a bounded number of solves (about twice log2 of the count). A
 * container whose needed count grows as fast as its count (s >= 1) never settles: it stops and
 * is reported (`evaluate.fanOutCannotScale`) instead of being iterated.
 */
import { MAX_PHYSICAL_PARTITIONS, MAX_PHYSICAL_PARTITION_RUS } from "../cosmos/limits.js";
import type { EvaluationIssue } from "../common/issues.js";
import { formatInteger } from "../common/format-number.js";
import type { Container, Model } from "../model/types.js";
import type { Plan, PlanStep } from "../planner/types.js";
import type { Workload } from "../workload/types.js";
import { containerLayout, layoutModeOf } from "./container-layouts.js";
import type { LayoutMode } from "./layout.js";
import type { ContainerLoad } from "./loads.js";
import type { Solved, Solver } from "./solver.js";
import type { ContainerStorage } from "./storage.js";

/**
 * One evaluation's partition search: the counts reached so far (mutable), the containers whose
 * fan-out cannot scale (their count is frozen), each container's storage and the mode whose
 * layout the solve follows (the model's, else the hint; autoscale when there is none).
 */
export interface PartitionSearch {
  readonly workload: Workload;
  readonly model: Model;
  readonly solver: Solver;
  readonly storage: ReadonlyMap<string, ContainerStorage>;
  readonly partitions: Record<string, number>;
  readonly diverging: Set<string>;
  readonly modeHint: Map<string, LayoutMode>;
  readonly issues: EvaluationIssue[];
}

/** How the fixed point ended: the rounds over every container, and whether it settled. */
export interface FixedPointOutcome {
  readonly state: Solved;
  /** Rounds over the containers until none moved (the last one moves none). */
  readonly rounds: number;
  /** Every container needs no more partitions than it has (or was stopped as diverging). */
  readonly settled: boolean;
  /** Solves made for the search (each a re-plan of what the counts it changed reach). */
  readonly solves: number;
}

/**
 * The counts of now with one container's count changed: a view over `partitions` (no copy of
 * every container's count per solve, which was a tenth of what a large design allocated).
 * Read during the solve it is made for.
 */
function countsWith(partitions: Record<string, number>, name: string, count: number): Record<string, number> {
  const view = Object.create(partitions) as Record<string, number>;
  view[name] = count;
  return view;
}

/** Solves one container's search may make (secant jumps, then a bisection; ~2 log2 of the count). */
const MAX_SOLVES_PER_CONTAINER = 160;

/** The partitions `container` needs for `load` in the mode the search follows (its own count when pinned). */
export function neededPartitions(
  search: PartitionSearch,
  load: ContainerLoad | undefined,
  container: Container,
  current: number,
): number {
  if (container.physicalPartitions !== undefined || load === undefined) return current;
  const mode = layoutModeOf(container.throughput, search.modeHint.get(container.name) ?? "autoscale");
  return containerLayout(container, mode, load, search.storage.get(container.name)?.totalGB ?? 0).partitions;
}

/**
 * Physical partitions only ever split, so each count grows until the load fits: per container,
 * the least fixed point from its count of now (`settleContainer`), in rounds over the containers
 * until none moves (a container's count can change another's load).
 */
export function growPartitions(
  search: PartitionSearch,
  initial: Solved,
  maxRounds: number,
): FixedPointOutcome {
  const { model, partitions, diverging } = search;
  // Per container, the load and count at which it last needed no more partitions: with the same
  // load (a load is never changed once built) and count it needs none again.
  const settled = new Map<string, { readonly load: ContainerLoad | undefined; readonly count: number }>();
  let state = initial;
  let solves = 0;
  for (let round = 0; round < maxRounds; round++) {
    let changed = false;
    for (const container of model.containers) {
      if (diverging.has(container.name)) continue;
      const current = partitions[container.name] ?? 1;
      const load = state.loads.get(container.name);
      const last = settled.get(container.name);
      if (last !== undefined && last.load === load && last.count === current) continue;
      const outcome = settleContainer(search, state, container);
      solves += outcome.solves;
      state = outcome.state;
      if ((partitions[container.name] ?? 1) !== current) changed = true;
      else settled.set(container.name, { load, count: current });
    }
    if (!changed) return { state, rounds: round + 1, settled: true, solves };
  }
  return { state, rounds: maxRounds, settled: false, solves };
}

/**
 * One container's least fixed point with the others' counts held: secant jumps from below until
 * a count needs no more, then a bisection down to the least such count. Stops (diverging, with
 * the fan-out reported) when the needed count grows as fast as the count.
 */
function settleContainer(
  search: PartitionSearch,
  initial: Solved,
  container: Container,
): { state: Solved; solves: number } {
  const { partitions, diverging, solver } = search;
  const name = container.name;
  const solveAt = (count: number): Solved => solver.solve(countsWith(partitions, name, count));
  let solves = 0;
  let low = partitions[name] ?? 1;
  let lowState = initial;
  let need = neededPartitions(search, initial.loads.get(name), container, low);
  if (need <= low) return { state: initial, solves };
  if (fanOutCannotScale(search, initial, container, low, "oneMore")) {
    diverging.add(name);
    return { state: initial, solves };
  }
  let previous: { readonly count: number; readonly need: number; readonly peak: number } | undefined;
  let high: { readonly count: number; readonly state: Solved } | undefined;
  // Below the least fixed point every count needs more than it has: climb with secant jumps.
  while (high === undefined && solves < MAX_SOLVES_PER_CONTAINER) {
    const slope = previous === undefined ? 0 : (need - previous.need) / (low - previous.count);
    if (slope >= 1 || need > MAX_PHYSICAL_PARTITIONS) {
      partitions[name] = low;
      reportCannotSettle(search, lowState, container, low, previous);
      diverging.add(name);
      return { state: solver.solve(partitions), solves: solves + 1 };
    }
    const jump = slope > 0 ? Math.ceil(low + (need - low) / (1 - slope)) : need;
    const candidate = Math.min(Math.max(need, jump), MAX_PHYSICAL_PARTITIONS);
    const state = solveAt(candidate);
    solves++;
    const candidateNeed = neededPartitions(search, state.loads.get(name), container, candidate);
    if (candidateNeed <= candidate) high = { count: candidate, state };
    else {
      previous = { count: low, need, peak: lowState.loads.get(name)?.peak ?? 0 };
      low = candidate;
      lowState = state;
      need = candidateNeed;
    }
  }
  if (high === undefined) {
    // Out of solves (a needed count that jumps about): keep the highest count reached.
    partitions[name] = need;
    return { state: solver.solve(partitions), solves: solves + 1 };
  }
  // The least fixed point lies in [need, high]: bisect for the least count needing no more.
  let bottom = need;
  while (bottom < high.count && solves < MAX_SOLVES_PER_CONTAINER) {
    const middle: number = bottom + Math.floor((high.count - bottom) / 2);
    const state = solveAt(middle);
    solves++;
    const middleNeed = neededPartitions(search, state.loads.get(name), container, middle);
    if (middleNeed <= middle) high = { count: middle, state };
    else bottom = Math.max(middle + 1, middleNeed);
  }
  partitions[name] = high.count;
  return { state: high.state, solves };
}

/** Reports a container whose needed count grows at least as fast as its count. */
function reportCannotSettle(
  search: PartitionSearch,
  state: Solved,
  container: Container,
  count: number,
  previous: { readonly count: number; readonly need: number; readonly peak: number } | undefined,
): void {
  if (fanOutCannotScale(search, state, container, count, "anyGrowth")) return;
  // No plan costs more at one more partition: the growth shows only between counts further
  // apart (plans that change with the count). Every pattern with load on it shares the blame.
  const peak = state.loads.get(container.name)?.peak ?? 0;
  const perPartition =
    previous === undefined || count === previous.count
      ? 0
      : (peak - previous.peak) / (count - previous.count);
  for (const index of search.solver.patternsOn(container.name)) {
    const pattern = search.workload.accessPatterns[index];
    if (pattern === undefined || patternLoadOn(state.plans[index], container.name) <= 0) continue;
    search.issues.push({
      code: "evaluate.fanOutCannotScale",
      pattern: pattern.id,
      container: container.name,
      rusAddedPerPartition: perPartition,
      physicalPartitions: count,
      severity: "error",
      path: ["accessPatterns", index],
      message: `${pattern.id} cannot scale: from ${formatInteger(previous?.count ?? count)} to ${formatInteger(count)} physical partitions ${container.name}'s load grows by ${formatInteger(perPartition)} RU/s per partition added, so the partitions it needs grow as fast as its count and it cannot settle (stopped at ${formatInteger(count)} partitions, ${formatInteger(peak)} RU/s)`,
      suggestion:
        "route it by the partition key, keep a copy partitioned by its filter, or keep a bounded set",
    });
  }
}

/**
 * Would one more partition add more fan-out RU/s than a partition can serve (`oneMore`), or any
 * (`anyGrowth`, when the count is known not to settle)? Patterns that only move onto the
 * container at the new count are not its fan-out growing. When it would, the patterns whose own
 * load grows by a partition's worth are blamed (if none does alone, every pattern whose load
 * grows shares the blame).
 */
function fanOutCannotScale(
  search: PartitionSearch,
  state: Solved,
  container: Container,
  current: number,
  rule: "oneMore" | "anyGrowth",
): boolean {
  const { workload, solver, partitions, issues } = search;
  const before = state.loads.get(container.name)?.peak ?? 0;
  // Only patterns with a step on the container can have load on it (the others' delta is 0).
  const onContainer = solver.patternsOn(container.name);
  const was = onContainer.map((index) => patternLoadOn(state.plans[index], container.name));
  const loaded = onContainer.filter((_index, position) => (was[position] ?? 0) > 0);
  const trial = solver.trialPlans(countsWith(partitions, container.name, current + 1), loaded);
  const trialPlans = new Map(loaded.map((index, position) => [index, trial[position]]));
  const deltas = onContainer.flatMap((index, position) => {
    const pattern = workload.accessPatterns[index];
    if (pattern === undefined) return [];
    const before = was[position] ?? 0;
    const after = patternLoadOn(trialPlans.get(index), container.name);
    return [{ pattern, index, delta: before > 0 ? (after - before) * pattern.rps.peak : 0 }];
  });
  const growth = deltas.reduce((sum, d) => sum + Math.max(0, d.delta), 0);
  if (rule === "oneMore" ? growth < MAX_PHYSICAL_PARTITION_RUS : growth <= 0) return false;
  const alone = deltas.filter((d) => d.delta >= MAX_PHYSICAL_PARTITION_RUS);
  const blamed = alone.length > 0 ? alone : deltas.filter((d) => d.delta > 0);
  const why =
    rule === "oneMore"
      ? `more than the ${formatInteger(MAX_PHYSICAL_PARTITION_RUS)} RU/s a partition serves`
      : `and the partitions those RU/s need grow as fast as the count (the container cannot settle)`;
  for (const { pattern, index, delta } of blamed) {
    issues.push({
      code: "evaluate.fanOutCannotScale",
      pattern: pattern.id,
      container: container.name,
      rusAddedPerPartition: delta,
      physicalPartitions: current,
      severity: "error",
      path: ["accessPatterns", index],
      message: `${pattern.id} cannot scale: each physical partition added to ${container.name} adds ${formatInteger(delta)} RU/s of its fan-out at peak (${formatInteger(growth)} RU/s in all), ${why} (stopped at ${formatInteger(current)} partitions, ${formatInteger(before)} RU/s)`,
      suggestion:
        "route it by the partition key, keep a copy partitioned by its filter, or keep a bounded set",
    });
  }
  return true;
}

/**
 * Plans may have moved away from a container whose fan-out made it grow: per container, takes
 * the fewest partitions (from what the final plans need up to the count reached) at which
 * planning again still fits.
 */
export function fewestThatFit(search: PartitionSearch, reachedState: Solved): Solved {
  const { model, partitions, diverging, solver } = search;
  let state = reachedState;
  for (const container of model.containers) {
    if (diverging.has(container.name) || container.physicalPartitions !== undefined) continue;
    const reached = partitions[container.name] ?? 1;
    for (
      let count = neededPartitions(search, state.loads.get(container.name), container, 1);
      count < reached;
      count = Math.max(count + 1, Math.ceil(count * 1.25))
    ) {
      const retry = solver.solve(countsWith(partitions, container.name, count));
      if (neededPartitions(search, retry.loads.get(container.name), container, 1) <= count) {
        partitions[container.name] = count;
        state = retry;
        break;
      }
    }
  }
  return state;
}

/** RU per request that a plan puts on one container (synchronous and change-feed steps). */
export function patternLoadOn(plan: Plan | undefined, container: string): number {
  if (plan === undefined) return 0;
  const onContainer = (step: PlanStep): number =>
    step.kind === "changeFeed"
      ? step.steps.reduce((sum, inner) => sum + onContainer(inner) * step.times, 0)
      : step.container === container
        ? step.ru.estimate * step.times
        : 0;
  const steps = plan.type === "write" ? [...plan.operations, ...plan.async] : plan.operations;
  return steps.reduce((sum, step) => sum + onContainer(step), 0);
}
