/**
 * The access pattern mapping (every read and write: containers, operations, RU with range, notes)
 * and the hot partition analysis of the data model document.
 */
import type { EvaluationIssue } from "../common/issues.js";
import {
  LOGICAL_PARTITION_GROWTH_WARNING_HOURS,
  MAX_LOGICAL_PARTITION_GB,
  MAX_PHYSICAL_PARTITION_RUS,
  NEAR_LOGICAL_PARTITION_GB_SHARE,
  NEAR_PARTITION_RUS_SHARE,
} from "../cosmos/limits.js";
import { DEFAULT_RU_COEFFICIENTS } from "../estimator/coefficients.js";
import type { PlanStep } from "../planner/types.js";
import {
  bulletList,
  escapeMarkdownText as e,
  escapeTableCell as cell,
  formatNumber,
  formatPercent,
  inlineCode,
  table,
} from "./markdown.js";
import {
  type Context,
  ru,
  ruRange,
  rus,
  gb,
  code,
  unique,
  patternOf,
  syncSteps,
  asyncSteps,
  containerEvaluation,
  limitText,
} from "./data-model-context.js";

// ---------------------------------------------------------------------------------------------
// Access pattern mapping

/**
 * One plan step in words, with its RU and range; `code` formats identifiers and SQL (Markdown
 * backticks here, escaped `<code>` in the HTML report).
 */
export function describeStep(step: PlanStep, code: (text: string) => string = inlineCode): string {
  const times =
    step.times === 1
      ? ""
      : ` x ${formatNumber(step.times, 2)}${step.perResult === true ? " (per result)" : ""}`;
  const where = `${code(step.itemType)} in ${code(step.container)}`;
  switch (step.kind) {
    case "pointRead":
      return `point read ${where} by id ${code(step.id)}, key ${code(step.partitionKey.join(", "))}: ${ruRange(step.ru)}${times}`;
    case "query": {
      const scope =
        step.scope === "single"
          ? "single-partition query"
          : step.scope === "prefix"
            ? "key-prefix query"
            : step.scope === "shards"
              ? `query over the shards (${formatNumber(step.partitions, 0)} partitions)`
              : `fan-out query over ${formatNumber(step.partitions, 0)} physical partitions`;
      return `${scope} on ${where}, ~${formatNumber(step.returned, 1)} items: ${code(step.sql)}: ${ruRange(step.ru)}${times}`;
    }
    case "write":
      return `${step.operation} ${where}${step.sets === undefined ? "" : ` (sets ${step.sets.map(code).join(", ")})`}${step.increments === undefined ? "" : ` (increments ${step.increments.map((i) => code(i.property)).join(", ")})`}: ${ruRange(step.ru)}${times}`;
    case "batch":
      return `transactional batch of ${step.operations.length} operations in ${code(step.container)}: ${ruRange(step.ru)}${times}`;
    case "changeFeed":
      return `change feed (${step.reason}) of ${code(step.from.container)}/${code(step.from.itemType)} -> ${where}: ${ruRange(step.ru)}${times}`;
    default:
      return step satisfies never;
  }
}

export function renderAccessPatternMapping(context: Context): string {
  const rows = context.workload.accessPatterns.map((pattern) => {
    const evaluated = context.evaluation.patterns.find((p) => p.id === pattern.id);
    if (evaluated === undefined) {
      return [code(pattern.id), cell(pattern.name), pattern.type, "-", "not evaluated", "-", "-", "-"];
    }
    const containers = unique([...syncSteps(evaluated), ...asyncSteps(evaluated)].map((s) => s.container));
    const operations =
      evaluated.plan.operations.length === 0
        ? ["no request of its own (see the notes)"]
        : evaluated.plan.operations.map((step) => describeStep(step));
    const asyncOps =
      evaluated.plan.type === "write" ? evaluated.plan.async.map((step) => describeStep(step)) : [];
    const notes = [
      evaluated.plan.served ? "" : "**not served**",
      evaluated.fanOut ? "fan-out" : "",
      cachedNote(context, pattern.id),
      ...evaluated.plan.notes.map(e),
      ...evaluated.plan.operations.map((s) => e(s.note)),
      ...(evaluated.plan.type === "write" ? evaluated.plan.async.map((s) => `async: ${e(s.note)}`) : []),
    ].filter((x) => x !== "");
    return [
      code(pattern.id),
      cell(pattern.name),
      `${pattern.type}, ${formatNumber(pattern.rps.avg, 2)}/s avg, ${formatNumber(pattern.rps.peak, 2)}/s peak`,
      containers.map(code).join(", "),
      [`**${evaluated.plan.kind}**`, ...operations, ...asyncOps.map((x) => `async: ${x}`)].join("<br>"),
      ruRange(evaluated.ru) + (evaluated.ru.async > 0 ? ` + ${ru(evaluated.ru.async)} RU async` : ""),
      `${rus(evaluated.rus.avg)} avg, ${rus(evaluated.rus.peak)} peak` +
        (evaluated.rusBreakdown.aggregatedChangeFeed.peak > 0
          ? ` (${rus(evaluated.rusBreakdown.changeFeed.peak)} of change feed at peak less ${rus(evaluated.rusBreakdown.aggregatedChangeFeed.peak)} of updates summed per parent)`
          : ""),
      notes.join("<br>"),
    ];
  });
  return [
    "## Access Pattern Mapping",
    "### Solved Patterns",
    "Every read and write of the workload, as planned on this model. RU per request: the synchronous request(s) " +
      "with the estimator's range, plus the change-feed work a write triggers (async); RU/s include both, less the change-feed updates summed per parent per batch, so they add up to the containers' RU/s.",
    "",
    table(
      [
        "Pattern",
        "Description",
        "Type and rate",
        "Containers",
        "Cosmos DB Operations",
        "RU per request",
        "RU/s",
        "Implementation Notes",
      ],
      rows,
    ),
  ].join("\n");
}

/**
 * How a read served through the integrated cache reaches the database: its requests, the misses
 * the database serves at full charge (the rate its RU/s are computed at) and the hit ratio.
 */
function cachedNote(context: Context, id: string): string {
  const cached = context.evaluation.integratedCache?.patterns.find((p) => p.id === id);
  if (cached === undefined) return "";
  return (
    `**through the integrated cache** (answers up to ${formatNumber(cached.stalenessSeconds, 0)} s old): ` +
    `${formatNumber(cached.requests.peak, 2)} requests/s at peak, of which ${formatNumber(cached.misses.peak, 2)}/s miss and reach the database ` +
    `(hit ratio ${formatNumber(cached.hitRatio.peak * 100, 2)}%); the RU/s are the misses'`
  );
}

// ---------------------------------------------------------------------------------------------
// Hot partitions

export function renderHotPartitions(context: Context): string {
  const containerLines = context.evaluation.containers.map((c) => {
    const { hottestLogicalPartitionRus, busiestPhysicalPartitionRus, largestLogicalPartitionGB } = c.limits;
    const growth = largestLogicalPartitionGB.growth;
    const growthText =
      growth === undefined || growth.hoursToLimit >= growth.withinHours
        ? ""
        : `: its ${code(growth.itemType)} partition grows ${gb(growth.gbPerHour)} per hour at peak and would reach ${gb(largestLogicalPartitionGB.limit)} after ${formatNumber(growth.hoursToLimit, 1)} hours of peak`;
    return (
      `**${e(c.name)}**: hottest logical partition ${code(c.hottestLogicalPartition.key)} at ${limitText(hottestLogicalPartitionRus, rus)} at peak; ` +
      `largest logical partition ${limitText(largestLogicalPartitionGB, gb)} at the horizon${growthText}; ` +
      `busiest of ${formatNumber(c.physicalPartitions, 0)} physical partition(s) at ${limitText(busiestPhysicalPartitionRus, rus)} at peak` +
      context.evaluation.issues
        .filter((i) => partitionFindingContainer(i) === c.name)
        .map(
          (i) =>
            `; **${i.severity}**: ${e(i.message)}${i.suggestion === undefined ? "" : ` - **Mitigation**: ${e(i.suggestion)}`}`,
        )
        .join("")
    );
  });
  const rows = context.evaluation.patterns.flatMap((evaluated) => {
    const pattern = patternOf(context, evaluated.id);
    // A write's own item (its reads of parents for copies come first in the plan).
    const operations = evaluated.plan.operations;
    const first =
      evaluated.plan.type === "write"
        ? (operations.find((op) => op.kind === "write" || op.kind === "batch") ?? operations[0])
        : operations[0];
    if (pattern === undefined || first === undefined) return [];
    const keys = containerEvaluation(context, first.container)?.itemTypes.find(
      (i) => i.type === first.itemType,
    )?.keyValues;
    if (keys === undefined) return [];
    const fanOut = first.kind === "query" && first.scope === "fanOut";
    return [
      [
        code(pattern.id),
        `${code(first.container)}/${code(first.itemType)}`,
        formatNumber(pattern.rps.peak, 2),
        formatNumber(keys, 0),
        fanOut
          ? `every partition (fan-out over ${formatNumber(first.kind === "query" ? first.partitions : 0, 0)})`
          : formatNumber(pattern.rps.peak / keys, 4),
        rus(evaluated.rus.peak),
      ],
    ];
  });
  // The top of the estimates' band for point reads and creates (the partition-bound operations),
  // with the coefficients the evaluation used.
  const bands = (context.evaluation.requestCharges?.coefficients ?? DEFAULT_RU_COEFFICIENTS).bands;
  const bandTop = Math.max(bands.read.high, bands.insert.high);
  return [
    "## Hot Partition Analysis",
    `A logical partition (one key value) lives on one physical partition, which serves at most ${formatNumber(MAX_PHYSICAL_PARTITION_RUS, 0)} RU/s, and a logical partition holds at most ${MAX_LOGICAL_PARTITION_GB} GB. The hottest key includes the skew of the workload's attributes. ` +
      `A partition is near its limit from ${formatPercent(NEAR_PARTITION_RUS_SHARE, 0)} of its RU/s (the RU estimates' measured band for point reads and creates reaches ${formatNumber(bandTop, 2)} times the estimate) and from ${formatPercent(NEAR_LOGICAL_PARTITION_GB_SHARE, 0)} of ${MAX_LOGICAL_PARTITION_GB} GB (Microsoft's alert threshold), or when it would reach ${MAX_LOGICAL_PARTITION_GB} GB within ${formatNumber(LOGICAL_PARTITION_GROWTH_WARNING_HOURS / 24, 0)} days of peak writes.`,
    "",
    bulletList(containerLines),
    "",
    "Requests per key value if spread evenly over the distinct key values (peak requests/s divided by key values):",
    "",
    table(
      [
        "Pattern",
        "Container / item type",
        "Peak requests/s",
        "Key values",
        "Peak requests/s per key value",
        "Pattern RU/s at peak",
      ],
      rows,
    ),
  ].join("\n");
}

/** The container whose partitions a finding is about (listed with its hot partition analysis). */
function partitionFindingContainer(issue: EvaluationIssue): string | undefined {
  switch (issue.code) {
    case "evaluate.hotPartition":
    case "evaluate.hotPhysicalPartition":
    case "evaluate.logicalPartitionTooLarge":
    case "evaluate.logicalPartitionGrowth":
    case "evaluate.noHeadroom":
      return issue.container;
    // Findings about a container's throughput setting or its items: in the findings table.
    case "evaluate.pinnedPartitionsOverloaded":
    case "evaluate.itemTooLarge":
    case "evaluate.idNotUnique":
    case "evaluate.keyTooLong":
    case "evaluate.ttlOff":
    case "evaluate.fanOutCannotScale":
    case "evaluate.patternNotServed":
    case "evaluate.fanOut":
    case "evaluate.boundedSetTooSmall":
    case "evaluate.underProvisioned":
    case "evaluate.overContainerMaximum":
    case "evaluate.mixedCapacityModes":
    case "evaluate.serverlessNotPossible":
    case "evaluate.keyChangedInPlace":
    case "evaluate.copyNotMaintainable":
    case "evaluate.copySourceUnreadable":
    case "evaluate.embedNotAddressable":
    case "evaluate.embedReparented":
    case "evaluate.boundedSetNotRefilled":
    case "evaluate.counterNotAddressable":
    case "evaluate.notAtomic":
    case "evaluate.integratedCacheTooSmall":
    case "evaluate.integratedCacheFewNodes":
    case "evaluate.leaseContainerMissing":
      return undefined;
    default:
      return issue satisfies never;
  }
}
