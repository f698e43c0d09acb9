/**
 * A finding of the evaluation in a few words a reader of a decision understands: the pattern's id
 * or the container's name and what breaks ("Q6's fan-out over posts cannot scale"), never an
 * internal code or a 0-based index path (`evaluate.fanOutCannotScale at accessPatterns[9]`). The
 * issue's full message stays in the findings table; decisions name what still breaks briefly.
 */
import type { EvaluationIssue, EvaluationIssueCode, Issue, IssueOf } from "./issues.js";

type Brief = { readonly [C in EvaluationIssueCode]: (issue: IssueOf<C>) => string };

const list = (names: readonly string[]): string => names.join(", ");

/** One phrase per code of the evaluation, from the finding's payload (so every code has one). */
const BRIEF: Brief = {
  "evaluate.patternNotServed": (i) => `${i.pattern} is served by no item type`,
  "evaluate.fanOut": (i) => `${i.pattern} fans out over ${i.physicalPartitions} physical partitions`,
  "evaluate.fanOutCannotScale": (i) => `${i.pattern}'s fan-out over ${i.container} cannot scale`,
  "evaluate.boundedSetTooSmall": (i) => `${i.pattern} asks for more than its bounded set keeps`,
  "evaluate.hotPartition": (i) => `a logical partition of ${i.container} is over 10,000 RU/s`,
  "evaluate.noHeadroom": (i) =>
    `${i.container}'s busiest logical partition is over its target ${i.measure === "rus" ? "throughput" : "storage"}`,
  "evaluate.hotPhysicalPartition": (i) => `a physical partition of ${i.container} is over 10,000 RU/s`,
  "evaluate.pinnedPartitionsOverloaded": (i) => `${i.container}'s pinned partitions are overloaded`,
  "evaluate.logicalPartitionTooLarge": (i) => `a logical partition of ${i.container} is over 20 GB`,
  "evaluate.logicalPartitionGrowth": (i) =>
    `${i.itemType} in ${i.container} grows one logical partition to 20 GB`,
  "evaluate.underProvisioned": (i) => `${i.container} is provisioned below its peak`,
  "evaluate.overContainerMaximum": (i) => `${list(i.containers)} over the maximum throughput`,
  "evaluate.mixedCapacityModes": () => "serverless and provisioned containers in one account",
  "evaluate.serverlessNotPossible": (i) => `${i.container} cannot be serverless`,
  "evaluate.itemTooLarge": (i) => `${i.itemType} items in ${i.container} are over 2 MB`,
  "evaluate.idNotUnique": (i) => `${i.itemType} ids in ${i.container} are not unique`,
  "evaluate.keyTooLong": (i) =>
    `${i.itemType}'s ${i.field === "id" ? "id" : "partition key"} in ${i.container} can be too long`,
  "evaluate.ttlOff": (i) => `${i.container} has no time to live`,
  "evaluate.leaseContainerMissing": () => "no lease container for the change feed",
  "evaluate.keyChangedInPlace": (i) => `${i.pattern} changes the key of ${i.itemType} items in place`,
  "evaluate.copyNotMaintainable": (i) => `the copy ${i.itemType}.${i.property} cannot be kept up to date`,
  "evaluate.copySourceUnreadable": (i) => `the copy ${i.itemType}.${i.property} cannot read its source`,
  "evaluate.embedNotAddressable": (i) => `${i.pattern} cannot find the ${i.holder} holding ${i.entity}`,
  "evaluate.embedReparented": (i) => `${i.pattern} moves an embedded ${i.entity} to another ${i.holder}`,
  "evaluate.boundedSetNotRefilled": (i) => `${i.pattern} leaves the bounded set ${i.itemType} short`,
  "evaluate.counterNotAddressable": (i) => `${i.pattern} cannot find the counter ${i.itemType}.${i.property}`,
  "evaluate.integratedCacheTooSmall": (i) => `the ${i.size} gateway's cache is too small`,
  "evaluate.integratedCacheFewNodes": (i) => `${i.nodes} gateway node(s), fewer than production needs`,
  "evaluate.notAtomic": (i) => `${i.pattern} and ${i.partner} cannot commit together`,
};

/** True for a finding of the evaluation (`evaluate.*`). */
function isEvaluationIssue(issue: Issue): issue is EvaluationIssue {
  return issue.code.startsWith("evaluate.") && issue.code in BRIEF;
}

/** A finding in a few words (the message itself for other issues). */
export function briefIssue(issue: Issue): string {
  if (!isEvaluationIssue(issue)) return issue.message;
  return (BRIEF[issue.code] as (issue: EvaluationIssue) => string)(issue);
}

/** Up to `shown` findings in a few words each, deduplicated, then how many more. */
export function briefIssues(issues: readonly Issue[], shown = 3): string {
  const phrases = [...new Set(issues.map(briefIssue))];
  const head = phrases.slice(0, shown).join("; ");
  return phrases.length > shown ? `${head} and ${phrases.length - shown} more` : head;
}
