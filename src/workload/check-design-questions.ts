/**
 * The design questions an expert asks the moment an answer arrives, over plain facts that a
 * loaded workload and the interview's draft both give: a read that selects nothing, a stated
 * growth the create rate contradicts, a filter on an attribute no write sets. `check` reports them
 * as warnings (check-warnings.ts); the interview when the answer that causes them arrives.
 */
import { formatDecimal, formatInteger } from "../common/format-number.js";
import { HOURS_PER_MONTH, SECONDS_PER_MONTH } from "../cosmos/limits.js";
import type { IssueDetail, IssuePath } from "../common/issues.js";
import type { WriteOperation } from "./types.js";

/** `growthPerMonth` and the records the create patterns make may differ by this factor before it is reported. */
export const GROWTH_TOLERANCE = 2;

/** An entity as the design-question checks see it (from a loaded workload or the interview's draft). */
export interface CheckedEntity {
  readonly name: string;
  /** The key attributes (several for a composite key). */
  readonly key?: readonly string[];
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
    suggestion: `add a filter that selects the records (e.g. where: { ${entity.key?.[0] ?? "id"}: eq } or the owner's id), a limit (limit: 20 with orderBy for the newest), or returns: { avg: N } if it really returns N records`,
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
    if (entity.key?.includes(attribute) === true) continue;
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
    message: `${entity.name} grows by ${formatInteger(growth)} records a month, but its create patterns make ${formatInteger(created)} a month (${arithmetic} on average, x ${formatInteger(SECONDS_PER_MONTH)} s in a ${HOURS_PER_MONTH}-hour month): ${growth > created ? "more than" : "less than"} 1/${GROWTH_TOLERANCE} to ${GROWTH_TOLERANCE}x of it`,
    suggestion: `correct growthPerMonth or the average rate of ${creates.map((c) => c.id).join(", ")}: one of them is wrong`,
  };
}
