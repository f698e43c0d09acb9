/**
 * Aggregate analysis of a workload, as the expert prompt's requirements template asks for it:
 * for each related pair of entities, how often they are needed together (access correlation),
 * whether the child is always reached through its parent's key (identifying relationship), how
 * big the pair gets, how coupled their updates are, and what the consolidation rules recommend.
 * Pure data out, so the requirements document, the design and the interview share one answer.
 */
import { formatKey } from "../workload/keys.js";
import type {
  AccessPattern,
  Entity,
  Rate,
  ReadPattern,
  Relationship,
  Workload,
  WritePattern,
} from "../workload/types.js";
import { MAX_ITEM_BYTES } from "../cosmos/limits.js";
import { formatWithItem } from "../workload/with-items.js";

/**
 * Consolidation thresholds of the expert prompt's "Consolidation Rules": consolidate above 50%
 * access overlap, keep separate below 30%, compare costs in between; single-document aggregate
 * from 90% ("Aggregate Boundaries Based on Access Patterns", step 1).
 * Source: the expert prompt, the cosmosdb-datamodeling skill of github/awesome-copilot (2025-09-17).
 */
export const CONSOLIDATE_ABOVE = 0.5;
export const SEPARATE_BELOW = 0.3;
export const SINGLE_DOCUMENT_FROM = 0.9;

/**
 * "Different update frequencies? -> Consider multi-document" (expert prompt, step 2): the tool
 * calls frequencies different when the children's writes exceed 10 times the parent's.
 * A judgement threshold of this tool, not a documented Cosmos DB figure.
 */
export const UPDATE_MISMATCH_RATIO = 10;

/** Which entities of a pair a request needs. */
export type PairUse = "parent" | "child" | "both";

/** One access pattern's part in a pair. */
export interface PatternUse {
  readonly patternId: string;
  readonly use: PairUse;
  /** Why the pattern needs both entities (only for `both`). */
  readonly reason?: string;
}

/** Shares of requests (0..1) among the requests that touch the parent or the child. */
export interface UseShares {
  readonly parentOnly: number;
  readonly childOnly: number;
  readonly both: number;
}

export type ConsolidationDecision = "consolidate" | "separate" | "compare-costs";

export interface PairAnalysis {
  readonly parent: string;
  readonly child: string;
  readonly relationship: Relationship;
  readonly patterns: readonly PatternUse[];
  /** Requests per second touching the pair (average and peak). */
  readonly rps: Rate;
  /** Shares weighted by average request rates. */
  readonly byAverage: UseShares;
  /** Shares weighted by peak request rates. */
  readonly byPeak: UseShares;
  /** Access correlation: the share of requests needing both, weighted by average rates. */
  readonly correlation: number;
  readonly size: PairSize;
  readonly updates: UpdateCoupling;
  readonly identifying: IdentifyingCheck;
  readonly recommendation: ConsolidationRecommendation;
}

export interface PairSize {
  /** Parent item plus its children at their averages. */
  readonly avgCombinedBytes: number;
  /** Parent at its maximum plus the maximum children at theirs; absent when unbounded. */
  readonly maxCombinedBytes?: number;
  /** The maximum combined size fits in one 2 MB item. */
  readonly fitsInOneItem: boolean;
  readonly bounded: boolean;
}

export interface UpdateCoupling {
  readonly parentWrites: Rate;
  readonly childWrites: Rate;
  /** Write patterns whose change is seen by a read of the other entity. */
  readonly coupledWrites: readonly string[];
  readonly kind: "related" | "independent";
}

export interface IdentifyingCheck {
  readonly parent: string;
  readonly child: string;
  /** Can the child exist without its parent? (not `owned`) */
  readonly childIndependent: boolean;
  /** Every read pattern on the child filters on the parent key with `eq`. */
  readonly alwaysQueriedWithParentKey: boolean;
  /** Read patterns on the child that filter on the parent key (parent -> child queries). */
  readonly parentChildQueries: readonly string[];
  /** Read patterns on the child without an `eq` on the parent key. */
  readonly readsWithoutParentKey: readonly string[];
  /**
   * Parent → child queries would be cross-partition if the child were partitioned by its own
   * key in a separate container.
   */
  readonly crossPartitionIfSeparate: boolean;
  /** The prompt's No/Yes/Yes: partition the child by the parent key. */
  readonly useIdentifyingRelationship: boolean;
  readonly why: string;
}

export interface ConsolidationRecommendation {
  readonly decision: ConsolidationDecision;
  /** When consolidating: one item (embedding) or separate items sharing a partition key. */
  readonly aggregate?: "single-document" | "multi-document";
  readonly reasons: readonly string[];
}

/** Analyzes every relationship of the workload, in the order the workload lists them. */
export function analyzeAccessCorrelation(workload: Workload): readonly PairAnalysis[] {
  const rates = new Map(workload.accessPatterns.map((p) => [p.id, p.rps]));
  return workload.relationships.map((relationship) => analyzePair(workload, relationship, rates));
}

function analyzePair(
  workload: Workload,
  relationship: Relationship,
  rates: ReadonlyMap<string, Rate>,
): PairAnalysis {
  const { parent, child } = relationship;
  const patterns: PatternUse[] = [];
  for (const pattern of workload.accessPatterns) {
    const use = classifyPattern(workload, pattern, parent, child);
    if (use) patterns.push(use);
  }
  const rateOf = (id: string): Rate => rates.get(id) ?? { avg: 0, peak: 0 };
  const shares = (pick: (r: Rate) => number): UseShares => {
    const sum = (use: PairUse): number =>
      patterns.filter((p) => p.use === use).reduce((acc, p) => acc + safe(pick(rateOf(p.patternId))), 0);
    const total = sum("parent") + sum("child") + sum("both");
    if (total === 0) return { parentOnly: 0, childOnly: 0, both: 0 };
    return { parentOnly: sum("parent") / total, childOnly: sum("child") / total, both: sum("both") / total };
  };
  const rps = patterns.reduce(
    (acc, p) => ({
      avg: acc.avg + safe(rateOf(p.patternId).avg),
      peak: acc.peak + safe(rateOf(p.patternId).peak),
    }),
    { avg: 0, peak: 0 },
  );
  const byAverage = shares((r) => r.avg);
  const byPeak = shares((r) => r.peak);
  const size = pairSize(workload, relationship);
  const updates = updateCoupling(workload, relationship, patterns);
  const identifying = identifyingRelationshipCheck(workload, relationship);
  const needsItems = workload.accessPatterns.some(
    (p) =>
      p.type === "read" &&
      p.entity === parent &&
      p.with.some((w) => w.entity === child && (w.kind === "all" || w.kind === "latest")),
  );
  const recommendation = recommendConsolidation(
    relationship,
    byAverage.both,
    size,
    updates,
    identifying,
    needsItems,
  );
  return {
    parent,
    child,
    relationship,
    patterns,
    rps,
    byAverage,
    byPeak,
    correlation: byAverage.both,
    size,
    updates,
    identifying,
    recommendation,
  };
}

/** A rate that is missing or not a number counts as 0 (interview drafts may lack one). */
function safe(value: number | undefined): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0;
}

function classifyPattern(
  workload: Workload,
  pattern: AccessPattern,
  parent: string,
  child: string,
): PatternUse | undefined {
  if (pattern.entity !== parent && pattern.entity !== child) return undefined;
  const own: PairUse = pattern.entity === parent ? "parent" : "child";
  const other = own === "parent" ? child : parent;
  if (pattern.type === "read") {
    const joint = pattern.with.find((w) => w.entity === other);
    if (joint) return { patternId: pattern.id, use: "both", reason: `returns ${describeWith(joint)}` };
    return { patternId: pattern.id, use: own };
  }
  const reader = readSeeingWrite(workload, pattern, other);
  if (reader) return { patternId: pattern.id, use: "both", reason: `changes data that ${reader} reads` };
  return { patternId: pattern.id, use: own };
}

/** Describes a `with` entry the way the workload file writes it: `count(Comment)`. */
export const describeWith = formatWithItem;

/**
 * The id of a read pattern on `readerEntity` whose `with` shows data that `write` changes, if
 * any: an attribute copy the write may change, or a count/aggregate/latest/all of the written
 * entity that a create, upsert or delete (or a change of the aggregated attribute) moves.
 */
function readSeeingWrite(workload: Workload, write: WritePattern, readerEntity: string): string | undefined {
  const changes = (attribute: string): boolean =>
    write.changes === undefined || write.changes.includes(attribute);
  const membership =
    write.operation === "create" || write.operation === "upsert" || write.operation === "delete";
  for (const read of workload.accessPatterns) {
    if (read.type !== "read" || read.entity !== readerEntity) continue;
    for (const item of read.with) {
      if (item.entity !== write.entity) continue;
      const seen = ((): boolean => {
        switch (item.kind) {
          case "attribute":
            return write.operation === "delete" ? false : changes(item.attribute);
          case "count":
            return (
              write.operation === "create" || write.operation === "delete" || write.operation === "upsert"
            );
          case "aggregate":
            return membership || changes(item.attribute);
          case "latest":
          case "all":
            return true;
          default:
            return item satisfies never;
        }
      })();
      if (seen) return read.id;
    }
  }
  return undefined;
}

function entityOf(workload: Workload, name: string): Entity | undefined {
  return workload.entities.find((e) => e.name === name);
}

function pairSize(workload: Workload, relationship: Relationship): PairSize {
  const parent = entityOf(workload, relationship.parent);
  const child = entityOf(workload, relationship.child);
  const avgCombinedBytes = (parent?.avgBytes ?? 0) + relationship.avg * (child?.avgBytes ?? 0);
  if (relationship.max === undefined) {
    return { avgCombinedBytes, fitsInOneItem: false, bounded: false };
  }
  const maxCombinedBytes = (parent?.maxBytes ?? 0) + relationship.max * (child?.maxBytes ?? 0);
  return {
    avgCombinedBytes,
    maxCombinedBytes,
    fitsInOneItem: maxCombinedBytes <= MAX_ITEM_BYTES,
    bounded: true,
  };
}

function writeRate(workload: Workload, entity: string): Rate {
  return workload.accessPatterns
    .filter((p) => p.type === "write" && p.entity === entity)
    .reduce((acc, p) => ({ avg: acc.avg + safe(p.rps.avg), peak: acc.peak + safe(p.rps.peak) }), {
      avg: 0,
      peak: 0,
    });
}

function updateCoupling(
  workload: Workload,
  relationship: Relationship,
  patterns: readonly PatternUse[],
): UpdateCoupling {
  const coupledWrites = patterns
    .filter(
      (p) => p.use === "both" && workload.accessPatterns.find((a) => a.id === p.patternId)?.type === "write",
    )
    .map((p) => p.patternId);
  return {
    parentWrites: writeRate(workload, relationship.parent),
    childWrites: writeRate(workload, relationship.child),
    coupledWrites,
    kind: coupledWrites.length > 0 ? "related" : "independent",
  };
}

/**
 * The prompt's identifying relationship check for one relationship: can the child exist
 * without its parent, is the parent key always known when reading children, and would
 * parent -> child reads be cross-partition in a separate container? No/Yes/Yes recommends
 * partitioning the child by the parent key. The children are read by the parent key in read
 * patterns on the child that filter on it, and in reads of the parent that return its children
 * (`with: all(...)`, `latest(...)`, `count(...)`, aggregates): these fetch them by the parent key.
 * This is the one classification of "identifying" that the documents and the design print.
 */
export function identifyingRelationshipCheck(
  workload: Workload,
  relationship: Relationship,
): IdentifyingCheck {
  const { parent, child } = relationship;
  const via = relationship.via === undefined ? undefined : formatKey(relationship.via);
  const viaList = relationship.via ?? [];
  const childKey = entityOf(workload, child)?.key ?? [];
  const reads = workload.accessPatterns.filter(
    (p): p is ReadPattern => p.type === "read" && p.entity === child,
  );
  // Reads of the parent that return its children: a query of the children by the parent key.
  const throughParent =
    via === undefined
      ? []
      : workload.accessPatterns
          .filter(
            (p): p is ReadPattern =>
              p.type === "read" &&
              p.entity === parent &&
              p.with.some((w) => w.entity === child && w.kind !== "attribute"),
          )
          .map((p) => p.id);
  // An equality on every one of the attributes (a parent's or the child's whole key).
  const hasEq = (read: ReadPattern, attributes: readonly string[]): boolean =>
    attributes.length > 0 &&
    attributes.every((attribute) => read.where.some((w) => w.attribute === attribute && w.op === "eq"));
  const parentChildQueries = [...reads.filter((r) => hasEq(r, viaList)).map((r) => r.id), ...throughParent];
  const readsWithoutParentKey = reads.filter((r) => !hasEq(r, viaList)).map((r) => r.id);
  const crossPartitionIfSeparate =
    reads.some((r) => hasEq(r, viaList) && !hasEq(r, childKey)) || throughParent.length > 0;
  const childIndependent = !relationship.owned;
  const alwaysQueriedWithParentKey = via !== undefined && readsWithoutParentKey.length === 0;
  const useIdentifyingRelationship =
    !childIndependent && alwaysQueriedWithParentKey && crossPartitionIfSeparate;
  const why = ((): string => {
    if (via === undefined) return `${child} holds no key of ${parent}: no identifying relationship possible.`;
    if (reads.length === 0 && throughParent.length === 0)
      return `No read pattern reads ${child}: nothing to route by ${via}.`;
    const parts = [
      childIndependent ? `${child} can exist without ${parent}` : `${child} cannot exist without ${parent}`,
      alwaysQueriedWithParentKey
        ? `every read of ${child} has ${via}`
        : `${readsWithoutParentKey.join(", ")} read ${child} without ${via}`,
      crossPartitionIfSeparate
        ? `${parentChildQueries.join(", ")} would be cross-partition with ${child} partitioned by its own key`
        : `no parent → child query would be cross-partition`,
    ];
    return `${parts.join("; ")}.`;
  })();
  return {
    parent,
    child,
    childIndependent,
    alwaysQueriedWithParentKey,
    parentChildQueries,
    readsWithoutParentKey,
    crossPartitionIfSeparate,
    useIdentifyingRelationship,
    why,
  };
}

function recommendConsolidation(
  relationship: Relationship,
  correlation: number,
  size: PairSize,
  updates: UpdateCoupling,
  identifying: IdentifyingCheck,
  needsItems: boolean,
): ConsolidationRecommendation {
  const pct = `${(correlation * 100).toFixed(1)}%`;
  const natural = relationship.kind !== "many-to-many";
  const reasons: string[] = [];
  if (correlation < SEPARATE_BELOW) {
    reasons.push(`access correlation ${pct} is under 30%`);
    if (!size.bounded) reasons.push("unbounded growth");
    if (updates.kind === "independent") reasons.push("independent updates");
    return { decision: "separate", reasons };
  }
  if (correlation <= CONSOLIDATE_ABOVE) {
    reasons.push(`access correlation ${pct} is between 30% and 50%: compare the costs of both designs`);
    reasons.push(
      identifying.useIdentifyingRelationship
        ? "identifying relationship"
        : identifying.childIndependent
          ? `${relationship.child} can exist without ${relationship.parent}`
          : notIdentifying(identifying),
    );
    if (!size.bounded) reasons.push("unbounded growth");
    return { decision: "compare-costs", reasons };
  }
  reasons.push(`access correlation ${pct} is above 50%`);
  const missing: string[] = [];
  if (!natural) missing.push("not a natural parent-child relationship (many-to-many)");
  if (!size.bounded) missing.push("unbounded growth (no maximum children per parent)");
  if (!relationship.owned) missing.push(`${relationship.child} can exist without ${relationship.parent}`);
  else if (!identifying.useIdentifyingRelationship) missing.push(notIdentifying(identifying));
  if (missing.length > 0) return { decision: "compare-costs", reasons: [...reasons, ...missing] };
  reasons.push("natural parent-child", "bounded size", "identifying relationship");
  // Children written much more often than the parent: embedding rewrites the whole item each time.
  const churn = updates.childWrites.avg > UPDATE_MISMATCH_RATIO * updates.parentWrites.avg;
  const single = correlation >= SINGLE_DOCUMENT_FROM && size.fitsInOneItem && needsItems && !churn;
  if (single) reasons.push("90% or more accessed together and the aggregate fits in one 2 MB item");
  else if (needsItems && churn && size.fitsInOneItem) {
    reasons.push(
      `${relationship.child} is written over ${UPDATE_MISMATCH_RATIO} times as often as ${relationship.parent}: separate items avoid rewriting the aggregate on every child write`,
    );
  } else if (!size.fitsInOneItem) reasons.push("the aggregate can exceed one 2 MB item: separate items");
  else if (!needsItems) {
    reasons.push(
      `no read returns the ${relationship.child} items with the ${relationship.parent}: separate items in one partition (counters and copies kept in the same transaction)`,
    );
  }
  return { decision: "consolidate", aggregate: single ? "single-document" : "multi-document", reasons };
}

/** Why an owned child is still not an identifying relationship (the check's No). */
function notIdentifying(check: IdentifyingCheck): string {
  if (!check.alwaysQueriedWithParentKey) {
    return check.readsWithoutParentKey.length === 0
      ? `not an identifying relationship: ${check.child} holds no key of ${check.parent}`
      : `not an identifying relationship: ${check.readsWithoutParentKey.join(", ")} read ${check.child} without its ${check.parent}'s key`;
  }
  return check.parentChildQueries.length === 0
    ? `not an identifying relationship: no read reaches ${check.child} through its ${check.parent}`
    : `not an identifying relationship: no parent → child read would be cross-partition`;
}
