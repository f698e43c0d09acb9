/**
 * The "Design Considerations" section of `cosmosdb_requirements.md`: the hot-partition risk of
 * each partition key candidate, the partitions storage alone needs, the reads no key routes,
 * indexing needs, multi-document and multi-entity patterns, denormalization ideas and global
 * distribution, each computed from the workload (`analysis/design-considerations.ts`).
 */
import { consistencyReadMultiplier } from "../cosmos/consistency.js";
import {
  MAX_PHYSICAL_PARTITION_GB,
  MAX_PHYSICAL_PARTITION_RUS,
  MIN_READ_RU,
  MIN_WRITE_RU,
} from "../cosmos/limits.js";
import type { ReadPattern, Workload } from "../workload/types.js";
import { describeWith, type PairAnalysis } from "../analysis/aggregate-analysis.js";
import {
  MIN_KEY_CARDINALITY,
  denormalizationIdeas,
  entityStorage,
  hotPartitionRisks,
  indexingNeeds,
  unroutableReads,
  type HotValueRisk,
} from "../analysis/design-considerations.js";
import { escapeMarkdownText as e, formatBytes, formatNumber, formatPercent, table } from "./markdown.js";

/** A rate as the requirements document prints it ("?" when the workload has none). */
export function rate(value: number | undefined): string {
  return typeof value === "number" && Number.isFinite(value) ? formatNumber(value, 2) : "?";
}

/** Escaped pattern ids, comma-separated ("none" for an empty list). */
export function ids(list: readonly string[]): string {
  return list.length === 0 ? "none" : list.map(e).join(", ");
}

/** The design considerations section of a workload's requirements document. */
export function renderDesignConsiderations(workload: Workload, pairs: readonly PairAnalysis[]): string {
  const multiDocument = pairs.filter((p) => p.correlation >= 0.3 && p.correlation <= 0.7);
  const multiEntity = workload.accessPatterns.filter(
    (p): p is ReadPattern => p.type === "read" && p.with.length > 0,
  );
  const ideas = denormalizationLines(workload);
  return [
    "## Design Considerations (Subject to Change)",
    "",
    `- **Hot Partition Concerns**: load on the most used value of each partition key candidate at peak (Zipf skew; least RU/s = reads x ${MIN_READ_RU} RU + writes x ${MIN_WRITE_RU} RU, the charges of 1 KB items):`,
    "",
    hotPartitionTable(workload),
    "",
    "- **Large fan-out with many physical partitions based on total data size**: a cross-partition query visits every physical partition; storage alone needs:",
    "",
    storagePartitionsTable(workload),
    "",
    `- **Cross-Partition Query Costs**: ${crossPartitionText(workload)}`,
    `- **Indexing Strategy**:`,
    ...indexingLines(workload).map((line) => `  - ${line}`),
    `- **Multi-Document Opportunities** (30-70% access correlation): ${
      multiDocument.length === 0
        ? "none"
        : multiDocument
            .map((p) => `${e(p.parent)} + ${e(p.child)} (${formatPercent(p.correlation)})`)
            .join(", ")
    }`,
    `- **Multi-Entity Query Patterns**: ${
      multiEntity.length === 0
        ? "none"
        : multiEntity
            .map(
              (p) => `${e(p.id)} (${e(p.entity)} with ${p.with.map((w) => e(describeWith(w))).join(", ")})`,
            )
            .join("; ")
    }`,
    `- **Denormalization Ideas**: ${ideas.length === 0 ? "none" : ""}`,
    ...ideas.map((line) => `  - ${line}`),
    `- **Global Distribution**: ${globalDistributionText(workload)}`,
  ].join("\n");
}

/** What worries about a candidate key: few values, or its top value near or over a partition's RU/s. */
function hotPartitionConcern(risk: HotValueRisk): string {
  const concerns: string[] = [];
  if (risk.lowCardinality) concerns.push(`⚠️ fewer than ${MIN_KEY_CARDINALITY} distinct values`);
  switch (risk.partitionRusStatus) {
    case "over":
      concerns.push(
        `❌ over the limit: above the ${formatNumber(MAX_PHYSICAL_PARTITION_RUS, 0)} RU/s of one logical partition: shard writes or keep counters elsewhere`,
      );
      break;
    case "near":
      concerns.push(
        `⚠️ near the limit: ${formatPercent(risk.minRus / MAX_PHYSICAL_PARTITION_RUS)} of the ${formatNumber(MAX_PHYSICAL_PARTITION_RUS, 0)} RU/s of one logical partition at least`,
      );
      break;
    case "ok":
      break;
    default:
      return risk.partitionRusStatus satisfies never;
  }
  return concerns.length === 0 ? "✅" : concerns.join("; ");
}

/** One row per partition key candidate with a known number of distinct values. */
function hotPartitionTable(workload: Workload): string {
  const risks = hotPartitionRisks(workload);
  if (risks.length === 0) return "No partition key candidate with a known number of distinct values.";
  return table(
    [
      "Candidate key",
      "Distinct values",
      "Skew",
      "Top value share",
      "Reads/s on it (peak)",
      "Writes/s on it (peak)",
      "Least RU/s",
      "Concern",
    ],
    risks.map((r) => [
      `${e(r.entity)}.${e(r.attribute)}`,
      formatNumber(r.distinct, 0),
      formatNumber(r.skew, 2),
      formatPercent(r.topShare, 3),
      formatNumber(r.topReadsPeak, 1),
      formatNumber(r.topWritesPeak, 1),
      formatNumber(r.minRus, 0),
      hotPartitionConcern(r),
    ]),
  );
}

/** Items, data and the physical partitions storage alone needs, per entity at the horizon. */
function storagePartitionsTable(workload: Workload): string {
  return table(
    [
      "Entity",
      "Items at horizon",
      "Data at horizon",
      `Physical partitions (≥ data / ${MAX_PHYSICAL_PARTITION_GB} GB)`,
    ],
    workload.entities
      .map((x) => entityStorage(workload, x))
      .map((s) => [
        e(s.entity),
        formatNumber(s.items, 0),
        formatBytes(s.bytes),
        formatNumber(s.minPhysicalPartitions, 0),
      ]),
  );
}

/** The reads that no partition key can route, or that every read can be routed. */
function crossPartitionText(workload: Workload): string {
  const unroutable = unroutableReads(workload);
  if (unroutable.length === 0)
    return (
      "Every read filters on at least one attribute with `eq`, so each can be routed to one partition by a matching partition key; " +
      "a read that does not filter on the chosen key visits every physical partition."
    );
  const reads = unroutable
    .map(
      (u) =>
        `${e(u.patternId)} (${rate(u.peak)}/s at peak) visits at least ${formatNumber(u.minPartitions, 0)} physical partitions of ${e(u.entity)}`,
    )
    .join("; ");
  return `${reads}: no partition key routes them (each partition visited costs about 2.8-3 RU, a measured figure the cost model calibrates).`;
}

/** Per entity: the attributes filtered and sorted, the composite indexes and the unused ones. */
function indexingLines(workload: Workload): string[] {
  return indexingNeeds(workload).map((x) => {
    const parts = [
      `filtered: ${x.filtered.length === 0 ? "none" : x.filtered.map(e).join(", ")}`,
      `sorted: ${x.sorted.length === 0 ? "none" : x.sorted.map(e).join(", ")}`,
    ];
    if (x.composites.length > 0) {
      const composites = x.composites.map(
        (c) => `${e(c.patternId)} (${c.paths.map((p) => `${e(p.attribute)} ${p.direction}`).join(", ")})`,
      );
      parts.push(`composite indexes: ${composites.join("; ")}`);
    }
    if (x.unused.length > 0)
      parts.push(`never filtered or sorted (exclusion candidates): ${x.unused.map(e).join(", ")}`);
    return `**${e(x.entity)}**: ${parts.join("; ")}`;
  });
}

/** Each denormalization idea with the write patterns that keep it current. */
function denormalizationLines(workload: Workload): string[] {
  return denormalizationIdeas(workload).map((i) => {
    const maintained =
      i.maintainedBy.length === 0 ? "no write pattern changes it" : `kept current by ${ids(i.maintainedBy)}`;
    const verb = { copy: "copy", counter: "keep", subset: "embed", embed: "embed" }[i.kind];
    const changes = i.changes === undefined ? "" : ` (changes: ${i.changes})`;
    return `${e(i.patternId)}: ${verb} ${e(i.what)} in ${e(i.into)}${changes}, ${maintained}`;
  });
}

/** Regions, write regions and consistency, with the patterns that override it. */
function globalDistributionText(workload: Workload): string {
  const scale = workload.scale;
  const overrides = workload.accessPatterns.filter(
    (p): p is ReadPattern => p.type === "read" && p.consistency !== undefined,
  );
  const costly = [scale.consistency, ...overrides.map((p) => p.consistency ?? scale.consistency)].some(
    (c) => consistencyReadMultiplier(c) > 1,
  );
  return [
    `${scale.regions} region${scale.regions === 1 ? "" : "s"}, ${scale.multiRegionWrites ? "multi-region writes (throughput billed at the multi-region write rate)" : "single write region"}, default consistency ${scale.consistency}.`,
    overrides.length === 0
      ? "No pattern overrides the consistency."
      : `Overrides: ${overrides.map((p) => `${e(p.id)} ${p.consistency ?? ""}`).join(", ")}.`,
    costly ? "Strong and bounded-staleness reads cost twice the RU of session reads." : "",
  ]
    .filter((s) => s !== "")
    .join(" ");
}
