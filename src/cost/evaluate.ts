/**
 * Evaluates a model against a workload: plans every access pattern, solves the physical
 * partition count of each container as a fixed point (fan-out cost grows with partitions, and
 * the partitions follow the RU/s provisioned and the storage), finds hot logical and physical
 * partitions, decides the account's capacity mode, recommends throughput and prices the month.
 */
import { MAX_PHYSICAL_PARTITION_GB, MAX_PHYSICAL_PARTITION_RUS } from "../cosmos/limits.js";
import { DEFAULT_PRICES, type Prices } from "../cosmos/prices.js";
import type { EvaluationIssue } from "../common/issues.js";
import type { Container, Model } from "../model/types.js";
import { partitionKeyHashingOf } from "../planner/container-definition.js";
import { type PlanOptions } from "../planner/environment.js";
import type { Plan, PlanStep } from "../planner/types.js";
import type { Workload } from "../workload/types.js";
import { chooseAccountCapacity, type AccountCapacity } from "./capacity-mode.js";
import { containerLayout, EMPTY_LOAD, layoutModeOf } from "./container-layouts.js";
import { checkAccount, checkItemSizes, evaluateContainer, evaluatePatterns } from "./evaluate-findings.js";
import type { Evaluation } from "./evaluation-types.js";
import { type LayoutMode } from "./layout.js";
import { EvaluationCache } from "./evaluation-cache.js";
import { Solver, type Solved } from "./solver.js";
import { type ContainerLoad } from "./loads.js";
import { containerAnswerKey } from "./model-answers.js";
import { storageOf, type ContainerStorage } from "./storage.js";
import {
  chooseThroughput,
  priceThroughputOptions,
  type ThroughputChoice,
  type ThroughputInput,
} from "./throughput.js";
import { formatInteger } from "../common/format-number.js";
import { atomicWriteIssues } from "./atomic-writes.js";

export interface EvaluateOptions extends Omit<PlanOptions, "partitions"> {
  readonly prices?: Prices;
  /** Most fixed-point iterations of the partition count. */
  readonly maxIterations?: number;
}

/** Everything the evaluation computed, including the plans and environment used. */
export interface DetailedEvaluation extends Evaluation {
  readonly partitions: Readonly<Record<string, number>>;
}

/** Change-feed batches are read about once a second per lease under load (assumption of this model). */
const CHANGE_FEED_BATCHES_PER_SECOND = 1;

/**
 * Evaluates `model` for `workload`.
 * @example evaluateModel(workload, model).totals.monthlyCostUSD
 */
export function evaluateModel(
  workload: Workload,
  model: Model,
  options: EvaluateOptions = {},
): DetailedEvaluation {
  return evaluateWith(new EvaluationCache(workload), workload, model, options);
}

/**
 * An evaluator for many models of one workload (a design search): each evaluation equals
 * `evaluateModel`'s, and reuses the plans, loads and layouts of the models before it wherever
 * the model answers the same (`evaluation-cache.ts`).
 * @example const evaluate = createEvaluator(workload); evaluate(a); evaluate(b);
 */
export function createEvaluator(
  workload: Workload,
  options: EvaluateOptions = {},
): (model: Model) => DetailedEvaluation {
  const cache = new EvaluationCache(workload);
  return (model) => evaluateWith(cache, workload, model, options);
}

/**
 * One evaluation's partition search: the counts reached so far (mutable), the containers whose
 * fan-out cannot scale (their count is frozen), each container's storage and the mode whose
 * layout the solve follows (the model's, else the one the account decision chose last).
 */
interface PartitionSearch {
  readonly workload: Workload;
  readonly model: Model;
  readonly solver: Solver;
  readonly storage: ReadonlyMap<string, ContainerStorage>;
  readonly partitions: Record<string, number>;
  readonly diverging: Set<string>;
  readonly modeHint: Map<string, LayoutMode>;
  readonly issues: EvaluationIssue[];
}

function evaluateWith(
  cache: EvaluationCache,
  workload: Workload,
  model: Model,
  options: EvaluateOptions,
): DetailedEvaluation {
  const prices = options.prices ?? DEFAULT_PRICES;
  const issues: EvaluationIssue[] = [];
  const partitions: Record<string, number> = {};
  // A parent's children sit in one logical partition (or one per write shard), each read by one
  // change-feed lease that sums a batch's changes per parent: at most that many patches/s.
  const leasesOf = (name: string, itemType: string): number => {
    const shards =
      model.containers.find((c) => c.name === name)?.items.find((i) => i.type === itemType)?.shards ?? 1;
    return CHANGE_FEED_BATCHES_PER_SECOND * Math.min(shards, partitions[name] ?? 1);
  };
  const solver = new Solver(cache, model, options, leasesOf);
  const storage = new Map<string, ContainerStorage>();
  for (const container of model.containers)
    storage.set(
      container.name,
      solver.remember(`storage ${container.name}`, [containerAnswerKey(container.name)], (env) =>
        storageOf(env, container),
      ),
    );
  for (const container of model.containers) {
    const gb = storage.get(container.name)?.totalGB ?? 0;
    partitions[container.name] =
      container.physicalPartitions ?? Math.max(1, Math.ceil(gb / MAX_PHYSICAL_PARTITION_GB));
  }
  const search: PartitionSearch = {
    workload,
    model,
    solver,
    storage,
    partitions,
    diverging: new Set(),
    modeHint: new Map(),
    issues,
  };
  let state = growPartitions(search, solver.solve(partitions), options.maxIterations ?? 40);
  state = fewestThatFit(search, state);
  const followed = followChosenLayouts(search, cache, state, prices);
  const { plans, loads } = followed.state;
  const patterns = evaluatePatterns(cache, workload, plans, loads, issues);
  const containers = model.containers.map((container, index) =>
    evaluateContainer(
      solver.environment,
      container,
      loads.get(container.name) ?? EMPTY_LOAD,
      storage.get(container.name),
      followed.priced.choices[index],
      issues,
    ),
  );
  checkAccount(followed.priced.account, containers, issues);
  checkItemSizes(solver.environment, model, issues);
  issues.push(...atomicWriteIssues(workload, model));
  const totals = {
    rus: {
      avg: containers.reduce((sum, c) => sum + c.rus.avg, 0),
      peak: containers.reduce((sum, c) => sum + c.rus.peak, 0),
    },
    monthlyCostUSD: containers.reduce((sum, c) => sum + c.monthlyCostUSD, 0),
    monthlyCostRange: {
      lowUSD: containers.reduce((sum, c) => sum + c.monthlyCostRange.lowUSD, 0),
      highUSD: containers.reduce((sum, c) => sum + c.monthlyCostRange.highUSD, 0),
    },
  };
  return {
    patterns,
    containers,
    totals,
    account: followed.priced.account,
    issues,
    partitions: { ...partitions },
  };
}

/** The partitions `container` needs for `load` in the mode the search follows (at least `current`). */
function neededPartitions(
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
 * Physical partitions only ever split, so each count grows until the load fits, as a fixed point
 * (fan-out cost grows with partitions); a container where one more partition adds more fan-out
 * RU/s than a partition serves stops growing, with the patterns to blame.
 */
function growPartitions(search: PartitionSearch, initial: Solved, maxIterations: number): Solved {
  const { model, partitions, diverging } = search;
  // Per container, the load and count at which it last needed no more partitions: with the same
  // load (a load is never changed once built) and count it needs none again, so an iteration
  // only looks at the containers whose load or count moved.
  const settled = new Map<string, { readonly load: ContainerLoad | undefined; readonly count: number }>();
  let state = initial;
  for (let iteration = 0; iteration < maxIterations; iteration++) {
    let changed = false;
    for (const container of model.containers) {
      if (diverging.has(container.name)) continue;
      const current = partitions[container.name] ?? 1;
      const load = state.loads.get(container.name);
      const last = settled.get(container.name);
      if (last !== undefined && last.load === load && last.count === current) continue;
      const target = neededPartitions(search, load, container, current);
      if (target <= current) {
        settled.set(container.name, { load, count: current });
        continue;
      }
      if (fanOutCannotScale(search, state, container, current)) {
        diverging.add(container.name);
        continue;
      }
      partitions[container.name] = target;
      changed = true;
    }
    if (!changed) break;
    state = search.solver.solve(partitions);
  }
  return state;
}

/**
 * Would one more partition add more fan-out RU/s than a partition can serve? Patterns that only
 * move onto the container at the new count (a plan that prefers it there) are not its fan-out
 * growing. When it would, the patterns whose own load grows by a partition's worth are blamed
 * (if none does alone, every pattern whose load grows shares the blame).
 */
function fanOutCannotScale(
  search: PartitionSearch,
  state: Solved,
  container: Container,
  current: number,
): boolean {
  const { workload, solver, partitions, issues } = search;
  const before = state.loads.get(container.name)?.peak ?? 0;
  // Only patterns with a step on the container can have load on it (the others' delta is 0).
  const onContainer = solver.patternsOn(container.name);
  // A pattern without load on the container now adds none (its delta is 0): only the plans of
  // those with load are tried, and no loads are built for the trial.
  const was = onContainer.map((index) => patternLoadOn(state.plans[index], container.name));
  const loaded = onContainer.filter((_index, position) => (was[position] ?? 0) > 0);
  // The counts of now with one more partition here (a view: no copy of every container's count).
  const trialCounts: Record<string, number> = Object.create(partitions) as Record<string, number>;
  trialCounts[container.name] = current + 1;
  const trial = solver.trialPlans(trialCounts, loaded);
  const trialPlans = new Map(loaded.map((index, position) => [index, trial[position]]));
  const deltas = onContainer.flatMap((index, position) => {
    const pattern = workload.accessPatterns[index];
    if (pattern === undefined) return [];
    const before = was[position] ?? 0;
    return [
      {
        pattern,
        index,
        delta:
          before > 0 ? (patternLoadOn(trialPlans.get(index), container.name) - before) * pattern.rps.peak : 0,
      },
    ];
  });
  const growth = deltas.reduce((sum, d) => sum + Math.max(0, d.delta), 0);
  if (growth < MAX_PHYSICAL_PARTITION_RUS) return false;
  const alone = deltas.filter((d) => d.delta >= MAX_PHYSICAL_PARTITION_RUS);
  const blamed = alone.length > 0 ? alone : deltas.filter((d) => d.delta > 0);
  for (const { pattern, index, delta } of blamed) {
    issues.push({
      code: "evaluate.fanOutCannotScale",
      pattern: pattern.id,
      container: container.name,
      rusAddedPerPartition: delta,
      physicalPartitions: current,
      severity: "error",
      path: ["accessPatterns", index],
      message: `${pattern.id} cannot scale: each physical partition added to ${container.name} adds ${formatInteger(delta)} RU/s of its fan-out at peak (${formatInteger(growth)} RU/s in all), more than the ${formatInteger(MAX_PHYSICAL_PARTITION_RUS)} RU/s a partition serves (stopped at ${current} partitions, ${formatInteger(before)} RU/s)`,
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
function fewestThatFit(search: PartitionSearch, reachedState: Solved): Solved {
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
      const retry = solver.solve({ ...partitions, [container.name]: count });
      if (neededPartitions(search, retry.loads.get(container.name), container, 1) <= count) {
        partitions[container.name] = count;
        state = retry;
        break;
      }
    }
  }
  return state;
}

/**
 * Prices every mode on its own layout, decides the account's capacity mode, and follows the
 * chosen layouts (a mode's partition count changes fan-out costs, so it re-plans once one moves).
 */
function followChosenLayouts(
  search: PartitionSearch,
  cache: EvaluationCache,
  initial: Solved,
  prices: Prices,
): { state: Solved; priced: { account: AccountCapacity; choices: ThroughputChoice[] } } {
  const { workload, model, partitions, diverging, storage } = search;
  const planned = (): Map<string, { partitions: number; fixed: boolean }> =>
    new Map(
      model.containers.map((c) => [
        c.name,
        { partitions: partitions[c.name] ?? 1, fixed: diverging.has(c.name) },
      ]),
    );
  let state = initial;
  let priced = priceContainers(cache, workload, model, state.loads, storage, prices, planned());
  for (let round = 0; round < MAX_LAYOUT_ROUNDS; round++) {
    let moved = false;
    for (const [index, container] of model.containers.entries()) {
      const choice = priced.choices[index];
      if (choice === undefined || diverging.has(container.name) || container.physicalPartitions !== undefined)
        continue;
      search.modeHint.set(container.name, choice.chosen.mode);
      if (choice.chosen.layout.partitions !== partitions[container.name]) {
        partitions[container.name] = choice.chosen.layout.partitions;
        moved = true;
      }
    }
    if (!moved) break;
    state = search.solver.solve(partitions);
    priced = priceContainers(cache, workload, model, state.loads, storage, prices, planned());
  }
  return { state, priced };
}

function withoutPin(input: ThroughputInput): ThroughputInput {
  const { pinned: _ignored, ...rest } = input;
  return rest;
}

/** Rounds of "choose modes, follow their layouts, re-plan" (it settles in one or two). */
const MAX_LAYOUT_ROUNDS = 3;

/** Every container priced in every mode, the account's capacity mode, and each container's choice. */
function priceContainers(
  cache: EvaluationCache,
  workload: Workload,
  model: Model,
  loads: ReadonlyMap<string, ContainerLoad>,
  storage: ReadonlyMap<string, ContainerStorage>,
  prices: Prices,
  planned: Map<string, { readonly partitions: number; readonly fixed: boolean }>,
): { account: AccountCapacity; choices: ThroughputChoice[] } {
  const priced = model.containers.map((container) => {
    const load = loads.get(container.name) ?? EMPTY_LOAD;
    const storageGB = storage.get(container.name)?.totalGB ?? 0;
    const plannedHere = planned.get(container.name);
    const layout = (mode: LayoutMode) => containerLayout(container, mode, load, storageGB, plannedHere);
    const input: ThroughputInput = {
      peak: load.peak,
      avg: load.avg,
      storageGB,
      regions: workload.scale.regions,
      multiRegionWrites: workload.scale.multiRegionWrites,
      layouts: { manual: layout("manual"), autoscale: layout("autoscale"), serverless: layout("serverless") },
      ...(workload.scale.trafficProfile === undefined
        ? {}
        : { trafficProfile: workload.scale.trafficProfile }),
      ...(container.throughput === undefined ? {} : { pinned: container.throughput }),
    };
    // What the prices read besides the load (the workload and the prices are the cache's own).
    const hashing = partitionKeyHashingOf(container);
    const key = [
      storageGB,
      hashing.kind,
      hashing.version,
      container.physicalPartitions,
      JSON.stringify(container.throughput ?? null),
      plannedHere?.partitions,
      plannedHere?.fixed,
    ].join("|");
    return {
      input,
      load,
      key,
      options: cache.memo(load, `options ${key}`, () => priceThroughputOptions(input, prices)),
    };
  });
  const account = chooseAccountCapacity(
    model.containers.map((container, index) => ({ container, options: priced[index]?.options ?? [] })),
  );
  const choices = priced.map(({ input, load, key }) => {
    // A container whose setting the account cannot honour is priced in the account's mode.
    const unpinned =
      input.pinned !== undefined && !account.modes.includes(layoutModeOf(input.pinned, "autoscale"));
    return cache.memo(load, `choice ${key}|${unpinned}|${account.modes.join(",")}`, () =>
      chooseThroughput(unpinned ? withoutPin(input) : input, prices, account.modes),
    );
  });
  return { account, choices };
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
