/**
 * The warnings of docs/workload-format.md: questions an expert would ask about a workload that
 * is valid but probably incomplete or unusually demanding. They never fail a load.
 */
import type { IssueSink } from "../common/issues.js";
import { designQuestionFindings } from "./check-design-questions.js";
import type { WorkloadPieces } from "./load-workload.js";

/** Total item writes per second at peak above which the spec asks about scale. */
export const MASSIVE_WRITES_PER_SECOND = 10_000;
/** Items in one batch request from which the spec asks about scale ("millions of items"). */
export const MASSIVE_BATCH_ITEMS = 1_000_000;
/** A lone `where` attribute with fewer distinct values than this reads a large share of the items. */
export const LOW_CARDINALITY = 100;

/** Reports the warnings; call only when every access pattern is structurally valid. */
export function checkWarnings(pieces: WorkloadPieces, sink: IssueSink): void {
  checkReadsAndWrites(pieces, sink);
  checkWriteScale(pieces, sink);
  checkLowCardinality(pieces, sink);
  for (const finding of designQuestionFindings(
    [...pieces.entities.values()].map((entity) => ({
      name: entity.name,
      ...(entity.key === undefined ? {} : { key: entity.key }),
      count: entity.count,
      growthPerMonth: entity.growthPerMonth,
      ...(pieces.attributeNames.has(entity.name)
        ? { attributes: pieces.attributeNames.get(entity.name) ?? [] }
        : {}),
    })),
    pieces.patterns.map(({ index, pattern }) =>
      pattern.type === "read"
        ? {
            index,
            id: pattern.id,
            type: "read" as const,
            entity: pattern.entity,
            standalone: pattern.standalone,
            avg: pattern.rps.avg,
            where: pattern.where.map((p) => ({ attribute: p.attribute, op: p.op })),
            orderBy: pattern.orderBy.map((key) => key.attribute),
            // A search returns its k best (TOP k): that is its limit.
            ...(pattern.limit === undefined
              ? pattern.search === undefined
                ? {}
                : { limit: pattern.search.k }
              : { limit: pattern.limit }),
            ...(pattern.returns === undefined ? {} : { returns: pattern.returns.avg }),
          }
        : {
            index,
            id: pattern.id,
            type: "write" as const,
            entity: pattern.entity,
            standalone: pattern.standalone,
            avg: pattern.rps.avg,
            operation: pattern.operation,
            recordsPerRequest: pattern.batch * pattern.bufferedRecords,
            ...(pattern.changes === undefined ? {} : { changes: pattern.changes }),
          },
    ),
    { undeclaredAttributes: false },
  )) {
    sink.warning(finding.detail, finding.path, finding.message, finding.suggestion);
  }
}

function checkReadsAndWrites(pieces: WorkloadPieces, sink: IssueSink): void {
  const created = new Set<string>();
  const read = new Set<string>();
  for (const { pattern } of pieces.patterns) {
    if (pattern.type === "write") {
      if (pattern.operation === "create" || pattern.operation === "upsert") created.add(pattern.entity);
    } else {
      read.add(pattern.entity);
      for (const item of pattern.with) read.add(item.entity);
    }
  }
  for (const { index, pattern } of pieces.patterns) {
    if (pattern.standalone || !pieces.entityNames.includes(pattern.entity)) continue;
    if (pattern.type === "read" && !created.has(pattern.entity)) {
      sink.warning(
        { code: "workload.readWithoutCreate", pattern: pattern.id, entity: pattern.entity },
        ["accessPatterns", index, "entity"],
        `${pattern.id} reads ${pattern.entity} items, but no write pattern creates them (operation create or upsert)`,
        "add the write pattern that creates them, or mark this pattern standalone: true if they are loaded outside the application",
      );
    }
    // Related data read through `with` counts too: the requirements checklist lists the same
    // reads (analysis/requirements-checklist.ts, readsWithoutWrites), so check and document agree.
    if (pattern.type === "read") {
      const uncreated = [...new Set(pattern.with.map((entry) => entry.entity))].filter(
        (entity) => entity !== pattern.entity && pieces.entityNames.includes(entity) && !created.has(entity),
      );
      for (const entity of uncreated)
        sink.warning(
          { code: "workload.readWithoutCreate", pattern: pattern.id, entity },
          ["accessPatterns", index, "with"],
          `${pattern.id} reads ${entity} items through "with", but no write pattern creates them (operation create or upsert)`,
          "add the write pattern that creates them, or mark this pattern standalone: true if they are loaded outside the application",
        );
    }
    if (pattern.type === "write" && !read.has(pattern.entity)) {
      sink.warning(
        { code: "workload.writeWithoutRead", pattern: pattern.id, entity: pattern.entity },
        ["accessPatterns", index, "entity"],
        `${pattern.id} writes ${pattern.entity} items, but no read pattern reads them (directly or with "with")`,
        "add the read patterns that use them, or mark this pattern standalone: true (e.g. data read by another system)",
      );
    }
  }
}

function checkWriteScale(pieces: WorkloadPieces, sink: IssueSink): void {
  const writes = pieces.patterns.flatMap(({ index, pattern }) =>
    pattern.type === "write" ? [{ index, pattern, items: pattern.rps.peak * pattern.batch }] : [],
  );
  const total = writes.reduce((sum, write) => sum + write.items, 0);
  const question =
    "Can items be binned (many small records grouped into one item per time window or chunk), can writes be reduced (sampling, aggregating before writing), and how will the data size affect the fan-out of the reads?";
  const largest = [...writes].sort((a, b) => b.items - a.items);
  const [first] = largest;
  if (total > MASSIVE_WRITES_PER_SECOND && first !== undefined) {
    const top = largest
      .slice(0, 3)
      .map(({ pattern, items }) => `${pattern.id} ${formatNumber(items)}/s`)
      .join(", ");
    sink.warning(
      {
        code: "workload.massiveScale",
        pattern: first.pattern.id,
        measure: "itemWritesPerSecond",
        value: total,
      },
      ["accessPatterns", first.index, "rps", "peak"],
      `the write patterns add up to ${formatNumber(total)} item writes/s at peak (more than ${formatNumber(MASSIVE_WRITES_PER_SECOND)}; largest: ${top}). ${question}`,
    );
  }
  for (const { index, pattern } of writes) {
    if (pattern.batch >= MASSIVE_BATCH_ITEMS) {
      sink.warning(
        { code: "workload.massiveScale", pattern: pattern.id, measure: "batchItems", value: pattern.batch },
        ["accessPatterns", index, "batch"],
        `${pattern.id} ingests ${formatNumber(pattern.batch)} items per request. ${question}`,
      );
    }
  }
}

function checkLowCardinality(pieces: WorkloadPieces, sink: IssueSink): void {
  for (const { index, pattern } of pieces.patterns) {
    if (pattern.type !== "read" || pattern.where.length !== 1) continue;
    const [predicate] = pattern.where;
    const entity = pieces.entities.get(pattern.entity);
    const attribute = entity?.attributes.find((candidate) => candidate.name === predicate?.attribute);
    if (entity === undefined || attribute?.distinct === undefined || attribute.distinct >= LOW_CARDINALITY)
      continue;
    sink.warning(
      {
        code: "workload.lowCardinalityFilter",
        pattern: pattern.id,
        attribute: attribute.name,
        distinct: attribute.distinct,
      },
      ["accessPatterns", index, "where", attribute.name],
      `${pattern.id} filters only on ${attribute.name}, which has ${attribute.distinct} distinct values: each query matches about 1/${attribute.distinct} of all ${entity.name} items (${formatNumber(entity.count / attribute.distinct)} of ${formatNumber(entity.count)})`,
      "add a more selective filter (e.g. the owner's id), a limit, or confirm that the query reads that many items",
    );
  }
}

function formatNumber(value: number): string {
  return value.toLocaleString("en-US", { maximumFractionDigits: 2 });
}
