/**
 * The warnings of docs/workload-format.md: questions an expert would ask about a workload that
 * is valid but probably incomplete or unusually demanding. They never fail a load.
 */
import { formatDecimal, formatInteger } from "../common/format-number.js";
import type { IssueDetail, IssuePath, IssueSink } from "../common/issues.js";
import type { WorkloadPieces } from "./load-workload.js";
import type { WriteOperation } from "./types.js";

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
            ...(pattern.limit === undefined ? {} : { limit: pattern.limit }),
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

/** Seconds in the 30-day month growth is counted in (the horizon's month, src/workload/horizon.ts). */
export const SECONDS_PER_MONTH = 30 * 86_400;
/** `growthPerMonth` and the records the create patterns make may differ by this factor before it is reported. */
export const GROWTH_TOLERANCE = 2;

/** An entity as the design-question checks see it (from a loaded workload or the interview's draft). */
export interface CheckedEntity {
  readonly name: string;
  readonly key?: string;
  readonly count?: number;
  readonly growthPerMonth?: number;
  /** The attributes it lists; absent when it lists none (names are then not checked). */
  readonly attributes?: readonly string[];
}

/** An access pattern as the design-question checks see it; unknown numbers are absent. */
export type CheckedPattern =
  | {
      readonly index: number;
      readonly id: string;
      readonly type: "read";
      readonly entity: string;
      readonly standalone: boolean;
      readonly avg?: number;
      readonly where: readonly { readonly attribute: string; readonly op: string }[];
      readonly orderBy: readonly string[];
      readonly limit?: number;
      readonly returns?: number;
    }
  | {
      readonly index: number;
      readonly id: string;
      readonly type: "write";
      readonly entity: string;
      readonly standalone: boolean;
      readonly avg?: number;
      readonly operation?: WriteOperation;
      /** Records one request writes: batch x bufferedRecords. */
      readonly recordsPerRequest: number;
      readonly changes?: readonly string[];
    };

/** One finding of the design-question checks, ready for an issue sink. */
export interface DesignQuestionFinding {
  readonly detail: IssueDetail;
  readonly path: IssuePath;
  readonly message: string;
  readonly suggestion: string;
}

/**
 * The questions an expert asks the moment an answer arrives: a read that selects nothing (it
 * reads every record), growth that the create rate contradicts, and a filter on an attribute
 * that no write sets (with `undeclaredAttributes`, also one the entity does not list: the
 * interview's draft; the loader reports those as errors).
 */
export function designQuestionFindings(
  entities: readonly CheckedEntity[],
  patterns: readonly CheckedPattern[],
  options: { readonly undeclaredAttributes: boolean },
): readonly DesignQuestionFinding[] {
  const findings: DesignQuestionFinding[] = [];
  const byName = new Map(entities.map((entity) => [entity.name, entity]));
  for (const pattern of patterns) {
    if (pattern.type !== "read") continue;
    const entity = byName.get(pattern.entity);
    if (entity === undefined) continue;
    const unselective = unselectiveRead(entity, pattern);
    if (unselective !== undefined) findings.push(unselective);
    findings.push(...unwrittenFilters(entity, pattern, patterns, options.undeclaredAttributes));
  }
  for (const entity of entities) {
    const mismatch = growthMismatch(entity, patterns);
    if (mismatch !== undefined) findings.push(mismatch);
  }
  return findings;
}

/** Operators that select records by value (the others keep a share of a range). */
const SELECTIVE_OPERATORS = new Set(["eq", "in", "contains"]);

function unselectiveRead(
  entity: CheckedEntity,
  pattern: Extract<CheckedPattern, { type: "read" }>,
): DesignQuestionFinding | undefined {
  if (pattern.limit !== undefined || pattern.returns !== undefined) return undefined;
  if (pattern.where.some((predicate) => SELECTIVE_OPERATORS.has(predicate.op))) return undefined;
  const records =
    entity.count === undefined
      ? `every ${entity.name} record`
      : `all ${formatInteger(entity.count)} ${entity.name} records (more as they grow)`;
  const what =
    pattern.where.length === 0
      ? `${pattern.id} has no filter: each request reads ${records}`
      : `${pattern.id} filters only with ${pattern.where.map((p) => `${p.attribute} ${p.op}`).join(", ")}: each request may read a large share of ${records} (1% is assumed per range or prefix)`;
  const rate = pattern.avg === undefined ? "" : `, ${formatDecimal(pattern.avg)} requests/s on average`;
  return {
    detail: { code: "workload.unselectiveRead", pattern: pattern.id, entity: entity.name },
    path: ["accessPatterns", pattern.index, "where"],
    message: `${what}${rate}, across every partition`,
    suggestion: `add a filter that selects the records (e.g. where: { ${entity.key ?? "id"}: eq } or the owner's id), a limit (limit: 20 with orderBy for the newest), or returns: { avg: N } if it really returns N records`,
  };
}

function unwrittenFilters(
  entity: CheckedEntity,
  read: Extract<CheckedPattern, { type: "read" }>,
  patterns: readonly CheckedPattern[],
  undeclared: boolean,
): DesignQuestionFinding[] {
  const named = [...new Set([...read.where.map((p) => p.attribute), ...read.orderBy])];
  const writes = patterns.filter(
    (p): p is Extract<CheckedPattern, { type: "write" }> => p.type === "write" && p.entity === entity.name,
  );
  // A create, upsert or replace writes the whole record; a patch writes its `changes` (all without).
  const writesWholeRecords = writes.some(
    (w) => w.operation === "create" || w.operation === "upsert" || w.operation === "replace",
  );
  const patched = new Set(writes.flatMap((w) => (w.operation === "patch" ? (w.changes ?? ["*"]) : [])));
  const findings: DesignQuestionFinding[] = [];
  for (const attribute of named) {
    if (attribute === entity.key) continue;
    const listed = entity.attributes === undefined || entity.attributes.includes(attribute);
    const written = writesWholeRecords || patched.has("*") || patched.has(attribute) || writes.length === 0;
    if (listed && (written || read.standalone)) continue;
    if (!listed && !undeclared) continue;
    const field = read.where.some((p) => p.attribute === attribute) ? "where" : "orderBy";
    findings.push({
      detail: { code: "workload.filterNeverWritten", pattern: read.id, entity: entity.name, attribute },
      path: ["accessPatterns", read.index, field, attribute],
      message: listed
        ? `${read.id} ${field === "where" ? "filters" : "sorts"} on ${entity.name}.${attribute}, but no write of ${entity.name} sets it: ${writes.map((w) => w.id).join(", ")} ${writes.length === 1 ? "is a patch that does" : "are patches that do"} not change it and nothing creates the records`
        : `${read.id} ${field === "where" ? "filters" : "sorts"} on ${entity.name}.${attribute}, which ${entity.name} does not list: no write sets it`,
      suggestion: listed
        ? `add ${attribute} to the changes of the patch that sets it, or add the write that creates ${entity.name} records`
        : `add it to ${entity.name} with its type (set-attribute) if the writes set it, or correct the name (${entity.name} lists ${(entity.attributes ?? []).join(", ")})`,
    });
  }
  return findings;
}

function growthMismatch(
  entity: CheckedEntity,
  patterns: readonly CheckedPattern[],
): DesignQuestionFinding | undefined {
  const writes = patterns.filter(
    (p): p is Extract<CheckedPattern, { type: "write" }> => p.type === "write" && p.entity === entity.name,
  );
  const creates = writes.filter((w) => w.operation === "create");
  // growth 0 is also what a file that omits it gets: only a stated growth is compared
  if (
    entity.growthPerMonth === undefined ||
    entity.growthPerMonth === 0 ||
    creates.length === 0 ||
    creates.some((c) => c.avg === undefined)
  )
    return undefined;
  const perMonth = (list: typeof writes): number =>
    list.reduce((sum, w) => sum + (w.avg ?? 0) * w.recordsPerRequest, 0) * SECONDS_PER_MONTH;
  const created = perMonth(creates);
  const deletes = writes.filter((w) => w.operation === "delete");
  const net = deletes.some((d) => d.avg === undefined) ? 0 : Math.max(0, created - perMonth(deletes));
  const growth = entity.growthPerMonth;
  // growth counts new records (the net growth when nothing expires): either reading is accepted
  const low = Math.min(net, created) / GROWTH_TOLERANCE;
  const high = created * GROWTH_TOLERANCE;
  if (growth >= low && growth <= high) return undefined;
  const arithmetic = creates
    .map(
      (c) =>
        `${c.id} ${formatDecimal(c.avg ?? 0)}/s${c.recordsPerRequest === 1 ? "" : ` x ${formatInteger(c.recordsPerRequest)} records`}`,
    )
    .join(" + ");
  return {
    detail: {
      code: "workload.growthMismatch",
      entity: entity.name,
      growthPerMonth: growth,
      createdPerMonth: created,
    },
    path: ["entities", entity.name, "growthPerMonth"],
    message: `${entity.name} grows by ${formatInteger(growth)} records a month, but its create patterns make ${formatInteger(created)} a month (${arithmetic} on average, x ${formatInteger(SECONDS_PER_MONTH)} s in a 30-day month): ${growth > created ? "more than" : "less than"} 1/${GROWTH_TOLERANCE} to ${GROWTH_TOLERANCE}x of it`,
    suggestion: `correct growthPerMonth or the average rate of ${creates.map((c) => c.id).join(", ")}: one of them is wrong`,
  };
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
