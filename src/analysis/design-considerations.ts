/**
 * Facts of a workload that the requirements document lists as design considerations, before any
 * model exists: which partition key candidates concentrate load on one value (hot partitions),
 * how many physical partitions the data needs at least (fan-out), which reads cross partitions
 * whatever the key, which paths need indexes, and which related data could be copied.
 * Pure data, derived only from the workload.
 */
import { keyAttributes, soleKey, soleVia } from "../workload/keys.js";
import {
  BYTES_PER_GB,
  MAX_PHYSICAL_PARTITION_GB,
  MAX_PHYSICAL_PARTITION_RUS,
  NEAR_PARTITION_RUS_SHARE,
  limitStatus,
  type LimitStatus,
  MIN_READ_RU,
  MIN_WRITE_RU,
} from "../cosmos/limits.js";
import { zipfShare } from "../cost/zipf.js";
import { LOW_CARDINALITY } from "../workload/check-warnings.js";
import type { Entity, ReadPattern, SortKey, Workload, WritePattern } from "../workload/types.js";
import { itemsAtHorizon } from "../workload/horizon.js";

/** Distinct values under which a partition key is low-cardinality ("Aim for 100+ distinct values"). */
export const MIN_KEY_CARDINALITY = LOW_CARDINALITY;

export interface EntityStorage {
  readonly entity: string;
  /** Items at the end of the planning horizon (or the steady state under a TTL). */
  readonly items: number;
  readonly bytes: number;
  /** At least this many physical partitions hold the data (50 GB each). */
  readonly minPhysicalPartitions: number;
  /** How `items` was computed. */
  readonly formula: string;
}

/**
 * Items and bytes of an entity at the horizon: count + growthPerMonth x horizonMonths, or under a
 * TTL the larger of count and growthPerMonth x TTL in months (what the TTL lets accumulate).
 */
export function entityStorage(workload: Workload, entity: Entity): EntityStorage {
  const { items, formula } = itemsAtHorizon(entity, workload.scale.horizonMonths);
  const bytes = items * entity.avgBytes;
  return {
    entity: entity.name,
    items,
    bytes,
    minPhysicalPartitions: Math.max(1, Math.ceil(bytes / BYTES_PER_GB / MAX_PHYSICAL_PARTITION_GB)),
    formula,
  };
}

export interface HotValueRisk {
  readonly entity: string;
  /** A partition key candidate: the entity key or an attribute reads filter on with `eq`. */
  readonly attribute: string;
  readonly distinct: number;
  readonly skew: number;
  /** Share of the entity's requests on the most used value. */
  readonly topShare: number;
  /** Peak reads/s that filter on the attribute and hit the most used value. */
  readonly topReadsPeak: number;
  /** Peak item writes/s on the most used value. */
  readonly topWritesPeak: number;
  /** Least RU/s on that value: reads x 1 RU + writes x 5 RU. */
  readonly minRus: number;
  readonly readPatterns: readonly string[];
  readonly writePatterns: readonly string[];
  readonly lowCardinality: boolean;
  /**
   * `minRus` against what one logical partition can serve (10,000 RU/s): over it, near it (from
   * `NEAR_PARTITION_RUS_SHARE`), or ok.
   */
  readonly partitionRusStatus: LimitStatus;
}

/**
 * Patterns whose own requests on the most used value of a key candidate exceed one logical
 * partition (reads x 1 RU or writes x 5 RU over 10,000 RU/s), for the requirements' notes.
 */
export function concentratedPatterns(workload: Workload): ReadonlySet<string> {
  return new Set(
    hotPartitionRisks(workload).flatMap((r) => [
      ...(r.topWritesPeak * MIN_WRITE_RU > MAX_PHYSICAL_PARTITION_RUS ? r.writePatterns : []),
      ...(r.topReadsPeak * MIN_READ_RU > MAX_PHYSICAL_PARTITION_RUS ? r.readPatterns : []),
    ]),
  );
}

function distinctOf(workload: Workload, entity: Entity, attribute: string): number | undefined {
  if (soleKey(entity) === attribute) return entity.count;
  const rel = workload.relationships.find((r) => r.child === entity.name && soleVia(r) === attribute);
  const parent = rel && workload.entities.find((e) => e.name === rel.parent);
  const listed = entity.attributes.find((a) => a.name === attribute)?.distinct;
  return listed ?? parent?.count;
}

function finite(value: number): number {
  return Number.isFinite(value) && value > 0 ? value : 0;
}

/**
 * For each partition key candidate of each entity, the load on its most used value at peak,
 * from the attribute's distinct values and skew. Candidates without a known cardinality are left
 * out (the checklist asks for them).
 */
export function hotPartitionRisks(workload: Workload): readonly HotValueRisk[] {
  const risks: HotValueRisk[] = [];
  for (const entity of workload.entities) {
    const reads = workload.accessPatterns.filter(
      (p): p is ReadPattern => p.type === "read" && p.entity === entity.name,
    );
    const writes = workload.accessPatterns.filter(
      (p): p is WritePattern => p.type === "write" && p.entity === entity.name,
    );
    const candidates = [
      ...keyAttributes(entity),
      ...reads.flatMap((r) => r.where.filter((w) => w.op === "eq").map((w) => w.attribute)),
    ].filter((a, i, all) => all.indexOf(a) === i);
    for (const attribute of candidates) {
      const distinct = distinctOf(workload, entity, attribute);
      if (distinct === undefined) continue;
      const skew = entity.attributes.find((a) => a.name === attribute)?.skew ?? 0;
      const topShare = zipfShare(distinct, skew);
      const filtering = reads.filter((r) => r.where.some((w) => w.attribute === attribute && w.op === "eq"));
      const topReadsPeak = filtering.reduce((s, r) => s + finite(r.rps.peak), 0) * topShare;
      const topWritesPeak =
        writes.reduce((s, w) => s + finite(w.rps.peak) * Math.max(1, w.batch), 0) * topShare;
      const minRus = topReadsPeak * MIN_READ_RU + topWritesPeak * MIN_WRITE_RU;
      risks.push({
        entity: entity.name,
        attribute,
        distinct,
        skew,
        topShare,
        topReadsPeak,
        topWritesPeak,
        minRus,
        readPatterns: filtering.map((r) => r.id),
        writePatterns: writes.map((w) => w.id),
        lowCardinality: distinct < MIN_KEY_CARDINALITY,
        partitionRusStatus: limitStatus(minRus, MAX_PHYSICAL_PARTITION_RUS, NEAR_PARTITION_RUS_SHARE),
      });
    }
  }
  return risks;
}

export interface CrossPartitionRead {
  readonly patternId: string;
  readonly entity: string;
  readonly peak: number;
  /** At least this many physical partitions are visited (storage alone). */
  readonly minPartitions: number;
}

/**
 * Reads with no `eq` or `in` filter: no partition key can route them, they visit every partition.
 * (An `in` list is routed to the partitions of its values when it is on the partition key.)
 */
export function unroutableReads(workload: Workload): readonly CrossPartitionRead[] {
  const out: CrossPartitionRead[] = [];
  for (const p of workload.accessPatterns) {
    if (p.type !== "read" || p.where.some((w) => w.op === "eq" || w.op === "in")) continue;
    const entity = workload.entities.find((e) => e.name === p.entity);
    if (!entity) continue;
    out.push({
      patternId: p.id,
      entity: p.entity,
      peak: finite(p.rps.peak),
      minPartitions: entityStorage(workload, entity).minPhysicalPartitions,
    });
  }
  return out;
}

export interface CompositeCandidate {
  readonly patternId: string;
  readonly entity: string;
  readonly paths: readonly SortKey[];
}

export interface EntityIndexing {
  readonly entity: string;
  /** Attributes some read filters on, in first-use order. */
  readonly filtered: readonly string[];
  /** Attributes some read sorts on. */
  readonly sorted: readonly string[];
  /** Listed attributes no read filters or sorts on: candidates to exclude from the index. */
  readonly unused: readonly string[];
  readonly composites: readonly CompositeCandidate[];
}

/**
 * Per entity, what reads filter and sort on, and the composite index each read with ORDER BY
 * needs: its `eq` filters ascending, then its sort keys (filter + ORDER BY on different
 * properties, or ORDER BY on several, need a composite index).
 */
export function indexingNeeds(workload: Workload): readonly EntityIndexing[] {
  return workload.entities.map((entity) => {
    const reads = workload.accessPatterns.filter(
      (p): p is ReadPattern => p.type === "read" && p.entity === entity.name,
    );
    const unique = (xs: readonly string[]): string[] => xs.filter((x, i) => xs.indexOf(x) === i);
    const filtered = unique(reads.flatMap((r) => r.where.map((w) => w.attribute)));
    const sorted = unique(reads.flatMap((r) => r.orderBy.map((o) => o.attribute)));
    const used = new Set([...filtered, ...sorted, ...entity.key]);
    const composites: CompositeCandidate[] = [];
    for (const read of reads) {
      if (read.orderBy.length === 0) continue;
      const sortAttributes = new Set(read.orderBy.map((o) => o.attribute));
      const eq = read.where
        .filter((w) => w.op === "eq" && !sortAttributes.has(w.attribute))
        .map((w): SortKey => ({ attribute: w.attribute, direction: "asc" }));
      const paths = [...eq, ...read.orderBy];
      if (paths.length >= 2) composites.push({ patternId: read.id, entity: entity.name, paths });
    }
    return {
      entity: entity.name,
      filtered,
      sorted,
      unused: entity.attributes.map((a) => a.name).filter((a) => !used.has(a)),
      composites,
    };
  });
}

export interface DenormalizationIdea {
  readonly patternId: string;
  /** The entity read (where a copy or counter would live). */
  readonly into: string;
  readonly kind: "copy" | "counter" | "subset" | "embed";
  /** What the read returns with each item, as the workload writes it. */
  readonly what: string;
  /** Write patterns that would have to update the copy or counter. */
  readonly maintainedBy: readonly string[];
  /** How often the copied attribute changes (copies only). */
  readonly changes?: string;
}

/** For each `with` entry, the copy, counter or embedded subset that would serve it in one read. */
export function denormalizationIdeas(workload: Workload): readonly DenormalizationIdea[] {
  const ideas: DenormalizationIdea[] = [];
  for (const read of workload.accessPatterns) {
    if (read.type !== "read") continue;
    for (const item of read.with) {
      const writers = workload.accessPatterns.filter(
        (p): p is WritePattern => p.type === "write" && p.entity === item.entity,
      );
      switch (item.kind) {
        case "attribute": {
          const source = workload.entities.find((e) => e.name === item.entity);
          const changes = source?.attributes.find((a) => a.name === item.attribute)?.changes ?? "never";
          ideas.push({
            patternId: read.id,
            into: read.entity,
            kind: "copy",
            what: `${item.entity}.${item.attribute}`,
            maintainedBy: writers
              .filter(
                (w) =>
                  w.operation !== "delete" && (w.changes === undefined || w.changes.includes(item.attribute)),
              )
              .map((w) => w.id),
            changes,
          });
          break;
        }
        case "count":
        case "aggregate":
          ideas.push({
            patternId: read.id,
            into: read.entity,
            kind: "counter",
            what:
              item.kind === "count"
                ? `count(${item.entity})`
                : `${item.fn}(${item.entity}.${item.attribute})`,
            maintainedBy: writers.map((w) => w.id),
          });
          break;
        case "latest":
          ideas.push({
            patternId: read.id,
            into: read.entity,
            kind: "subset",
            what: `latest(${item.entity}, ${item.n})`,
            maintainedBy: writers.map((w) => w.id),
          });
          break;
        case "all":
          ideas.push({
            patternId: read.id,
            into: read.entity,
            kind: "embed",
            what: `all(${item.entity})`,
            maintainedBy: writers.map((w) => w.id),
          });
          break;
        default:
          item satisfies never;
      }
    }
  }
  return ideas;
}
