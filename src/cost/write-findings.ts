/**
 * The findings of write plans as typed evaluation issues: a key the model would patch in place, a
 * copy it cannot keep up to date, a counter its counted child cannot address. Each is an error: the model would answer wrongly, whatever it
 * costs. (Writes that must commit together but cannot are found from the model's layout, not a
 * plan: `evaluate.notAtomic`, in atomic-writes.ts.)
 */
import type { EvaluationIssue } from "../common/issues.js";
import type { WriteFinding, WritePlan } from "../planner/types.js";

/** The issue of one finding of the write plan of the pattern at `index`. */
function issueOf(finding: WriteFinding, plan: WritePlan, index: number): EvaluationIssue {
  const path = ["accessPatterns", index] as const;
  switch (finding.kind) {
    case "keyChangedInPlace":
      return {
        code: "evaluate.keyChangedInPlace",
        pattern: plan.patternId,
        container: finding.container,
        itemType: finding.itemType,
        attributes: finding.attributes,
        severity: "error",
        path,
        message: `${plan.patternId} changes ${finding.attributes.join(", ")}, which places ${finding.container}/${finding.itemType} items; ${finding.reason}`,
        suggestion: `key ${finding.itemType} by attributes that writes do not change`,
      };
    case "copyNotMaintainable":
      return {
        code: "evaluate.copyNotMaintainable",
        pattern: plan.patternId,
        container: finding.container,
        itemType: finding.itemType,
        property: finding.property,
        entity: finding.entity,
        attribute: finding.attribute,
        severity: "error",
        path,
        message: `${finding.container}/${finding.itemType}.${finding.property} copies ${finding.entity}.${finding.attribute}, but no relationship with "via" leads from ${finding.entity} to the items holding it: ${plan.patternId} cannot find them to update (and a new holder cannot find the ${finding.entity} to copy from)`,
        suggestion: `drop the copy; to keep ${finding.entity}.${finding.attribute} with each ${finding.itemType}, make the many-to-many link an entity of its own (its key, and the keys of both sides as one-to-many relationships with via), then copy ${finding.entity}.${finding.attribute} into the link items`,
      };
    case "copySourceUnreadable":
      return {
        code: "evaluate.copySourceUnreadable",
        pattern: plan.patternId,
        container: finding.container,
        itemType: finding.itemType,
        property: finding.property,
        entity: finding.entity,
        attribute: finding.attribute,
        severity: "error",
        path,
        message: `${finding.container}/${finding.itemType}.${finding.property} copies ${finding.entity}.${finding.attribute}, but no item type stores complete ${finding.entity} records under their key alone: ${plan.patternId} cannot read the ${finding.entity} to copy from (a point read needs the id and partition key from the ${finding.itemType}'s via)`,
        suggestion: `store ${finding.entity} items keyed by the ${finding.entity}'s key (id and partition key from it alone), or drop the copy`,
      };
    case "embedNotAddressable":
      return {
        code: "evaluate.embedNotAddressable",
        pattern: plan.patternId,
        container: finding.container,
        itemType: finding.itemType,
        entity: finding.entity,
        holder: finding.holder,
        missing: finding.missing,
        severity: "error",
        path,
        message: `${plan.patternId} writes a ${finding.entity} embedded in ${finding.container}/${finding.itemType}, placed by ${finding.holder}.${finding.missing.join(`, ${finding.holder}.`)}, which a ${finding.entity} record does not give (it holds its ${finding.holder}'s key only; an attribute of ${finding.entity} with the same name is ${finding.entity}'s own): the ${finding.itemType} to update cannot be found`,
        suggestion: `embed ${finding.entity} in an item placed by the ${finding.holder}'s key alone, or keep ${finding.entity} items of their own`,
      };
    case "embedReparented":
      return {
        code: "evaluate.embedReparented",
        pattern: plan.patternId,
        container: finding.container,
        itemType: finding.itemType,
        entity: finding.entity,
        holder: finding.holder,
        via: finding.via,
        severity: "error",
        path,
        message: `${plan.patternId} may move a ${finding.entity} to another ${finding.holder} (it changes ${finding.entity}.${finding.via.join(`, ${finding.entity}.`)}), and ${finding.entity} is embedded in ${finding.container}/${finding.itemType}: the write patches the new ${finding.holder}'s item, nothing finds the old one, which keeps the ${finding.entity}`,
        suggestion: `keep ${finding.entity} items of their own and read them with the ${finding.holder} (a follow-up query), or make the write leave ${finding.via.join(", ")} unchanged`,
      };
    case "boundedSetNotRefilled":
      return {
        code: "evaluate.boundedSetNotRefilled",
        pattern: plan.patternId,
        container: finding.container,
        itemType: finding.itemType,
        entity: finding.entity,
        reason: finding.reason,
        attributes: finding.attributes,
        cause: finding.cause,
        severity: "error",
        path,
        message: `${finding.container}/${finding.itemType} keeps only the newest of the ${finding.entity} records (keepLatest), and ${plan.patternId} ${
          finding.reason === "delete"
            ? `deletes ${finding.entity} records`
            : finding.reason === "key"
              ? `changes ${finding.attributes.join(", ")}, which moves a member to another set`
              : `changes ${finding.attributes.join(", ")}, which may make a member older than a record the set does not keep`
        }: the change-feed handler cannot refill the set from its source (${
          finding.cause === "sourceIncomplete"
            ? `which keeps only some ${finding.entity} records: a bounded set or buckets`
            : `whose container does not index the set's order attribute: the ORDER BY cannot run`
        }), so the set keeps fewer than the newest ${finding.entity} records`,
        suggestion:
          finding.cause === "orderNotIndexed"
            ? `index the order attribute in the source's container, or serve the read from the ${finding.entity} items themselves`
            : `keep the set from an item type that holds every ${finding.entity} record, or serve the read from the ${finding.entity} items themselves (an indexed ORDER BY)`,
      };
    case "counterNotAddressable":
      return {
        code: "evaluate.counterNotAddressable",
        pattern: plan.patternId,
        container: finding.container,
        itemType: finding.itemType,
        property: finding.property,
        entity: finding.entity,
        holder: finding.holder,
        missing: finding.missing,
        severity: "error",
        path,
        message: `${finding.container}/${finding.itemType}.${finding.property} counts ${finding.entity} from the change feed, but the ${finding.itemType} item is placed by ${finding.holder}.${finding.missing.join(`, ${finding.holder}.`)}, which a ${finding.entity} change does not give (a ${finding.entity} holds its ${finding.holder}'s key only; an attribute of ${finding.entity} with the same name is ${finding.entity}'s own): the handler cannot find the item to count it on`,
        suggestion: `keep the count in an item placed by the ${finding.holder}'s key alone, or keep a copy of ${finding.missing.map((name) => `${finding.holder}.${name}`).join(" and ")} in the ${finding.entity} items (copies), which works when no write changes ${finding.missing.length > 1 ? "them" : "it"}`,
      };
    default:
      return finding satisfies never;
  }
}

/** Every finding of a write plan as an issue (none for a read plan). */
export function writeFindingIssues(plan: WritePlan, index: number): EvaluationIssue[] {
  return (plan.findings ?? []).map((finding) => issueOf(finding, plan, index));
}
