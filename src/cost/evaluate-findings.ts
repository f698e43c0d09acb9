/**
 * The evaluation's findings and figures per pattern and per container (hot partitions, fan-outs,
 * limits, the account's capacity mode, item sizes), from the solved plans, loads and choices.
 */
import {
  INITIAL_RUS_PER_PARTITION_MANUAL,
  LOGICAL_PARTITION_GROWTH_WARNING_HOURS,
  NEAR_LOGICAL_PARTITION_GB_SHARE,
  NEAR_PARTITION_RUS_SHARE,
  limitStatus,
  MAX_ITEM_BYTES,
  MAX_LOGICAL_PARTITION_GB,
  MAX_PHYSICAL_PARTITION_RUS,
  SYSTEM_PROPERTIES_BYTES,
} from "../cosmos/limits.js";
import type { EvaluationIssue, IssuePath } from "../common/issues.js";
import type { Container, Model } from "../model/types.js";
import { partitionKeyHashingOf } from "../planner/container-definition.js";
import { maxItemBytes, maxRecordsPerBucket } from "./bucket-maxima.js";
import type { Placement } from "../planner/context.js";
import { sumEstimates, scaleEstimate, type PlanEnvironment } from "../planner/environment.js";
import type { Plan, PlanStep } from "../planner/types.js";
import type { AccessPattern, Workload } from "../workload/types.js";
import { type AccountCapacity } from "./capacity-mode.js";
import { heavyKeysOf } from "./container-layouts.js";
import type {
  ContainerEvaluation,
  ContainerLimits,
  LimitCheck,
  PatternEvaluation,
  RatePair,
} from "./evaluation-types.js";
import { heavyPartitionLoads, physicalPartitionOf } from "./hash-partitions.js";
import type { EvaluationCache } from "./evaluation-cache.js";
import { hottestKey, hottestKeyAtHigh, type ContainerLoad } from "./loads.js";
import { type ContainerStorage } from "./storage.js";
import { type ThroughputChoice } from "./throughput.js";
import { formatFigure, formatInteger } from "../common/format-number.js";
import { throughputMaximumIssue } from "./throughput-maximum.js";
import { writeFindingIssues } from "./write-findings.js";

function stepTotal(steps: readonly PlanStep[]) {
  return sumEstimates(steps.map((step) => scaleEstimate(step.ru, step.times)));
}

/** Every pattern's figures and findings (plans in the workload's order), findings into `issues`. */
export function evaluatePatterns(
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
    // A plan evaluates the same every time with the same rates and aggregated updates.
    const key = `${index}|${pattern.rps.avg}|${pattern.rps.peak}|${aggregated.avg}|${aggregated.peak}`;
    const evaluated = cache.memo(plan, key, () => evaluatePattern(plan, pattern, index, aggregated));
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
  if (plan.type === "write") issues.push(...writeFindingIssues(plan, index));
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
  hottestLogicalRusHigh: number,
  targetUtilization: number,
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
    hottestLogicalPartitionRusHigh: limitCheck(hottestLogicalRusHigh, partitionLimit, targetUtilization),
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

/** A container's figures and findings (hot partitions, limits, growth), findings into `issues`. */
export function evaluateContainer(
  env: PlanEnvironment,
  container: Container,
  load: ContainerLoad,
  stored: ContainerStorage | undefined,
  choice: ThroughputChoice | undefined,
  issues: EvaluationIssue[],
): ContainerEvaluation {
  if (choice === undefined) throw new Error(`internal: ${container.name} was not priced`);
  const target = env.context.workload.scale.targetUtilization;
  throughputFindings(container, load, choice, target, issues);
  storageFindings(container, stored, target, issues);
  return containerFigures(env, container, load, stored, choice);
}

/** Hot logical and physical partitions, throttling, pinned counts and the container maximum. */
function throughputFindings(
  container: Container,
  load: ContainerLoad,
  choice: ThroughputChoice,
  targetUtilization: number,
  issues: EvaluationIssue[],
): void {
  const layout = choice.chosen.layout;
  const partitions = layout.partitions;
  const hottest = layout.hottest;
  const hot = hottestKey(load);
  const high = hottestKeyAtHigh(load);
  const path: IssuePath = ["containers", container.name];
  // Over the target at the top of the range is a warning, up to the limit and past it: the error
  // is the estimate's (below), the range says how sure the estimate is (issue 26's reading).
  if (high.high > targetUtilization * layout.partitionLimit && hot.peak <= layout.partitionLimit) {
    issues.push({
      code: "evaluate.noHeadroom",
      container: container.name,
      measure: "rus",
      value: high.high,
      limit: layout.partitionLimit,
      targetUtilization,
      severity: "warning",
      path,
      message: `the hottest logical partition of ${container.name} needs ${formatInteger(high.high)} RU/s at peak at the top of its requests' RU range (${formatInteger(hot.peak)} at the estimate), ${formatFigure((100 * high.high) / layout.partitionLimit)}% of the ${formatInteger(layout.partitionLimit)} RU/s one partition serves: over the target of ${formatFigure(100 * targetUtilization)}% (scale.targetUtilization)${high.high > layout.partitionLimit ? ", and throttled (429) at peak if the requests cost the top of their range" : ", no margin for traffic above the stated peak"}`,
      suggestion:
        "spread it (replicas for a hot read set, write shards for a hot write key), or raise scale.targetUtilization if the peak is a hard ceiling",
    });
  }
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
  const overMaximum =
    choice.chosen.mode === "serverless"
      ? undefined
      : throughputMaximumIssue([container.name], choice.chosen.provisionedRus, false, [
          ...path,
          "throughput",
        ]);
  if (overMaximum !== undefined) issues.push(overMaximum);
}

/** A logical partition over the size limit, or one that would reach it within a month of peak. */
function storageFindings(
  container: Container,
  stored: ContainerStorage | undefined,
  targetUtilization: number,
  issues: EvaluationIssue[],
): void {
  const hottestStorage = stored?.hottestKeyGB ?? 0;
  const path: IssuePath = ["containers", container.name];
  if (
    hottestStorage > targetUtilization * MAX_LOGICAL_PARTITION_GB &&
    hottestStorage <= MAX_LOGICAL_PARTITION_GB
  ) {
    issues.push({
      code: "evaluate.noHeadroom",
      container: container.name,
      measure: "storage",
      value: hottestStorage,
      limit: MAX_LOGICAL_PARTITION_GB,
      targetUtilization,
      severity: "warning",
      path,
      message: `the largest logical partition of ${container.name} holds ${formatFigure(hottestStorage)} GB at the end of the horizon, ${formatFigure((100 * hottestStorage) / MAX_LOGICAL_PARTITION_GB)}% of the ${MAX_LOGICAL_PARTITION_GB} GB limit: over the target of ${formatFigure(100 * targetUtilization)}% (scale.targetUtilization), no margin for growth beyond the horizon`,
      suggestion: "add a level to the partition key (hierarchical key) or bucket the items",
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
}

/** The container's figures as the evaluation reports them. */
function containerFigures(
  env: PlanEnvironment,
  container: Container,
  load: ContainerLoad,
  stored: ContainerStorage | undefined,
  choice: ThroughputChoice,
): ContainerEvaluation {
  const layout = choice.chosen.layout;
  const partitions = layout.partitions;
  const hottest = layout.hottest;
  const hot = hottestKey(load);
  const storageGB = stored?.totalGB ?? 0;
  const hottestStorage = stored?.hottestKeyGB ?? 0;
  return {
    name: container.name,
    physicalPartitions: partitions,
    storageGB,
    rus: { avg: load.avg, peak: load.peak },
    hottestLogicalPartition: { rus: hot.peak, storageGB: hottestStorage, key: hot.key },
    hottestPhysicalPartition: { rus: hottest, storageGB: storageGB / partitions },
    limits: containerLimits(
      hot.peak,
      hottestKeyAtHigh(load).high,
      env.context.workload.scale.targetUtilization,
      hottest,
      layout.partitionLimit,
      hottestStorage,
      stored?.growth ?? [],
    ),
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
    monthlyCostRange: {
      lowUSD: (choice.chosen.range?.lowUSD ?? choice.monthlyThroughputUSD) + choice.monthlyStorageUSD,
      highUSD: (choice.chosen.range?.highUSD ?? choice.monthlyThroughputUSD) + choice.monthlyStorageUSD,
    },
    costBreakdown: {
      throughputUSD: choice.monthlyThroughputUSD,
      storageUSD: choice.monthlyStorageUSD,
      formula: choice.formula,
    },
  };
}

/** The account's capacity mode: a model that mixes modes, or pins serverless where it cannot be. */
export function checkAccount(
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
  const overMaximum =
    shared.length === 0
      ? undefined
      : throughputMaximumIssue(
          shared.map((c) => c.name),
          sharedRus,
          true,
          ["containers"],
        );
  if (overMaximum !== undefined) issues.push(overMaximum);
}

/**
 * Item types whose largest item is over the 2 MB item limit: at the workload's maxima (an
 * entity's `maxBytes`, a relationship's `max` children, a time-window bucket of the hottest key
 * at its peak rate: `bucket-maxima.ts`), not its averages.
 */
export function checkItemSizes(env: PlanEnvironment, model: Model, issues: EvaluationIssue[]): void {
  for (const container of model.containers) {
    for (const item of container.items) {
      const placement: Placement | undefined = env.context.placement(container.name, item.type);
      if (placement === undefined) continue;
      const bytes = maxItemBytes(env, placement);
      if (bytes + SYSTEM_PROPERTIES_BYTES > MAX_ITEM_BYTES) {
        const records = item.bucket === undefined ? 1 : maxRecordsPerBucket(env, placement);
        issues.push({
          code: "evaluate.itemTooLarge",
          container: container.name,
          itemType: item.type,
          bytes,
          severity: "error",
          path: ["containers", container.name, "items", item.type],
          message: `the largest ${item.type} item is about ${formatInteger(bytes)} bytes${item.bucket === undefined ? "" : ` (a bucket of ${formatInteger(records)} records, the most one key's bucket holds at the workload's maxima)`}, over the 2 MB item limit`,
          suggestion:
            item.bucket !== undefined
              ? "use a shorter window or a fixed number of records per bucket"
              : item.embeds.length > 0
                ? "embed only the newest N children, bucket them, or keep them as items of their own"
                : "split the entity: keep large or growing parts in items of their own (or binary content in Blob Storage with a reference)",
        });
      }
    }
  }
}
