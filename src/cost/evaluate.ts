/**
 * Evaluates a model against a workload: plans every access pattern, solves the physical
 * partition count of each container as a fixed point (fan-out cost grows with partitions),
 * finds hot logical and physical partitions, recommends throughput and prices the month.
 */
import {
  MAX_ITEM_BYTES,
  MAX_LOGICAL_PARTITION_GB,
  MAX_PHYSICAL_PARTITION_GB,
  MAX_PHYSICAL_PARTITION_RUS,
  SYSTEM_PROPERTIES_BYTES,
} from "../cosmos/limits.js";
import { DEFAULT_PRICES, type Prices } from "../cosmos/prices.js";
import type { EvaluationIssue, IssuePath } from "../common/issues.js";
import type { Container, Model } from "../model/types.js";
import type { Placement } from "../planner/context.js";
import {
  createPlanEnvironment,
  sumEstimates,
  scaleEstimate,
  type PlanEnvironment,
  type PlanOptions,
} from "../planner/environment.js";
import { planAccessPattern } from "../planner/plan-model.js";
import type { Plan, PlanStep } from "../planner/types.js";
import type { Workload } from "../workload/types.js";
import type { ContainerEvaluation, Evaluation, PatternEvaluation } from "./evaluation-types.js";
import { hashPosition, hottestPlacedLoad, type PlacedKey } from "./hash-partitions.js";
import { accumulateLoads, hottestKey, type ContainerLoad } from "./loads.js";
import { storageOf } from "./storage.js";
import { chooseThroughput } from "./throughput.js";
import { formatInteger } from "../common/format-number.js";

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

function planAll(env: PlanEnvironment, workload: Workload): Plan[] {
  return workload.accessPatterns.map((pattern) => planAccessPattern(env, pattern));
}

/** RU/s the container must be provisioned with: its peak, or its busiest partition times the partition count. */
function requiredRus(load: ContainerLoad, partitions: number): { required: number; hottest: number } {
  const hottest = hottestAt(load, partitions);
  // Cosmos DB divides the provisioned RU/s evenly among physical partitions: the busiest one
  // gets its share only when the container has that share on every partition.
  return { required: Math.max(load.peak, hottest * partitions), hottest };
}

/** Load of the busiest physical partition when the container has `partitions` of them. */
function hottestAt(load: ContainerLoad, partitions: number): number {
  return hottestPlacedLoad(placedKeys(load), load.spreadPeak, partitions);
}

function placedKeys(load: ContainerLoad): PlacedKey[] {
  return [...load.keys].map(([key, value]) => ({ position: hashPosition(key), load: value.peak }));
}

/** Most partitions tried beyond what storage and the peak need, to separate colliding hot keys. */
const MAX_SPLIT_FACTOR = 4;
/**
 * Key placements the search for a partition count that separates colliding hot keys may make
 * trying counts one by one (a split adds a partition); past it, the counts tried up to
 * {@link MAX_SPLIT_FACTOR} times the base follow a geometric sequence of
 * {@link SPLIT_TRIALS_GEOMETRIC} steps. So the search costs the same for 10 partitions or 10
 * million, and is exact (every count tried) for the partition counts real containers have.
 */
const SPLIT_PLACEMENTS = 200_000;
const SPLIT_TRIALS_GEOMETRIC = 64;

/** The partition counts {@link partitionsFor} tries, in increasing order, starting at `base`. */
export function* splitTrials(base: number, heavyKeys: number): Generator<number> {
  const last = base * MAX_SPLIT_FACTOR;
  const oneByOne = Math.max(SPLIT_TRIALS_GEOMETRIC, Math.floor(SPLIT_PLACEMENTS / Math.max(1, heavyKeys)));
  let count = base;
  yield count;
  // Counts past 2^53 have no next integer: the geometric steps take over.
  for (let tried = 1; tried < oneByOne && count < last && count + 1 > count; tried++) yield ++count;
  const ratio = MAX_SPLIT_FACTOR ** (1 / SPLIT_TRIALS_GEOMETRIC);
  while (count < last) {
    count = Math.min(last, Math.max(count + 1, Math.ceil(count * ratio)));
    yield count;
  }
}

/**
 * Physical partitions a container needs: enough for its storage and its peak, and then, while
 * hot keys collide on a partition that would need more than 10,000 RU/s, more (a split
 * separates keys), up to four times that (see {@link splitTrials} for the counts tried).
 */
function partitionsFor(load: ContainerLoad, storageGB: number): number {
  const base = Math.max(
    1,
    Math.ceil(storageGB / MAX_PHYSICAL_PARTITION_GB),
    Math.ceil(load.peak / MAX_PHYSICAL_PARTITION_RUS),
  );
  // No split separates a key from itself: when the hottest key alone is over the limit, more
  // partitions do not help.
  if (load.keys.size === 0 || hottestKey(load).peak > MAX_PHYSICAL_PARTITION_RUS) return base;
  const placed = placedKeys(load);
  for (const count of splitTrials(base, placed.length)) {
    if (hottestPlacedLoad(placed, load.spreadPeak, count) <= MAX_PHYSICAL_PARTITION_RUS) return count;
  }
  return base;
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
  const prices = options.prices ?? DEFAULT_PRICES;
  const issues: EvaluationIssue[] = [];
  const storage = new Map<string, ReturnType<typeof storageOf>>();
  const probe = createPlanEnvironment(workload, model, options);
  for (const container of model.containers) storage.set(container.name, storageOf(probe, container));
  const partitions: Record<string, number> = {};
  for (const container of model.containers) {
    const gb = storage.get(container.name)?.totalGB ?? 0;
    partitions[container.name] =
      container.physicalPartitions ?? Math.max(1, Math.ceil(gb / MAX_PHYSICAL_PARTITION_GB));
  }
  // A parent's children sit in one logical partition (or one per write shard), each read by one
  // change-feed lease that sums a batch's changes per parent: at most that many patches/s.
  const leasesOf = (name: string, itemType: string): number => {
    const shards =
      model.containers.find((c) => c.name === name)?.items.find((i) => i.type === itemType)?.shards ?? 1;
    return CHANGE_FEED_BATCHES_PER_SECOND * Math.min(shards, partitions[name] ?? 1);
  };
  const solve = (counts: Record<string, number>) => {
    const environment = createPlanEnvironment(workload, model, { ...options, partitions: counts });
    const planned = planAll(environment, workload);
    return {
      env: environment,
      plans: planned,
      loads: accumulateLoads(environment, planned, { counterPatchesPerSecondPerParent: leasesOf }),
    };
  };
  const needed = (load: ContainerLoad | undefined, container: Container, current: number): number => {
    if (container.physicalPartitions !== undefined || load === undefined) return current;
    return partitionsFor(load, storage.get(container.name)?.totalGB ?? 0);
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
      // Would one more partition add more fan-out RU/s than a partition can serve?
      const before = state.loads.get(container.name)?.peak ?? 0;
      const trial = solve({ ...partitions, [container.name]: current + 1 });
      const after = trial.loads.get(container.name)?.peak ?? 0;
      if (after - before >= MAX_PHYSICAL_PARTITION_RUS) {
        diverging.add(container.name);
        // Blame the patterns whose own load grows by a partition's worth; if none does alone,
        // every pattern whose load grows shares the blame.
        const deltas = workload.accessPatterns.map((pattern, index) => ({
          pattern,
          index,
          delta:
            (patternLoadOn(trial.plans[index], container.name) -
              patternLoadOn(state.plans[index], container.name)) *
            pattern.rps.peak,
        }));
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
            message: `${pattern.id} cannot scale: each physical partition added to ${container.name} adds ${formatInteger(delta)} RU/s of its fan-out at peak (${formatInteger(after - before)} RU/s in all), more than the ${formatInteger(MAX_PHYSICAL_PARTITION_RUS)} RU/s a partition serves (stopped at ${current} partitions, ${formatInteger(before)} RU/s)`,
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
  const { env, plans, loads } = state;
  const patterns = evaluatePatterns(workload, plans, issues);
  const containers = model.containers.map((container) =>
    evaluateContainer(
      workload,
      container,
      loads,
      storage.get(container.name),
      partitions[container.name] ?? 1,
      prices,
      issues,
    ),
  );
  checkItemSizes(env, model, issues);
  const totals = {
    rus: {
      avg: containers.reduce((sum, c) => sum + c.rus.avg, 0),
      peak: containers.reduce((sum, c) => sum + c.rus.peak, 0),
    },
    monthlyCostUSD: containers.reduce((sum, c) => sum + c.monthlyCostUSD, 0),
  };
  return { patterns, containers, totals, issues, partitions: { ...partitions } };
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
  workload: Workload,
  plans: readonly Plan[],
  issues: EvaluationIssue[],
): PatternEvaluation[] {
  return plans.map((plan, index) => {
    const pattern = workload.accessPatterns[index];
    if (pattern === undefined) throw new Error("internal: plans and patterns differ");
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
        message: `${plan.patternId} fans out over ${partitions} physical partition(s): ${sync.estimate.toFixed(1)} RU per request, ${formatInteger(sync.estimate * pattern.rps.peak)} RU/s at peak`,
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
    return {
      id: plan.patternId,
      plan,
      fanOut,
      ru: { ...sync, async },
      rus: {
        avg: (sync.estimate + async) * pattern.rps.avg,
        peak: (sync.estimate + async) * pattern.rps.peak,
      },
    };
  });
}

function evaluateContainer(
  workload: Workload,
  container: Container,
  loads: Map<string, ContainerLoad>,
  stored: ReturnType<typeof storageOf> | undefined,
  partitions: number,
  prices: Prices,
  issues: EvaluationIssue[],
): ContainerEvaluation {
  const load = loads.get(container.name) ?? {
    avg: 0,
    peak: 0,
    keys: new Map(),
    spreadPeak: 0,
    fanOutPerPartition: new Map(),
  };
  const { required, hottest } = requiredRus(load, partitions);
  const hot = hottestKey(load);
  const storageGB = stored?.totalGB ?? 0;
  const hottestStorage = stored?.hottestKeyGB ?? 0;
  const path: IssuePath = ["containers", container.name];
  if (hot.peak > MAX_PHYSICAL_PARTITION_RUS) {
    issues.push({
      code: "evaluate.hotPartition",
      container: container.name,
      rusPeak: hot.peak,
      severity: "error",
      path,
      message: `the hottest logical partition of ${container.name} needs ${formatInteger(hot.peak)} RU/s at peak, over the ${formatInteger(MAX_PHYSICAL_PARTITION_RUS)} RU/s one partition can serve`,
      suggestion:
        "spread it: replicas for a hot read set, write shards for a hot write key, or a key with more distinct values",
    });
  } else if (hottest > MAX_PHYSICAL_PARTITION_RUS && hottest > (load.spreadPeak / partitions) * 1.05) {
    issues.push({
      code: "evaluate.hotPhysicalPartition",
      container: container.name,
      physicalPartitions: partitions,
      rusPeak: hottest,
      severity: "warning",
      path,
      message: `hot logical keys of ${container.name} collide on one of its ${partitions} physical partitions: ${formatInteger(hottest)} RU/s at peak there`,
    });
  }
  if (container.physicalPartitions !== undefined && required > partitions * MAX_PHYSICAL_PARTITION_RUS) {
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
  if (hottestStorage > MAX_LOGICAL_PARTITION_GB) {
    issues.push({
      code: "evaluate.logicalPartitionTooLarge",
      container: container.name,
      storageGB: hottestStorage,
      severity: "error",
      path,
      message: `the largest logical partition of ${container.name} holds ${hottestStorage.toFixed(1)} GB, over the ${MAX_LOGICAL_PARTITION_GB} GB limit`,
      suggestion: "add a level to the partition key (hierarchical key) or bucket the items",
    });
  }
  for (const growth of stored?.growth ?? []) {
    if (growth.hoursTo20GB < 24 * 30) {
      issues.push({
        code: "evaluate.logicalPartitionGrowth",
        container: container.name,
        itemType: growth.itemType,
        gbPerHour: growth.gbPerHour,
        hoursTo20GB: growth.hoursTo20GB,
        severity: "warning",
        path,
        message: `at the peak write rate the hottest ${growth.itemType} partition of ${container.name} grows ${growth.gbPerHour.toFixed(2)} GB per hour and would reach ${MAX_LOGICAL_PARTITION_GB} GB after ${growth.hoursTo20GB.toFixed(1)} hours of peak`,
      });
    }
  }
  const choice = chooseThroughput(
    {
      requiredPeak: required,
      peak: load.peak,
      avg: load.avg,
      storageGB,
      physicalPartitions: partitions,
      hottestPhysical: hottest,
      regions: workload.scale.regions,
      multiRegionWrites: workload.scale.multiRegionWrites,
      ...(container.throughput === undefined ? {} : { pinned: container.throughput }),
    },
    prices,
  );
  return {
    name: container.name,
    physicalPartitions: partitions,
    storageGB,
    rus: { avg: load.avg, peak: load.peak },
    hottestLogicalPartition: { rus: hot.peak, storageGB: hottestStorage, key: hot.key },
    hottestPhysicalPartition: { rus: hottest, storageGB: storageGB / partitions },
    throughput: choice.throughput,
    monthlyCostUSD: choice.monthlyThroughputUSD + choice.monthlyStorageUSD,
    costBreakdown: {
      throughputUSD: choice.monthlyThroughputUSD,
      storageUSD: choice.monthlyStorageUSD,
      formula: choice.formula,
    },
  };
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
