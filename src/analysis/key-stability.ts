/**
 * Which attributes can hold a partition key value: Cosmos DB cannot change an item's partition
 * key in place (a change is a delete and a create under the new value), and an item without a
 * value for the key path lands in the one logical partition of the empty key. Pure data out, so
 * the design rules and the documents share one answer.
 */
import type { Workload, WritePattern } from "../workload/types.js";

/** Share of an update's requests that change an attribute declared `changes: rare` (workload format). */
export const RARE_CHANGE_SHARE = 0.01;
/** Share of an update's requests that change an attribute declared `changes: frequent`. */
export const FREQUENT_CHANGE_SHARE = 0.5;

/**
 * The share of one write pattern's requests that change `attribute` (the workload format's rule,
 * the same as the planner's `changeProbability`): 0 for creates, upserts and deletes and for an
 * attribute the pattern's `changes` leaves out; else the attribute's `changes` (rare 0.01,
 * frequent 0.5), and 1 for an attribute declared `never` that the pattern lists explicitly.
 */
export function changeShare(workload: Workload, pattern: WritePattern, attribute: string): number {
  if (pattern.operation === "create" || pattern.operation === "delete" || pattern.operation === "upsert")
    return 0;
  const listed = pattern.changes?.includes(attribute) === true;
  if (pattern.changes !== undefined && !listed) return 0;
  const declared = workload.entities
    .find((e) => e.name === pattern.entity)
    ?.attributes.find((a) => a.name === attribute)?.changes;
  switch (declared ?? "never") {
    case "rare":
      return RARE_CHANGE_SHARE;
    case "frequent":
      return FREQUENT_CHANGE_SHARE;
    case "never":
      return listed ? 1 : 0;
    default:
      return 0;
  }
}

/** How a write workload changes an attribute: the largest share over the entity's writes, and which write. */
export interface AttributeChange {
  readonly share: number;
  /** The write pattern that changes it most (absent when none does). */
  readonly pattern?: string;
}

/** The largest share of any write of `entity` that changes `attribute` (0 when none does). */
export function attributeChange(workload: Workload, entity: string, attribute: string): AttributeChange {
  let found: AttributeChange = { share: 0 };
  for (const pattern of workload.accessPatterns) {
    if (pattern.type !== "write" || pattern.entity !== entity) continue;
    const share = changeShare(workload, pattern, attribute);
    if (share > found.share) found = { share, pattern: pattern.id };
  }
  return found;
}

/**
 * Whether a change of a partition key value is planned as a delete and a create (the planner
 * moves the item to its new logical partition). Until it is, a primary item type is never keyed
 * by an attribute that any write changes; with it, rarely changing keys become acceptable.
 */
export const KEY_CHANGES_PLANNED_AS_MOVES = false;

/** Why a primary item type of `entity` cannot be keyed by `attribute`, or undefined when it can. */
export function primaryKeyProblem(workload: Workload, entity: string, attribute: string): string | undefined {
  const declared = workload.entities
    .find((e) => e.name === entity)
    ?.attributes.find((a) => a.name === attribute);
  if (declared !== undefined && declared.presence < 1) {
    return `only ${Math.round(declared.presence * 100)}% of ${entity} records have ${attribute}: the others would share the logical partition of the empty key`;
  }
  const change = attributeChange(workload, entity, attribute);
  if (change.share >= FREQUENT_CHANGE_SHARE)
    return `${change.pattern ?? "a write"} changes ${entity}.${attribute} often (${Math.round(change.share * 100)}% of its requests): each change would move the item to another logical partition`;
  if (change.share > 0 && !KEY_CHANGES_PLANNED_AS_MOVES)
    return `${change.pattern ?? "a write"} changes ${entity}.${attribute}, and a partition key value cannot be changed in place`;
  return undefined;
}
