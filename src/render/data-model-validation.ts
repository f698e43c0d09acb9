/**
 * The "Validation Results" section of `cosmosdb_data_model.md`: one check line per requirement
 * of the expert prompt (patterns mapped and served, partition limits, item size, fan-out,
 * capacity mode, throughput, decisions), each met or failed by the evaluation's findings and
 * limit statuses, then the findings table.
 */
import {
  LOGICAL_PARTITION_GROWTH_WARNING_HOURS,
  MAX_ITEM_BYTES,
  MAX_LOGICAL_PARTITION_GB,
  MAX_PHYSICAL_PARTITION_RUS,
} from "../cosmos/limits.js";
import type { Evaluation, LimitCheck } from "../cost/evaluation-types.js";
import type { EvaluationIssue } from "../common/issues.js";
import type { Workload } from "../workload/types.js";
import { readablePath } from "./readable-path.js";
import {
  bulletList,
  escapeMarkdownText as e,
  escapeTableCell as cell,
  formatBytes,
  formatNumber,
  table,
} from "./markdown.js";
import { type Context, ruRange, rus, gb, code, limitText, worstStatus } from "./data-model-context.js";

/** The validation checks that findings of the evaluation can fail. */
type ValidationCheck =
  | "hotLogical"
  | "hotPhysical"
  | "logicalSize"
  | "logicalGrowth"
  | "itemSize"
  | "fanOutScale"
  | "capacityMode"
  | "throughputLimits"
  | "writes"
  | "soundness";

/** The check a finding fails, if any (the others are reported in the findings table only). */
function validationCheckOf(issue: EvaluationIssue): ValidationCheck | undefined {
  switch (issue.code) {
    case "evaluate.hotPartition":
      return "hotLogical";
    case "evaluate.hotPhysicalPartition":
    case "evaluate.pinnedPartitionsOverloaded":
      return "hotPhysical";
    case "evaluate.logicalPartitionTooLarge":
      return "logicalSize";
    case "evaluate.logicalPartitionGrowth":
      return "logicalGrowth";
    case "evaluate.noHeadroom":
      return issue.measure === "rus" ? "hotLogical" : "logicalSize";
    case "evaluate.itemTooLarge":
      return "itemSize";
    case "evaluate.idNotUnique":
    case "evaluate.keyTooLong":
    case "evaluate.ttlOff":
    case "evaluate.leaseContainerMissing":
      return "soundness";
    case "evaluate.fanOutCannotScale":
      return "fanOutScale";
    case "evaluate.mixedCapacityModes":
    case "evaluate.serverlessNotPossible":
      return "capacityMode";
    case "evaluate.underProvisioned":
    case "evaluate.overContainerMaximum":
      return "throughputLimits";
    case "evaluate.keyChangedInPlace":
    case "evaluate.copyNotMaintainable":
    case "evaluate.copySourceUnreadable":
    case "evaluate.embedNotAddressable":
    case "evaluate.embedReparented":
    case "evaluate.boundedSetNotRefilled":
    case "evaluate.counterNotAddressable":
    case "evaluate.notAtomic":
      return "writes";
    case "evaluate.integratedCacheTooSmall":
    case "evaluate.integratedCacheFewNodes":
    case "evaluate.patternNotServed":
    case "evaluate.fanOut":
    case "evaluate.boundedSetTooSmall":
      return undefined;
    default:
      return issue satisfies never;
  }
}

/**
 * A validation line: `[x] ✅` met, `[x] ⚠️` met but near a limit, `[ ] ⚠️` a warning, `[ ] ❌`
 * failed. Limit lines take the evaluation's status; the others are met or not.
 */
type CheckResult = "met" | "near" | "warning" | "failed";

function checkLine(result: CheckResult, text: string): string {
  switch (result) {
    case "met":
      return `[x] ✅ ${text}`;
    case "near":
      return `[x] ⚠️ ${text}`;
    case "warning":
      return `[ ] ⚠️ ${text}`;
    case "failed":
      return `[ ] ❌ ${text}`;
    default:
      return result satisfies never;
  }
}

/** Met when `ok`, else `otherwise` (failed unless said). */
function met(ok: boolean, otherwise: CheckResult = "failed"): CheckResult {
  return ok ? "met" : otherwise;
}

/** The check result of the worst status among the containers' checks of one limit. */
function limitResult(checks: readonly LimitCheck[]): CheckResult {
  const status = worstStatus(checks.map((c) => c.status));
  return status === "over" ? "failed" : status === "near" ? "near" : "met";
}

/** The check with the highest share of its limit (what the line quotes). */
function highest(checks: readonly LimitCheck[]): LimitCheck | undefined {
  return checks.reduce<LimitCheck | undefined>(
    (a, b) => (a === undefined || b.share > a.share ? b : a),
    undefined,
  );
}

/** The validation section: the check lines, then every finding of the evaluation. */
export function renderValidation(context: Context): string {
  const { evaluation, workload } = context;
  const items = [...patternChecks(context), ...partitionChecks(evaluation), ...modelChecks(context)];
  const lines = ["## Validation Results 🔴", "", bulletList(items)];
  if (evaluation.issues.length > 0)
    lines.push("", "Findings of the evaluation:", "", findingsTable(evaluation, workload));
  return lines.join("\n");
}

/** Every pattern mapped to container operations, and served. */
function patternChecks({ evaluation, workload }: Context): string[] {
  const served = evaluation.patterns.filter((p) => p.plan.served).length;
  const mapped = workload.accessPatterns.filter((p) => evaluation.patterns.some((x) => x.id === p.id)).length;
  return [
    checkLine(
      met(mapped === workload.accessPatterns.length),
      `Every access pattern is mapped to container operations: ${formatNumber(mapped, 0)} of ${formatNumber(workload.accessPatterns.length, 0)}.`,
    ),
    checkLine(
      met(served === evaluation.patterns.length),
      `Every access pattern is served: ${formatNumber(served, 0)} of ${formatNumber(evaluation.patterns.length, 0)}${
        served === evaluation.patterns.length
          ? ""
          : ` (not served: ${evaluation.patterns
              .filter((p) => !p.plan.served)
              .map((p) => e(p.id))
              .join(", ")})`
      }.`,
    ),
  ];
}

/** The partition limits, each at the status of the containers' worst check, quoting the highest. */
function partitionChecks(evaluation: Evaluation): string[] {
  const logicalRus = evaluation.containers.map((c) => c.limits.hottestLogicalPartitionRus);
  const physicalRus = evaluation.containers.map((c) => c.limits.busiestPhysicalPartitionRus);
  const logicalGB = evaluation.containers.map((c) => c.limits.largestLogicalPartitionGB);
  const quote = (checks: readonly LimitCheck[], unit: (v: number) => string): string => {
    const top = highest(checks);
    return top === undefined ? "none" : limitText(top, unit);
  };
  const growing = evaluation.containers.flatMap((c) => {
    const growth = c.limits.largestLogicalPartitionGB.growth;
    return growth !== undefined && growth.hoursToLimit < growth.withinHours
      ? [
          `the ${code(growth.itemType)} partition of ${code(c.name)} would reach ${MAX_LOGICAL_PARTITION_GB} GB after ${formatNumber(growth.hoursToLimit, 1)} hours of peak writes`,
        ]
      : [];
  });
  return [
    checkLine(
      limitResult(logicalRus),
      `No logical partition over ${formatNumber(MAX_PHYSICAL_PARTITION_RUS, 0)} RU/s: the hottest needs ${quote(logicalRus, rus)} at peak.`,
    ),
    checkLine(
      limitResult(physicalRus),
      `No physical partition over ${formatNumber(MAX_PHYSICAL_PARTITION_RUS, 0)} RU/s: the busiest carries ${quote(physicalRus, rus)} at peak.`,
    ),
    checkLine(
      limitResult(logicalGB),
      `No logical partition over ${MAX_LOGICAL_PARTITION_GB} GB, now or within ${formatNumber(LOGICAL_PARTITION_GROWTH_WARNING_HOURS / 24, 0)} days of peak writes: the largest holds ${quote(logicalGB, gb)} at the horizon${growing.length === 0 ? "" : `; ${growing.join("; ")}`}.`,
    ),
  ];
}

/** Item size, writes, fan-out scaling, capacity mode, throughput settings, fan-outs and decisions. */
function modelChecks({ evaluation, decisions }: Context): string[] {
  const failing = (check: ValidationCheck): EvaluationIssue[] =>
    evaluation.issues.filter((i) => validationCheckOf(i) === check);
  const fanOuts = evaluation.patterns.filter((p) => p.fanOut);
  const tooLarge = failing("itemSize");
  const throughput = failing("throughputLimits");
  return [
    checkLine(
      met(tooLarge.length === 0),
      `No item over ${formatBytes(MAX_ITEM_BYTES)}${tooLarge.length === 0 ? "" : `: ${tooLarge.map((i) => e(i.message)).join("; ")}`}.`,
    ),
    checkLine(
      met(failing("soundness").length === 0),
      failing("soundness").length === 0
        ? "Every item type is sound: each id identifies one record in its logical partition, and every item written with a ttl lives in a container with TTL on."
        : `Item types that would fail when run: ${failing("soundness")
            .map((i) => e(i.message))
            .join("; ")}.`,
    ),
    checkLine(
      met(failing("writes").length === 0),
      failing("writes").length === 0
        ? "Every write keeps its items where they belong: keys never patched in place, every copy maintainable, atomic writes in one logical partition."
        : `Writes the model cannot make correct: ${failing("writes")
            .map((i) => e(i.message))
            .join("; ")}.`,
    ),
    checkLine(
      met(failing("fanOutScale").length === 0),
      "Every fan-out query can scale with the data (each added partition adds less than a partition serves).",
    ),
    checkLine(
      met(failing("capacityMode").length === 0),
      `One capacity mode for the whole account, possible for every container: ${e(evaluation.account.mode)}.`,
    ),
    checkLine(
      met(throughput.length === 0, "warning"),
      throughput.length === 0
        ? "Every container's throughput serves its busiest partition and stays under the default maximum per container and database."
        : `Throughput settings to revisit: ${throughput.map((i) => e(i.message)).join("; ")}.`,
    ),
    checkLine(
      met(fanOuts.length === 0, "warning"),
      fanOuts.length === 0
        ? "No read fans out over every physical partition."
        : `Reads that fan out over every physical partition: ${fanOuts.map((p) => `${e(p.id)} (${ruRange(p.ru)}, ${rus(p.rus.peak)} at peak)`).join(", ")}.`,
    ),
    checkLine(
      met(decisions.length > 0, "warning"),
      `Design decisions documented with their alternatives and numbers: ${formatNumber(decisions.length, 0)}.`,
    ),
  ];
}

/** Every finding of the evaluation: severity, code, where, what (with the suggestion). */
function findingsTable(evaluation: Evaluation, workload: Workload): string {
  return table(
    ["Severity", "Code", "Where", "Finding"],
    evaluation.issues.map((i) => [
      i.severity,
      code(i.code),
      code(readablePath(i.path, workload)),
      cell(i.suggestion === undefined ? i.message : `${i.message} (${i.suggestion})`),
    ]),
  );
}
