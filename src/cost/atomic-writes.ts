/**
 * Writes that must commit together (`atomicWith`): Cosmos DB commits several item writes in one
 * transaction only as a transactional batch, whose items share one logical partition of one
 * container (https://learn.microsoft.com/azure/cosmos-db/nosql/transactional-batch, checked
 * 2026-11-24). This module lists the pairs of writes a workload binds and tells whether a model
 * keeps each pair's items in one logical partition (or in one item), and why not: a split pair is
 * the error `evaluate.notAtomic` (the workload states atomicity as a requirement; a model that
 * splits the pair cannot meet it, whatever it costs).
 */
import type { EvaluationIssue, IssuePayloads } from "../common/issues.js";
import type { Container, ItemType, Model } from "../model/types.js";
import type { Workload } from "../workload/types.js";
import { sharesLogicalPartition } from "../model/provenance.js";

/** Two write patterns that must commit together, with the entities they write. */
export interface AtomicPair {
  /** The pattern that lists the other in `atomicWith`. */
  readonly pattern: string;
  readonly partner: string;
  readonly entity: string;
  readonly partnerEntity: string;
}

/**
 * Why a pair's items are not in one logical partition (the finding's typed reason): `unrelated`
 * (not parent and child through a key attribute, so no key puts a record of each together),
 * `notStored` (an entity has no item type of its own, nor is embedded in the other's),
 * `differentContainers`, or `differentKeys` (one container, but the child's key is not its
 * parent's, or an item type is write-sharded).
 */
export type AtomicSplitReason = IssuePayloads["evaluate.notAtomic"]["reason"];

export type Colocation =
  | { readonly together: true; readonly why: string }
  | { readonly together: false; readonly reason: AtomicSplitReason; readonly why: string };

/** Every pair a write's `atomicWith` names (each unordered pair once). */
export function atomicPairs(workload: Workload): AtomicPair[] {
  const pairs: AtomicPair[] = [];
  const seen = new Set<string>();
  for (const pattern of workload.accessPatterns) {
    if (pattern.type !== "write") continue;
    for (const id of pattern.atomicWith) {
      const partner = workload.accessPatterns.find((p) => p.id === id);
      if (partner === undefined) continue;
      const key = [pattern.id, id].sort().join("+");
      if (seen.has(key)) continue;
      seen.add(key);
      pairs.push({ pattern: pattern.id, partner: id, entity: pattern.entity, partnerEntity: partner.entity });
    }
  }
  return pairs;
}

/** The container and item type that store an entity's records (not a copy). */
function storedIn(model: Model, entity: string): { container: Container; item: ItemType } | undefined {
  for (const container of model.containers) {
    const item = container.items.find((i) => i.entity === entity && i.source === undefined);
    if (item !== undefined) return { container, item };
  }
  return undefined;
}

/**
 * Where the pair's items stay together, or why they do not: the same entity (one item type, the
 * writes name its records), a child embedded in its parent's item, or both item types in one
 * container whose key templates give a child the logical partition of its parent.
 */
export function colocation(workload: Workload, model: Model, a: string, b: string): Colocation {
  if (a === b) return { together: true, why: `both write ${a} items` };
  const relationship = workload.relationships.find(
    (r) =>
      r.kind !== "many-to-many" && ((r.parent === a && r.child === b) || (r.parent === b && r.child === a)),
  );
  if (relationship?.via === undefined)
    return {
      together: false,
      reason: "unrelated",
      why: `${a} and ${b} are not parent and child through a key attribute, so no key can put a record of each in one logical partition`,
    };
  const parent = storedIn(model, relationship.parent);
  const child = storedIn(model, relationship.child);
  if (parent === undefined)
    return {
      together: false,
      reason: "notStored",
      why: `no item type stores ${relationship.parent} records`,
    };
  if (child === undefined) {
    const embedded = parent.item.embeds.some(
      (e) => e.entity === relationship.child && e.latest === undefined,
    );
    return embedded
      ? {
          together: true,
          why: `${relationship.child} records are embedded in their ${relationship.parent} item`,
        }
      : { together: false, reason: "notStored", why: `no item type stores ${relationship.child} records` };
  }
  const sameContainer = parent.container.name === child.container.name;
  if (sharesLogicalPartition(workload, parent, child))
    return {
      together: true,
      why: `${relationship.child} items share their ${relationship.parent}'s logical partition in ${parent.container.name}`,
    };
  return sameContainer
    ? {
        together: false,
        reason: "differentKeys",
        why: `${relationship.parent} and ${relationship.child} items are keyed differently in ${parent.container.name}`,
      }
    : {
        together: false,
        reason: "differentContainers",
        why: `${relationship.parent} items are in ${parent.container.name} and ${relationship.child} items in ${child.container.name}`,
      };
}

/**
 * An error per pair of writes that must commit together (`atomicWith`) but cannot in `model`:
 * `evaluate.notAtomic`, at the `atomicWith` of the pattern that names its partner.
 */
export function atomicWriteIssues(workload: Workload, model: Model): EvaluationIssue[] {
  const issues: EvaluationIssue[] = [];
  for (const pair of atomicPairs(workload)) {
    const where = colocation(workload, model, pair.entity, pair.partnerEntity);
    if (where.together) continue;
    issues.push({
      code: "evaluate.notAtomic",
      pattern: pair.pattern,
      partner: pair.partner,
      reason: where.reason,
      severity: "error",
      path: ["accessPatterns", workload.accessPatterns.findIndex((p) => p.id === pair.pattern), "atomicWith"],
      message: `${pair.pattern} and ${pair.partner} must commit together (atomicWith), but ${where.why}: a transactional batch only holds items of one logical partition of one container`,
      suggestion:
        where.reason === "unrelated"
          ? "relate the entities through a key attribute, or drop atomicWith and accept a compensating step or an idempotent retry"
          : "keep the child's items in its parent's container, keyed by the parent's key (or embed them), or drop atomicWith",
    });
  }
  return issues;
}
