/**
 * The validation checklist of `cosmosdb_requirements.md`, computed from the workload instead of
 * ticked by hand. The interview and the MCP server refuse to write the data model while a
 * blocking item is open, as the expert prompt requires ("Create cosmosdb_data_model.md: only
 * after user confirms all patterns captured AND validation checklist complete").
 */
import { soleKey, soleVia } from "../workload/keys.js";
import type { AccessPattern, ReadPattern, Workload } from "../workload/types.js";
import { analyzeAccessCorrelation, type PairAnalysis } from "./aggregate-analysis.js";
import { MASSIVE_WRITES_PER_SECOND } from "../workload/check-warnings.js";

/** What the session knows beyond the workload file. */
export interface RequirementsState {
  /** The user confirmed that every access pattern is captured. */
  readonly confirmedPatterns?: boolean;
  /** The massive-scale questions (binning, write reduction, fan-out) were asked and answered. */
  readonly massiveScaleDiscussed?: boolean;
}

export type ChecklistId =
  | "domain-and-scale"
  | "entities-and-relationships"
  | "aggregate-boundaries"
  | "identifying-relationships"
  | "consolidation"
  | "pattern-rates"
  | "pattern-details"
  | "reads-and-writes-paired"
  | "massive-scale"
  | "hot-partitions"
  | "design-considerations"
  | "patterns-confirmed";

export interface ChecklistItem {
  readonly id: ChecklistId;
  readonly label: string;
  readonly done: boolean;
  /** What makes the item done or open, with the pattern ids or entities concerned. */
  readonly why: string;
  /** An open blocking item prevents writing the data model. */
  readonly blocking: boolean;
}

/**
 * Writes per second above which the expert prompt's massive scale warning applies
 * ("extremely high write volumes (>10k writes/sec)"): the loader's threshold.
 */
export const MASSIVE_SCALE_WRITES_PER_SECOND = MASSIVE_WRITES_PER_SECOND;

/** True when a rate is a finite, non-negative number. */
function isRate(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value) && value >= 0;
}

/** Patterns whose average or peak rate is missing, not a number, or peak below average. */
export function patternsMissingRates(workload: Workload): readonly string[] {
  return workload.accessPatterns
    .filter((p) => {
      const rps = p.rps as { avg?: unknown; peak?: unknown } | undefined;
      if (!rps || !isRate(rps.avg) || !isRate(rps.peak)) return true;
      return rps.peak < rps.avg || rps.peak === 0;
    })
    .map((p) => p.id);
}

/** Entities read (directly or through `with`) that no create or upsert pattern writes. */
export function readsWithoutWrites(workload: Workload): readonly string[] {
  const created = new Set(
    workload.accessPatterns
      .filter((p) => p.type === "write" && (p.operation === "create" || p.operation === "upsert"))
      .map((p) => p.entity),
  );
  return workload.accessPatterns
    .filter(
      (p) =>
        p.type === "read" &&
        !p.standalone &&
        [p.entity, ...p.with.map((w) => w.entity)].some((name) => !created.has(name)),
    )
    .map((p) => p.id);
}

/** Write patterns on entities that no read pattern returns, directly or through `with`. */
export function writesWithoutReads(workload: Workload): readonly string[] {
  const read = new Set<string>();
  for (const p of workload.accessPatterns) {
    if (p.type !== "read") continue;
    read.add(p.entity);
    for (const item of p.with) read.add(item.entity);
  }
  return workload.accessPatterns
    .filter((p) => p.type === "write" && !p.standalone && !read.has(p.entity))
    .map((p) => p.id);
}

/** Items written per second at peak, all write patterns together (rate x batch size). */
export function peakWritesPerSecond(workload: Workload): number {
  return workload.accessPatterns.reduce(
    (sum, p) => (p.type === "write" && isRate(p.rps.peak) ? sum + p.rps.peak * Math.max(1, p.batch) : sum),
    0,
  );
}

/** Read patterns whose number of results is neither given nor derivable from the workload. */
export function readsWithUnknownResultSize(workload: Workload): readonly string[] {
  return workload.accessPatterns
    .filter((p): p is ReadPattern => p.type === "read")
    .filter((p) => expectedResults(workload, p) === undefined)
    .map((p) => p.id);
}

/**
 * Expected items returned by a read: `returns.avg` when given; 1 for an `eq` on the entity key;
 * the relationship average for an `eq` on a parent key; `limit` caps it. Undefined otherwise.
 */
export function expectedResults(workload: Workload, pattern: ReadPattern): number | undefined {
  const cap = (n: number): number => (pattern.limit === undefined ? n : Math.min(n, pattern.limit));
  if (pattern.returns) return cap(pattern.returns.avg);
  const entity = workload.entities.find((e) => e.name === pattern.entity);
  const eq = (attribute: string): boolean =>
    pattern.where.some((w) => w.attribute === attribute && w.op === "eq");
  if (entity && entity.key.every(eq)) return 1;
  const rel = workload.relationships.find(
    (r) => r.child === pattern.entity && r.via !== undefined && r.via.every(eq),
  );
  if (rel) return cap(rel.avg);
  if (entity && pattern.where.length === 0) return cap(entity.count);
  return pattern.limit;
}

/**
 * Every attribute a read filters by equality (`eq`, `in`), once per pattern: `Entity.attribute`,
 * whether it is the entity's key or a parent's key (its cardinality comes from the entity
 * counts), and its declared distinct values and skew.
 */
function equalityFilters(workload: Workload): {
  readonly name: string;
  readonly keyOrVia: boolean;
  readonly distinct?: number;
  readonly skew?: number;
}[] {
  return workload.accessPatterns.flatMap((p) => {
    if (p.type !== "read") return [];
    const entity = workload.entities.find((e) => e.name === p.entity);
    if (!entity) return [];
    return p.where
      .filter((w) => w.op === "eq" || w.op === "in")
      .map((w) => {
        const attribute = entity.attributes.find((a) => a.name === w.attribute);
        return {
          name: `${entity.name}.${w.attribute}`,
          keyOrVia:
            soleKey(entity) === w.attribute ||
            workload.relationships.some((r) => r.child === entity.name && soleVia(r) === w.attribute),
          ...(attribute?.distinct === undefined ? {} : { distinct: attribute.distinct }),
          ...(attribute?.skew === undefined ? {} : { skew: attribute.skew }),
        };
      });
  });
}

/** Attributes filtered with `eq` whose number of distinct values is unknown (key and parent keys are known). */
export function filtersWithUnknownCardinality(workload: Workload): readonly string[] {
  return [
    ...new Set(
      equalityFilters(workload)
        .filter((f) => !f.keyOrVia && f.distinct === undefined)
        .map((f) => f.name),
    ),
  ];
}

/**
 * What is known of the equality-filtered attributes when none lacks its distinct values: how many
 * are keys or relationships (their cardinality from the entity counts), how many declare their
 * values, and which of those leave their skew to the uniform default (never "known" when it was
 * not given: issue 29).
 */
function knownCardinalityDetail(workload: Workload): string {
  const filters = equalityFilters(workload);
  const counted = filters.filter((f) => f.keyOrVia).length;
  const declared = [...new Set(filters.filter((f) => !f.keyOrVia).map((f) => f.name))];
  const uniform = [...new Set(filters.filter((f) => !f.keyOrVia && f.skew === undefined).map((f) => f.name))];
  if (counted === 0 && declared.length === 0)
    return "No read filters by equality: no value chooses a partition.";
  const parts = [
    ...(counted > 0
      ? [`${counted} equality filter(s) on keys or relationships (cardinality from the entity counts)`]
      : []),
    ...(declared.length > 0 ? [`distinct values declared for ${list(declared)}`] : []),
  ];
  return `${parts.join("; ")}${uniform.length > 0 ? `; skew not given for ${list(uniform)} (uniform assumed)` : ""}.`;
}

function list(ids: readonly string[]): string {
  return ids.length <= 8 ? ids.join(", ") : `${ids.slice(0, 8).join(", ")} and ${ids.length - 8} more`;
}

/**
 * The requirements checklist of the expert prompt, each item computed from the workload (and
 * from `state` for what only the user can confirm). Items come in the template's order.
 */
export function requirementsChecklist(
  workload: Workload,
  state: RequirementsState = {},
): readonly ChecklistItem[] {
  const pairs = analyzeAccessCorrelation(workload);
  return [
    ...domainItems(workload),
    ...aggregateItems(pairs),
    ...patternItems(workload),
    ...scaleItems(workload, state),
    ...confirmationItems(workload, state),
  ];
}

function item(id: ChecklistId, label: string, done: boolean, why: string, blocking: boolean): ChecklistItem {
  return { id, label, done, why, blocking };
}

/** The domain and scale, and every entity in some relationship. */
function domainItems(workload: Workload): ChecklistItem[] {
  const entities = workload.entities;
  const hasDomain = (workload.domain ?? workload.description ?? "").trim() !== "";
  const related = new Set(workload.relationships.flatMap((r) => [r.parent, r.child]));
  const unrelated =
    entities.length > 1 ? entities.filter((e) => !related.has(e.name)).map((e) => e.name) : [];
  return [
    item(
      "domain-and-scale",
      "Application domain and scale documented",
      hasDomain && entities.length > 0,
      hasDomain
        ? `Domain given; ${entities.length} entities with item counts and sizes.`
        : "No domain or description yet: ask what the application does.",
      true,
    ),
    item(
      "entities-and-relationships",
      "All entities and relationships mapped",
      entities.length > 0 && unrelated.length === 0,
      entities.length === 0
        ? "No entities yet."
        : unrelated.length === 0
          ? `${entities.length} entities, ${workload.relationships.length} relationships.`
          : `No relationship mentions ${list(unrelated)}: confirm they are independent.`,
      false,
    ),
  ];
}

/** The related pairs' access correlation, identifying check and consolidation decision. */
function aggregateItems(pairs: readonly PairAnalysis[]): ChecklistItem[] {
  const untouched = pairs.filter((p) => p.patterns.length === 0).map((p) => `${p.parent} + ${p.child}`);
  const identifying = pairs.filter((p) => p.identifying.useIdentifyingRelationship).length;
  const undecided = pairs
    .filter((p) => p.recommendation.decision === "compare-costs")
    .map((p) => `${p.parent} + ${p.child}`);
  return [
    item(
      "aggregate-boundaries",
      "Aggregate boundaries identified based on access patterns",
      untouched.length === 0,
      untouched.length === 0
        ? `Access correlation computed for ${pairs.length} related pairs.`
        : `No access pattern touches ${list(untouched)}.`,
      false,
    ),
    item(
      "identifying-relationships",
      "Identifying relationships checked for consolidation opportunities",
      true,
      `${pairs.length} relationships checked; ${identifying} call for the parent key as partition key.`,
      false,
    ),
    item(
      "consolidation",
      "Container consolidation analysis completed; candidates reviewed",
      true,
      undecided.length === 0
        ? `${pairs.length} pairs decided by the consolidation rules.`
        : `${pairs.length} pairs analyzed; ${list(undecided)} need the cost comparison of the design.`,
      false,
    ),
  ];
}

/** Every pattern's rates and details, and reads and writes in pairs. */
function patternItems(workload: Workload): ChecklistItem[] {
  const patterns: readonly AccessPattern[] = workload.accessPatterns;
  const missingRates = patternsMissingRates(workload);
  const noLatency = patterns.filter((p) => p.type === "read" && p.latencyMs === undefined).map((p) => p.id);
  const unknownSize = readsWithUnknownResultSize(workload);
  const detailGaps = [
    ...(noLatency.length > 0 ? [`no latency target: ${list(noLatency)}`] : []),
    ...(unknownSize.length > 0 ? [`unknown result size: ${list(unknownSize)}`] : []),
  ];
  const lonelyReads = readsWithoutWrites(workload);
  const lonelyWrites = writesWithoutReads(workload);
  const pairGaps = [
    ...(lonelyReads.length > 0 ? [`reads of entities nothing creates: ${list(lonelyReads)}`] : []),
    ...(lonelyWrites.length > 0 ? [`writes nothing reads: ${list(lonelyWrites)}`] : []),
  ];
  return [
    item(
      "pattern-rates",
      "Every access pattern has RPS (average and peak)",
      patterns.length > 0 && missingRates.length === 0,
      patterns.length === 0
        ? "No access patterns yet."
        : missingRates.length === 0
          ? `All ${patterns.length} patterns have average and peak rates.`
          : `Missing or invalid rates: ${list(missingRates)}.`,
      true,
    ),
    item(
      "pattern-details",
      "Every access pattern has latency SLO, consistency level, expected result size, document size band",
      detailGaps.length === 0,
      detailGaps.length === 0
        ? "Latency targets, result sizes, consistency and item sizes known for every pattern."
        : `Consistency and item sizes known; ${detailGaps.join("; ")}.`,
      false,
    ),
    item(
      "reads-and-writes-paired",
      "Write pattern exists for every read pattern (and vice versa) unless the user explicitly declines",
      pairGaps.length === 0,
      pairGaps.length === 0
        ? "Every read has a creating write and every write is read (or marked standalone)."
        : `${pairGaps.join("; ")}. Add the missing patterns or mark them standalone.`,
      true,
    ),
  ];
}

/** The massive-scale questions when writes exceed 10,000/s, and the hot-partition inputs. */
function scaleItems(workload: Workload, state: RequirementsState): ChecklistItem[] {
  const writes = peakWritesPerSecond(workload);
  const massive = writes > MASSIVE_SCALE_WRITES_PER_SECOND;
  const unknownCardinality = filtersWithUnknownCardinality(workload);
  return [
    item(
      "massive-scale",
      "Massive scale questions asked (binning, write reduction, fan-out) when writes exceed 10,000/s",
      !massive || state.massiveScaleDiscussed === true,
      !massive
        ? `${writes.toLocaleString("en-US")} writes/s at peak: under 10,000/s.`
        : state.massiveScaleDiscussed === true
          ? `${writes.toLocaleString("en-US")} writes/s at peak; binning, write reduction and fan-out discussed.`
          : `${writes.toLocaleString("en-US")} writes/s at peak: ask about binning records into chunks, reducing writes and the fan-out of large data.`,
      true,
    ),
    item(
      "hot-partitions",
      "Hot partition risks evaluated",
      unknownCardinality.length === 0,
      unknownCardinality.length === 0
        ? knownCardinalityDetail(workload)
        : `Distinct values unknown for ${list(unknownCardinality)}: ask how many values and how skewed.`,
      false,
    ),
  ];
}

/** The design considerations, and the user's confirmation that every pattern is captured. */
function confirmationItems(workload: Workload, state: RequirementsState): ChecklistItem[] {
  const patterns = workload.accessPatterns;
  return [
    item(
      "design-considerations",
      "Design considerations captured (subject to final validation)",
      patterns.length > 0,
      patterns.length > 0 ? "Derived from the access patterns below." : "No access patterns yet.",
      false,
    ),
    item(
      "patterns-confirmed",
      "User confirmed that every access pattern is captured",
      state.confirmedPatterns === true,
      state.confirmedPatterns === true
        ? "Confirmed by the user."
        : "Ask: do you have any other access patterns? Every read needs its writes and vice versa.",
      true,
    ),
  ];
}

/** True when no blocking checklist item is open: the data model may be written. */
export function requirementsComplete(items: readonly ChecklistItem[]): boolean {
  return items.every((item) => item.done || !item.blocking);
}
