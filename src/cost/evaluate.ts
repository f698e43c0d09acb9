/**
 * Evaluates a model against a workload: plans every access pattern, solves the physical
 * partition count of each container as a fixed point (fan-out cost grows with partitions, and
 * the partitions follow the RU/s provisioned and the storage), finds hot logical and physical
 * partitions, decides the account's capacity mode, recommends throughput and prices the month.
 */
import {
  INITIAL_RUS_PER_PARTITION_MANUAL,
  LOGICAL_PARTITION_GROWTH_WARNING_HOURS,
  NEAR_LOGICAL_PARTITION_GB_SHARE,
  NEAR_PARTITION_RUS_SHARE,
  limitStatus,
  MAX_CONTAINER_RUS,
  MAX_CONTAINER_RUS_TICKET,
  MAX_ITEM_BYTES,
  MAX_LOGICAL_PARTITION_GB,
  MAX_PHYSICAL_PARTITION_GB,
  MAX_PHYSICAL_PARTITION_RUS,
  MAX_SHARED_DATABASE_RUS,
  SYSTEM_PROPERTIES_BYTES,
} from "../cosmos/limits.js";
import type { PartitionKeyHashing } from "../cosmos/partition-key-hash.js";
import { DEFAULT_PRICES, type Prices } from "../cosmos/prices.js";
import type { EvaluationIssue, IssuePath } from "../common/issues.js";
import type { Container, Model, Throughput } from "../model/types.js";
import { partitionKeyHashingOf } from "../planner/container-definition.js";
import type { Placement } from "../planner/context.js";
import {
  sumEstimates,
  scaleEstimate,
  type PlanEnvironment,
  type PlanOptions,
} from "../planner/environment.js";
import type { Plan, PlanStep } from "../planner/types.js";
import type { AccessPattern, Workload } from "../workload/types.js";
import { chooseAccountCapacity, type AccountCapacity } from "./capacity-mode.js";
import type {
  ContainerEvaluation,
  ContainerLimits,
  Evaluation,
  LimitCheck,
  PatternEvaluation,
  RatePair,
} from "./evaluation-types.js";
import {
  heavyPartitionLoads,
  physicalPartitionOf,
  placeHeavyKeys,
  type PlacedKeys,
} from "./hash-partitions.js";
import { layoutFor, type LayoutMode, type PartitionLayout } from "./layout.js";
import { EvaluationCache, Solver } from "./evaluation-cache.js";
import { hottestKey, type ContainerLoad } from "./loads.js";
import { containerAnswerKey } from "./model-answers.js";
import { storageOf, type ContainerStorage } from "./storage.js";
import {
  chooseThroughput,
  priceThroughputOptions,
  type ThroughputChoice,
  type ThroughputInput,
} from "./throughput.js";
import { formatFigure, formatInteger } from "../common/format-number.js";
import { atomicPairs, colocation } from "./atomic-writes.js";

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
 * Each load's heavy keys hashed once per hashing (a load is complete, never changed, once the
 * layouts read it): the layouts of every mode, round and fixed-point iteration ask the same load
 * at many partition counts.
 */
const placedKeys = new WeakMap<ContainerLoad, Map<string, PlacedKeys>>();

function placedKeysOf(load: ContainerLoad, hashing: PartitionKeyHashing): PlacedKeys {
  let byHashing = placedKeys.get(load);
  if (byHashing === undefined) {
    byHashing = new Map();
    placedKeys.set(load, byHashing);
  }
  const key = `${hashing.kind}${hashing.version}`;
  let placed = byHashing.get(key);
  if (placed === undefined) {
    placed = placeHeavyKeys(heavyKeysOf(load), hashing);
    byHashing.set(key, placed);
  }
  return placed;
}

/** Load of the busiest physical partition when the container has `partitions` of them. */
function hottestAt(load: ContainerLoad, partitions: number, hashing: PartitionKeyHashing): number {
  return placedKeysOf(load, hashing).hottestAt(load.spreadPeak, partitions);
}

function heavyKeysOf(load: ContainerLoad) {
  return [...load.keys.values()].map((key) => ({ components: key.components, load: key.peak }));
}

const EMPTY_LOAD: ContainerLoad = {
  avg: 0,
  peak: 0,
  keys: new Map(),
  spreadPeak: 0,
  fanOutPerPartition: new Map(),
  aggregated: new Map(),
};

/** The layout mode a container's settings imply (shared database throughput splits like autoscale). */
function layoutModeOf(throughput: Throughput | undefined, hint: LayoutMode): LayoutMode {
  switch (throughput?.mode) {
    case undefined:
      return hint;
    case "manual":
    case "autoscale":
    case "serverless":
      return throughput.mode;
    case "shared":
      return "autoscale";
    default:
      return throughput satisfies never;
  }
}

/**
 * Layouts already found, per load (a load is never changed once read): every fixed-point
 * iteration, layout round and capacity mode asks again, and so do the next models of a design
 * that leave the container's load as it was.
 */
const layouts = new WeakMap<ContainerLoad, Map<string, PartitionLayout>>();

/** The layout of `container` in `mode` under `load` (pinned partitions and RU/s respected). */
function containerLayout(
  container: Container,
  mode: LayoutMode,
  load: ContainerLoad,
  storageGB: number,
  planned?: { readonly partitions: number; readonly fixed: boolean },
): PartitionLayout {
  const hashing = partitionKeyHashingOf(container);
  const pinned = container.throughput;
  const pinnedRus =
    pinned?.mode === "manual" && mode === "manual"
      ? pinned.rus
      : pinned?.mode === "autoscale" && mode === "autoscale"
        ? pinned.maxRus
        : undefined;
  // Everything the layout reads besides the load.
  const key = [
    mode,
    hashing.kind,
    hashing.version,
    storageGB,
    container.physicalPartitions,
    pinnedRus,
    planned?.partitions,
    planned?.fixed,
  ].join("|");
  let known = layouts.get(load);
  if (known === undefined) {
    known = new Map();
    layouts.set(load, known);
  }
  let layout = known.get(key);
  if (layout === undefined) {
    layout = newContainerLayout(container, mode, load, storageGB, hashing, pinnedRus, planned);
    known.set(key, layout);
  }
  return layout;
}

function newContainerLayout(
  container: Container,
  mode: LayoutMode,
  load: ContainerLoad,
  storageGB: number,
  hashing: PartitionKeyHashing,
  pinnedRus: number | undefined,
  planned?: { readonly partitions: number; readonly fixed: boolean },
): PartitionLayout {
  return layoutFor(mode, {
    peak: load.peak,
    storageGB,
    hottestAt: (partitions) => hottestAt(load, partitions, hashing),
    // The busiest partition holds at least the largest key and its share of the spread load.
    hottestLowerBound: (partitions) => load.spreadPeak / partitions + placedKeysOf(load, hashing).largest,
    heavyKeys: load.keys.size,
    ...(container.physicalPartitions !== undefined
      ? { pinnedPartitions: container.physicalPartitions }
      : planned?.fixed === true
        ? { pinnedPartitions: planned.partitions }
        : planned === undefined || mode === "serverless"
          ? {}
          : { minPartitions: planned.partitions }),
    ...(pinnedRus === undefined ? {} : { pinnedRus }),
  });
}

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

function evaluateWith(
  cache: EvaluationCache,
  workload: Workload,
  model: Model,
  options: EvaluateOptions,
): DetailedEvaluation {
  const prices = options.prices ?? DEFAULT_PRICES;
  const issues: EvaluationIssue[] = [];
  const storage = new Map<string, ReturnType<typeof storageOf>>();
  const partitions: Record<string, number> = {};
  // A parent's children sit in one logical partition (or one per write shard), each read by one
  // change-feed lease that sums a batch's changes per parent: at most that many patches/s.
  const leasesOf = (name: string, itemType: string): number => {
    const shards =
      model.containers.find((c) => c.name === name)?.items.find((i) => i.type === itemType)?.shards ?? 1;
    return CHANGE_FEED_BATCHES_PER_SECOND * Math.min(shards, partitions[name] ?? 1);
  };
  const solver = new Solver(cache, model, options, leasesOf);
  const probe = solver.environment;
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
  const solve = (counts: Record<string, number>) => solver.solve(counts);
  // The mode whose partition layout the solve follows: the model's, else the one the account
  // decision chose last (autoscale's ceil(RU/s / 10,000) before any decision).
  const modeHint = new Map<string, LayoutMode>();
  const needed = (load: ContainerLoad | undefined, container: Container, current: number): number => {
    if (container.physicalPartitions !== undefined || load === undefined) return current;
    const mode = layoutModeOf(container.throughput, modeHint.get(container.name) ?? "autoscale");
    return containerLayout(container, mode, load, storage.get(container.name)?.totalGB ?? 0).partitions;
  };
  let state = solve(partitions);
  const diverging = new Set<string>();
  const maxIterations = options.maxIterations ?? 40;
  // Physical partitions only ever split, so the count grows until the load fits.
  for (let iteration = 0; iteration < maxIterations; iteration++) {
    let changed = false;
    for (const container of model.containers) {
      if (diverging.has(container.name)) continue;
      const current = partitions[container.name] ?? 1;
      const target = needed(state.loads.get(container.name), container, current);
      if (target <= current) continue;
      // Would one more partition add more fan-out RU/s than a partition can serve? Patterns that
      // only move onto the container at the new count (a plan that prefers it there) are not its
      // fan-out growing.
      const before = state.loads.get(container.name)?.peak ?? 0;
      // Only patterns with a step on the container can have load on it (the others' delta is 0).
      const onContainer = solver.patternsOn(container.name);
      const trial = solve({ ...partitions, [container.name]: current + 1 });
      const deltas = onContainer.flatMap((index) => {
        const pattern = workload.accessPatterns[index];
        if (pattern === undefined) return [];
        const was = patternLoadOn(state.plans[index], container.name);
        return [
          {
            pattern,
            index,
            delta: was > 0 ? (patternLoadOn(trial.plans[index], container.name) - was) * pattern.rps.peak : 0,
          },
        ];
      });
      const growth = deltas.reduce((sum, d) => sum + Math.max(0, d.delta), 0);
      if (growth >= MAX_PHYSICAL_PARTITION_RUS) {
        diverging.add(container.name);
        // Blame the patterns whose own load grows by a partition's worth; if none does alone,
        // every pattern whose load grows shares the blame.
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
        continue;
      }
      partitions[container.name] = target;
      changed = true;
    }
    if (!changed) break;
    state = solve(partitions);
  }
  // Plans may have moved away from a container whose fan-out made it grow: per container, take
  // the fewest partitions (from what the final plans need up to the count reached) at which
  // planning again still fits.
  for (const container of model.containers) {
    if (diverging.has(container.name) || container.physicalPartitions !== undefined) continue;
    const reached = partitions[container.name] ?? 1;
    for (
      let count = needed(state.loads.get(container.name), container, 1);
      count < reached;
      count = Math.max(count + 1, Math.ceil(count * 1.25))
    ) {
      const retry = solve({ ...partitions, [container.name]: count });
      if (needed(retry.loads.get(container.name), container, 1) <= count) {
        partitions[container.name] = count;
        state = retry;
        break;
      }
    }
  }
  // Price every mode on its own layout, decide the account's capacity mode, and follow the
  // chosen layouts (a mode's partition count changes fan-out costs, so re-plan once it moves).
  const planned = (): Map<string, { partitions: number; fixed: boolean }> =>
    new Map(
      model.containers.map((c) => [
        c.name,
        { partitions: partitions[c.name] ?? 1, fixed: diverging.has(c.name) },
      ]),
    );
  let priced = priceContainers(cache, workload, model, state.loads, storage, prices, planned());
  for (let round = 0; round < MAX_LAYOUT_ROUNDS; round++) {
    let moved = false;
    for (const [index, container] of model.containers.entries()) {
      const choice = priced.choices[index];
      if (choice === undefined || diverging.has(container.name) || container.physicalPartitions !== undefined)
        continue;
      modeHint.set(container.name, choice.chosen.mode);
      if (choice.chosen.layout.partitions !== partitions[container.name]) {
        partitions[container.name] = choice.chosen.layout.partitions;
        moved = true;
      }
    }
    if (!moved) break;
    state = solve(partitions);
    priced = priceContainers(cache, workload, model, state.loads, storage, prices, planned());
  }
  const { plans, loads } = state;
  const patterns = evaluatePatterns(cache, workload, plans, loads, issues);
  const containers = model.containers.map((container, index) =>
    evaluateContainer(
      probe,
      container,
      loads.get(container.name) ?? EMPTY_LOAD,
      storage.get(container.name),
      priced.choices[index],
      issues,
    ),
  );
  checkAccount(priced.account, containers, issues);
  checkItemSizes(probe, model, issues);
  checkAtomicWrites(workload, model, issues);
  const totals = {
    rus: {
      avg: containers.reduce((sum, c) => sum + c.rus.avg, 0),
      peak: containers.reduce((sum, c) => sum + c.rus.peak, 0),
    },
    monthlyCostUSD: containers.reduce((sum, c) => sum + c.monthlyCostUSD, 0),
  };
  return {
    patterns,
    containers,
    totals,
    account: priced.account,
    issues,
    partitions: { ...partitions },
  };
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
  storage: Map<string, ContainerStorage>,
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

function stepTotal(steps: readonly PlanStep[]) {
  return sumEstimates(steps.map((step) => scaleEstimate(step.ru, step.times)));
}

function evaluatePatterns(
  cache: EvaluationCache,
  workload: Workload,
  plans: readonly Plan[],
  loads: ReadonlyMap<string, ContainerLoad>,
  issues: EvaluationIssue[],
): PatternEvaluation[] {
  // Per pattern, the loads holding aggregated change-feed updates of it, in the loads' order.
  const aggregatedBy = new Map<string, ContainerLoad[]>();
  for (const load of loads.values())
    for (const id of load.aggregated.keys()) aggregatedBy.set(id, [...(aggregatedBy.get(id) ?? []), load]);
  return plans.map((plan, index) => {
    const pattern = workload.accessPatterns[index];
    if (pattern === undefined) throw new Error("internal: plans and patterns differ");
    const aggregated = { avg: 0, peak: 0 };
    // In the containers' order, as the loads are (adding the 0 of a container without any
    // changes the sum by nothing, so only those with some are visited).
    for (const load of aggregatedBy.get(pattern.id) ?? []) {
      aggregated.avg += load.aggregated.get(pattern.id)?.avg ?? 0;
      aggregated.peak += load.aggregated.get(pattern.id)?.peak ?? 0;
    }
    // A plan evaluates the same every time with the same aggregated updates.
    const evaluated = cache.memo(plan, `${index}|${aggregated.avg}|${aggregated.peak}`, () =>
      evaluatePattern(plan, pattern, index, aggregated),
    );
    issues.push(...evaluated.issues);
    return evaluated.evaluation;
  });
}

/** One pattern's figures and findings. */
function evaluatePattern(
  plan: Plan,
  pattern: AccessPattern,
  index: number,
  aggregated: RatePair,
): { evaluation: PatternEvaluation; issues: EvaluationIssue[] } {
  const issues: EvaluationIssue[] = [];
  const sync = stepTotal(plan.operations);
  const async = plan.type === "write" ? stepTotal(plan.async).estimate : 0;
  if (!plan.served) {
    issues.push({
      code: "evaluate.patternNotServed",
      pattern: plan.patternId,
      severity: "error",
      path: ["accessPatterns", index],
      message: `the model cannot serve ${plan.patternId} (${pattern.name}): ${plan.notes.join("; ")}`,
    });
  }
  const fanOut = plan.type === "read" && plan.fanOut;
  if (fanOut) {
    const partitions = Math.max(
      0,
      ...plan.operations.map((s) =>
        s.kind === "query" && (s.scope === "fanOut" || s.scope === "shards") ? s.partitions : 0,
      ),
    );
    issues.push({
      code: "evaluate.fanOut",
      pattern: plan.patternId,
      physicalPartitions: partitions,
      ruPerRequest: sync.estimate,
      rusPeak: sync.estimate * pattern.rps.peak,
      severity: pattern.rps.peak >= 100 ? "warning" : "info",
      path: ["accessPatterns", index],
      message: `${plan.patternId} fans out over ${partitions} physical partition(s): ${formatFigure(sync.estimate)} RU per request, ${formatInteger(sync.estimate * pattern.rps.peak)} RU/s at peak`,
    });
  }
  if (plan.type === "read") {
    for (const tooSmall of plan.boundedSetsTooSmall ?? []) {
      issues.push({
        code: "evaluate.boundedSetTooSmall",
        pattern: plan.patternId,
        severity: plan.served ? "warning" : "error",
        path: ["accessPatterns", index],
        message: `${tooSmall}: the bounded set cannot serve it${plan.served ? `, so ${plan.patternId} is served by ${plan.container}/${plan.itemType} instead` : ""}`,
        suggestion: "raise keepLatest.count to the pattern's limit, or lower the limit",
      });
    }
  }
  const requests = { avg: sync.estimate * pattern.rps.avg, peak: sync.estimate * pattern.rps.peak };
  const changeFeed = { avg: async * pattern.rps.avg, peak: async * pattern.rps.peak };
  const evaluation: PatternEvaluation = {
    id: plan.patternId,
    plan,
    fanOut,
    ru: { ...sync, async },
    rus: {
      avg: requests.avg + changeFeed.avg - aggregated.avg,
      peak: requests.peak + changeFeed.peak - aggregated.peak,
    },
    rusBreakdown: { requests, changeFeed, aggregatedChangeFeed: aggregated },
  };
  return { evaluation, issues };
}

/** The keys on the busiest physical partition of a layout, hottest first (names for messages). */
function keysOnBusiestPartition(container: Container, load: ContainerLoad, partitions: number): string[] {
  const hashing = partitionKeyHashingOf(container);
  const heavyOn = heavyPartitionLoads(heavyKeysOf(load), partitions, hashing);
  let busiest = -1;
  let heaviest = 0;
  for (const [index, heavy] of heavyOn) if (heavy > heaviest) [busiest, heaviest] = [index, heavy];
  const most = heaviest + load.spreadPeak / partitions;
  // Keys that carry at least 5% of the partition's load (the ones worth naming).
  return [...load.keys.entries()]
    .filter(
      ([, key]) =>
        key.peak >= most * 0.05 && physicalPartitionOf(key.components, partitions, hashing) === busiest,
    )
    .sort(([, a], [, b]) => b.peak - a.peak)
    .map(([name, key]) => `${name} (${formatInteger(key.peak)} RU/s)`);
}

/** A figure against its limit, with its status (cosmos/limits.ts thresholds). */
function limitCheck(value: number, limit: number, nearShare: number): LimitCheck {
  return { value, limit, share: value / limit, nearShare, status: limitStatus(value, limit, nearShare) };
}

/**
 * The partition limits of a container with their status: the hottest logical and the busiest
 * physical partition against what a partition serves in its mode, the largest logical partition
 * against 20 GB (near too when it would reach 20 GB within a month of peak writes).
 */
function containerLimits(
  hottestLogicalRus: number,
  busiestPhysicalRus: number,
  partitionLimit: number,
  largestLogicalGB: number,
  growth: ContainerStorage["growth"],
): ContainerLimits {
  const storage = limitCheck(largestLogicalGB, MAX_LOGICAL_PARTITION_GB, NEAR_LOGICAL_PARTITION_GB_SHARE);
  const fastest = growth.reduce<ContainerStorage["growth"][number] | undefined>(
    (best, g) => (best === undefined || g.hoursTo20GB < best.hoursTo20GB ? g : best),
    undefined,
  );
  const soon = fastest !== undefined && fastest.hoursTo20GB < LOGICAL_PARTITION_GROWTH_WARNING_HOURS;
  return {
    hottestLogicalPartitionRus: limitCheck(hottestLogicalRus, partitionLimit, NEAR_PARTITION_RUS_SHARE),
    busiestPhysicalPartitionRus: limitCheck(busiestPhysicalRus, partitionLimit, NEAR_PARTITION_RUS_SHARE),
    largestLogicalPartitionGB: {
      ...storage,
      status: storage.status === "ok" && soon ? "near" : storage.status,
      ...(fastest === undefined
        ? {}
        : {
            growth: {
              itemType: fastest.itemType,
              gbPerHour: fastest.gbPerHour,
              hoursToLimit: fastest.hoursTo20GB,
              withinHours: LOGICAL_PARTITION_GROWTH_WARNING_HOURS,
            },
          }),
    },
  };
}

/** Items at the horizon and distinct key values of each item type (what the documents print). */
function itemTypesOf(env: PlanEnvironment, container: Container): ContainerEvaluation["itemTypes"] {
  return container.items.flatMap((item) => {
    const placement = env.context.placement(container.name, item.type);
    return placement === undefined
      ? []
      : [{ type: item.type, items: env.itemCount(placement), keyValues: env.logicalKeys(placement) }];
  });
}

function evaluateContainer(
  env: PlanEnvironment,
  container: Container,
  load: ContainerLoad,
  stored: ContainerStorage | undefined,
  choice: ThroughputChoice | undefined,
  issues: EvaluationIssue[],
): ContainerEvaluation {
  if (choice === undefined) throw new Error(`internal: ${container.name} was not priced`);
  const layout = choice.chosen.layout;
  const partitions = layout.partitions;
  const hottest = layout.hottest;
  const hot = hottestKey(load);
  const storageGB = stored?.totalGB ?? 0;
  const hottestStorage = stored?.hottestKeyGB ?? 0;
  const path: IssuePath = ["containers", container.name];
  if (hot.peak > layout.partitionLimit) {
    issues.push({
      code: "evaluate.hotPartition",
      container: container.name,
      rusPeak: hot.peak,
      severity: "error",
      path,
      message: `the hottest logical partition of ${container.name} needs ${formatInteger(hot.peak)} RU/s at peak, over the ${formatInteger(layout.partitionLimit)} RU/s one ${layout.mode === "serverless" ? "serverless " : ""}partition can serve, whatever throughput is provisioned`,
      suggestion:
        "spread it: replicas for a hot read set, write shards for a hot write key, or a key with more distinct values",
    });
  } else if (layout.overPartitionLimit) {
    const keys = keysOnBusiestPartition(container, load, partitions).slice(0, 4);
    issues.push({
      code: "evaluate.hotPhysicalPartition",
      container: container.name,
      physicalPartitions: partitions,
      rusPeak: hottest,
      severity: "error",
      path,
      message: `the busiest of the ${formatInteger(partitions)} physical partitions of ${container.name} needs ${formatInteger(hottest)} RU/s at peak, over the ${formatInteger(layout.partitionLimit)} RU/s one ${layout.mode === "serverless" ? "serverless " : ""}physical partition serves whatever throughput is provisioned${keys.length > 1 ? `: hot keys ${keys.join(", ")} share its hash range` : ""}`,
      suggestion:
        "spread the hot keys (more replicas or write shards) so that no range carries them together",
    });
  }
  if (layout.underProvisioned && !layout.overPartitionLimit && hot.peak <= layout.partitionLimit) {
    issues.push({
      code: "evaluate.underProvisioned",
      container: container.name,
      rusPeak: hottest,
      severity: "warning",
      path: [...path, "throughput"],
      message: `${container.name} is set to ${formatInteger(layout.provisionedRus)} RU/s over ${formatInteger(partitions)} physical partitions (${formatInteger(layout.provisionedRus / partitions)} each), but its busiest partition needs ${formatInteger(hottest)} RU/s at peak: requests there are throttled (429) at peak`,
      suggestion: `raise it to ${formatInteger(Math.max(load.peak, hottest * partitions))} RU/s or leave the throughput to the evaluation`,
    });
  }
  if (layout.overCreationShare && !layout.overPartitionLimit) {
    issues.push({
      code: "evaluate.underProvisioned",
      container: container.name,
      rusPeak: hottest,
      severity: "warning",
      path: [...path, "throughput"],
      message: `${container.name} is set to manual throughput, but its busiest physical partition needs ${formatInteger(hottest)} RU/s at peak and a container created with manual throughput gives each partition at most ${formatInteger(INITIAL_RUS_PER_PARTITION_MANUAL)} RU/s`,
      suggestion:
        "create it with autoscale, or create it with less manual RU/s and raise them afterwards (raising splits by 10,000 RU/s per partition)",
    });
  }
  if (
    container.physicalPartitions !== undefined &&
    Math.max(load.peak, hottest * partitions) > partitions * MAX_PHYSICAL_PARTITION_RUS
  ) {
    const required = Math.max(load.peak, hottest * partitions);
    issues.push({
      code: "evaluate.pinnedPartitionsOverloaded",
      container: container.name,
      physicalPartitions: partitions,
      requiredRus: required,
      partitionsNeeded: Math.ceil(required / MAX_PHYSICAL_PARTITION_RUS),
      severity: "warning",
      path: [...path, "physicalPartitions"],
      message: `${container.name} is pinned at ${partitions} physical partitions but its peak of ${formatInteger(required)} RU/s needs ${Math.ceil(required / MAX_PHYSICAL_PARTITION_RUS)}; Cosmos DB would split it and every fan-out query would cost more`,
    });
  }
  if (choice.chosen.mode !== "serverless" && choice.chosen.provisionedRus > MAX_CONTAINER_RUS) {
    issues.push({
      code: "evaluate.overContainerMaximum",
      containers: [container.name],
      rus: choice.chosen.provisionedRus,
      severity: "warning",
      path: [...path, "throughput"],
      message: `${container.name} needs ${formatInteger(choice.chosen.provisionedRus)} RU/s, over the default maximum of ${formatInteger(MAX_CONTAINER_RUS)} RU/s per container: the deployment fails unless the limit is raised first`,
      suggestion: `file ${MAX_CONTAINER_RUS_TICKET} before deploying, or spread the load over more containers`,
    });
  }
  if (hottestStorage > MAX_LOGICAL_PARTITION_GB) {
    issues.push({
      code: "evaluate.logicalPartitionTooLarge",
      container: container.name,
      storageGB: hottestStorage,
      severity: "error",
      path,
      message: `the largest logical partition of ${container.name} holds ${formatFigure(hottestStorage)} GB, over the ${MAX_LOGICAL_PARTITION_GB} GB limit`,
      suggestion: "add a level to the partition key (hierarchical key) or bucket the items",
    });
  }
  for (const growth of stored?.growth ?? []) {
    if (growth.hoursTo20GB < LOGICAL_PARTITION_GROWTH_WARNING_HOURS) {
      issues.push({
        code: "evaluate.logicalPartitionGrowth",
        container: container.name,
        itemType: growth.itemType,
        gbPerHour: growth.gbPerHour,
        hoursTo20GB: growth.hoursTo20GB,
        severity: "warning",
        path,
        message: `at the peak write rate the hottest ${growth.itemType} partition of ${container.name} grows ${formatFigure(growth.gbPerHour, { decimals: 2 })} GB per hour and would reach ${MAX_LOGICAL_PARTITION_GB} GB after ${formatFigure(growth.hoursTo20GB)} hours of peak`,
      });
    }
  }
  return {
    name: container.name,
    physicalPartitions: partitions,
    storageGB,
    rus: { avg: load.avg, peak: load.peak },
    hottestLogicalPartition: { rus: hot.peak, storageGB: hottestStorage, key: hot.key },
    hottestPhysicalPartition: { rus: hottest, storageGB: storageGB / partitions },
    limits: containerLimits(hot.peak, hottest, layout.partitionLimit, hottestStorage, stored?.growth ?? []),
    itemTypes: itemTypesOf(env, container),
    partitionLayout: {
      partitions,
      partitionsForStorage: layout.partitionsForStorage,
      splitForBusiest: layout.splitForBusiest,
      ...(layout.evenSplitRus === undefined ? {} : { evenSplitRus: layout.evenSplitRus }),
    },
    throughput: choice.throughput,
    throughputOptions: choice.options.map((option) => ({
      mode: option.mode,
      provisionedRus: option.provisionedRus,
      physicalPartitions: option.layout.partitions,
      monthlyThroughputUSD: option.monthlyThroughputUSD,
      basis: option.basis,
      ...(option.range === undefined ? {} : { range: option.range }),
      allowed: option.allowed,
      why: option.why,
    })),
    monthlyCostUSD: choice.monthlyThroughputUSD + choice.monthlyStorageUSD,
    costBreakdown: {
      throughputUSD: choice.monthlyThroughputUSD,
      storageUSD: choice.monthlyStorageUSD,
      formula: choice.formula,
    },
  };
}

/** The account's capacity mode: a model that mixes modes, or pins serverless where it cannot be. */
function checkAccount(
  account: AccountCapacity,
  containers: readonly ContainerEvaluation[],
  issues: EvaluationIssue[],
): void {
  if (account.mixed !== undefined) {
    issues.push({
      code: "evaluate.mixedCapacityModes",
      serverless: account.mixed.serverless,
      provisioned: account.mixed.provisioned,
      severity: "error",
      path: ["containers"],
      message: `the model sets serverless on ${account.mixed.serverless.join(", ")} and provisioned throughput on ${account.mixed.provisioned.join(", ")}, but capacity mode is chosen per account: evaluated as provisioned for all`,
      suggestion:
        "remove the serverless setting (or every provisioned setting) so that all containers share one mode",
    });
  }
  if (account.mode === "serverless") {
    for (const blocked of account.notServerless) {
      issues.push({
        code: "evaluate.serverlessNotPossible",
        container: blocked.container,
        severity: "error",
        path: ["containers", blocked.container],
        message: `the account is serverless but ${blocked.container} cannot run serverless: ${blocked.why}`,
        suggestion: "use provisioned throughput for the account",
      });
    }
  }
  const shared = containers.filter((c) => c.throughput.mode === "shared");
  const sharedRus = shared.reduce((sum, c) => sum + c.throughput.provisionedRus, 0);
  if (shared.length > 0 && sharedRus > MAX_SHARED_DATABASE_RUS) {
    issues.push({
      code: "evaluate.overContainerMaximum",
      containers: shared.map((c) => c.name),
      rus: sharedRus,
      severity: "warning",
      path: ["containers"],
      message: `the containers on shared database throughput (${shared.map((c) => c.name).join(", ")}) need ${formatInteger(sharedRus)} RU/s together, over the default maximum of ${formatInteger(MAX_SHARED_DATABASE_RUS)} RU/s per database`,
      suggestion: `file ${MAX_CONTAINER_RUS_TICKET} before deploying, or give the busiest containers their own throughput`,
    });
  }
}

function checkItemSizes(env: PlanEnvironment, model: Model, issues: EvaluationIssue[]): void {
  for (const container of model.containers) {
    for (const item of container.items) {
      const placement: Placement | undefined = env.context.placement(container.name, item.type);
      if (placement === undefined) continue;
      const shape = env.shape(placement);
      if (shape.maxBytes + SYSTEM_PROPERTIES_BYTES > MAX_ITEM_BYTES) {
        issues.push({
          code: "evaluate.itemTooLarge",
          container: container.name,
          itemType: item.type,
          bytes: shape.maxBytes,
          severity: "error",
          path: ["containers", container.name, "items", item.type],
          message: `the largest ${item.type} item is about ${formatInteger(shape.maxBytes)} bytes, over the 2 MB item limit`,
          suggestion: "embed only the newest N children, bucket them, or reference them",
        });
      }
    }
  }
}

/** A warning per pair of writes that must commit together (`atomicWith`) but cannot in `model`. */
function checkAtomicWrites(workload: Workload, model: Model, issues: EvaluationIssue[]): void {
  for (const pair of atomicPairs(workload)) {
    const where = colocation(workload, model, pair.entity, pair.partnerEntity);
    if (where.together) continue;
    issues.push({
      code: "evaluate.atomicWritesSplit",
      pattern: pair.pattern,
      partner: pair.partner,
      reason: where.reason,
      severity: "warning",
      path: ["accessPatterns", workload.accessPatterns.findIndex((p) => p.id === pair.pattern), "atomicWith"],
      message: `${pair.pattern} and ${pair.partner} must commit together, but ${where.why}: a transactional batch only holds items of one logical partition of one container`,
      suggestion:
        where.reason === "unrelated"
          ? "relate the entities through a key attribute, or accept a compensating step or an idempotent retry"
          : "keep the child's items in its parent's container, keyed by the parent's key (or embed them)",
    });
  }
}
