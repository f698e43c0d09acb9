/**
 * Checks made the moment an answer arrives, before anything is written: references a change
 * makes (`with` entries, `atomicWith` ids) are refused with the valid form in the message, facts
 * implied by an answer are filled in instead of asked (a boolean has 2 values), and the design
 * questions an expert would ask at once (a read that selects nothing, growth the create rate
 * contradicts, a filter on an attribute nothing writes) are reported as the same warnings
 * `check` gives for a workload file (src/workload/check-warnings.ts).
 */
import type { Issue } from "../common/issues.js";
import { suggestName } from "../source/suggest.js";
import {
  designQuestionFindings,
  type CheckedEntity,
  type CheckedPattern,
} from "../workload/check-design-questions.js";
import { parseWithItem, WITH_FORMS } from "../workload/with-items.js";
import type { DraftAccessPattern, DraftEntity, DraftWorkload } from "./draft.js";
import { ChangeRejected, findEntity } from "./draft-edits.js";

/**
 * Refuses a pattern whose `with` entries cannot be read or name an entity or attribute the
 * workload does not have, whose `atomicWith` names no other write, or whose `bufferedRecords`
 * does not fit its operation. The message says what would be valid.
 */
export function checkPatternReferences(workload: DraftWorkload, pattern: DraftAccessPattern): void {
  const problems: string[] = [];
  for (const entry of pattern.with ?? []) {
    const problem = withProblem(workload, pattern, entry);
    if (problem !== undefined) problems.push(problem);
  }
  for (const id of pattern.atomicWith ?? []) {
    const other = workload.accessPatterns.find((p) => p.id === id);
    const writes = workload.accessPatterns.filter((p) => p.type === "write" && p.id !== pattern.id);
    if (id === pattern.id)
      problems.push(`atomicWith lists ${id} itself; list the other writes of the transaction`);
    else if (other === undefined) {
      const suggestion = suggestName(
        id,
        writes.map((p) => p.id),
      );
      problems.push(
        `atomicWith: there is no access pattern ${id}${suggestion === undefined ? "" : ` (did you mean ${suggestion}?)`}; the write patterns are ${writes.map((p) => p.id).join(", ") || "none yet"}`,
      );
    } else if (other.type !== "write") {
      problems.push(
        `atomicWith: ${id} is a read; only writes commit together (writes: ${writes.map((p) => p.id).join(", ")})`,
      );
    }
  }
  if (pattern.atomicWith !== undefined && pattern.type !== "write")
    problems.push("atomicWith applies to writes only");
  if (
    (pattern.bufferedRecords ?? 1) > 1 &&
    (pattern.operation === "replace" || pattern.operation === "delete")
  ) {
    problems.push(
      `bufferedRecords applies to writes that add records (create, upsert, patch); this pattern is a ${pattern.operation}`,
    );
  }
  if (problems.length > 0) throw new ChangeRejected(`${pattern.id}: ${problems.join("; ")}`);
}

function withProblem(
  workload: DraftWorkload,
  pattern: DraftAccessPattern,
  entry: string,
): string | undefined {
  const parsed = parseWithItem(entry);
  if ("problem" in parsed) {
    const bare = findEntity(workload, entry.trim());
    const example =
      bare === undefined
        ? ""
        : ` For ${bare.name} that is e.g. "all(${bare.name})" (every related ${bare.name}), "count(${bare.name})" or "${bare.name}.${bare.attributes.find((a) => bare.key?.includes(a.name) !== true)?.name ?? "name"}" (one attribute).`;
    return `with entry ${JSON.stringify(entry)} cannot be read: expected ${WITH_FORMS}.${example}`;
  }
  const item = parsed.item;
  const entity = findEntity(workload, item.entity);
  if (entity === undefined) {
    const names = workload.entities.map((e) => e.name);
    const suggestion = suggestName(item.entity, names);
    return `with entry ${JSON.stringify(entry)} names no entity ${item.entity}${suggestion === undefined ? "" : ` (did you mean ${suggestion}?)`}; the entities are ${names.join(", ")}`;
  }
  if (item.entity === pattern.entity)
    return `with entry ${JSON.stringify(entry)} names ${pattern.entity} itself; with returns related data of another entity`;
  // "Newest" needs a time in the data (workload/recency.ts): refused once the entity's attributes
  // are described, none of them a datetime; before that, a warning (untimedLatest).
  if (
    item.kind === "latest" &&
    described(workload, entity) &&
    !entity.attributes.some((a) => a.type === "datetime")
  )
    return `with entry ${JSON.stringify(entry)}: the newest ${entity.name} records are those with the latest time, and ${entity.name} has no datetime attribute; add one (set-attribute { entity: ${entity.name}, name: createdAt, type: datetime }) or ask for all(${entity.name})`;
  if (item.kind === "attribute" || item.kind === "aggregate") {
    const attribute = entity.attributes.find((a) => a.name === item.attribute);
    if (attribute === undefined && entity.attributes.length > 0) {
      const suggestion = suggestName(
        item.attribute,
        entity.attributes.map((a) => a.name),
      );
      return `with entry ${JSON.stringify(entry)}: ${entity.name} has no attribute ${item.attribute}${suggestion === undefined ? "" : ` (did you mean ${suggestion}?)`}; it lists ${entity.attributes.map((a) => a.name).join(", ")}`;
    }
    if (
      item.kind === "aggregate" &&
      item.fn === "sum" &&
      attribute !== undefined &&
      attribute.type !== "number"
    )
      return `with entry ${JSON.stringify(entry)}: sum needs a number attribute and ${entity.name}.${item.attribute} is a ${attribute.type}`;
  }
  return undefined;
}

/**
 * Whether the answers have described the entity's attributes: it lists some besides its key and
 * the links to its parents (which add-entity and add-relationship fill in).
 */
function described(workload: DraftWorkload, entity: DraftEntity): boolean {
  const links = new Set(
    workload.relationships.filter((r) => r.child === entity.name).flatMap((r) => r.via ?? []),
  );
  return entity.attributes.some(
    (attribute) => entity.key?.includes(attribute.name) !== true && !links.has(attribute.name),
  );
}

/**
 * Warnings for `latest(X, N)` entries of an entity whose attributes are not described yet (only its key and links): the workload will
 * need a datetime attribute on X to tell the newest (`workload.latestWithoutTime`).
 */
export function untimedLatest(workload: DraftWorkload, pattern: DraftAccessPattern): string[] {
  return (pattern.with ?? []).flatMap((entry) => {
    const parsed = parseWithItem(entry);
    if ("problem" in parsed || parsed.item.kind !== "latest") return [];
    const entity = findEntity(workload, parsed.item.entity);
    if (entity === undefined || described(workload, entity)) return [];
    return [
      `${pattern.id} returns ${entry}: the newest ${entity.name} records are those with the latest time, so ${entity.name} needs a datetime attribute (set-attribute { entity: ${entity.name}, name: createdAt, type: datetime }), or the workload will not load`,
    ];
  });
}

/** Warnings for `with` entries that need a relationship the workload does not have yet. */
export function missingWithRelationships(workload: DraftWorkload, pattern: DraftAccessPattern): string[] {
  const warnings: string[] = [];
  for (const entry of pattern.with ?? []) {
    const parsed = parseWithItem(entry);
    if ("problem" in parsed) continue;
    const other = parsed.item.entity;
    const linked = workload.relationships.some(
      (r) =>
        (r.parent === pattern.entity && r.child === other) ||
        (parsed.item.kind === "attribute" && r.parent === other && r.child === pattern.entity),
    );
    if (linked) continue;
    const childWise = parsed.item.kind !== "attribute";
    warnings.push(
      childWise
        ? `${pattern.id} returns ${entry} with each ${pattern.entity}: it needs a relationship with parent ${pattern.entity} and child ${other} (add-relationship), or the workload will not load`
        : `${pattern.id} returns ${entry} with each ${pattern.entity}: it needs a relationship between ${other} and ${pattern.entity} (add-relationship, e.g. parent ${other}, child ${pattern.entity}, via the attribute holding the ${other}'s key), or the workload will not load`,
    );
  }
  return warnings;
}

/**
 * Facts the answers imply, filled in so they are not asked: a boolean attribute has 2 distinct
 * values. Returns the workload and what was filled in, in words.
 */
export function fillImpliedFacts(workload: DraftWorkload): { workload: DraftWorkload; learned: string[] } {
  const learned: string[] = [];
  const entities = workload.entities.map((entity): DraftEntity => {
    if (!entity.attributes.some((a) => a.type === "boolean" && a.distinct === undefined)) return entity;
    return {
      ...entity,
      attributes: entity.attributes.map((attribute) => {
        if (attribute.type !== "boolean" || attribute.distinct !== undefined) return attribute;
        learned.push(`${entity.name}.${attribute.name} is a boolean: 2 distinct values (not asked).`);
        return { ...attribute, distinct: 2 };
      }),
    };
  });
  return learned.length === 0 ? { workload, learned } : { workload: { ...workload, entities }, learned };
}

/**
 * The design-question warnings of `after` that `before` did not have (each is said once, when
 * the answer that causes it arrives), as the workload's issue codes with the draft's paths.
 */
export function newDesignWarnings(before: DraftWorkload, after: DraftWorkload): Issue[] {
  const seen = new Set(designWarnings(before).map(identity));
  return designWarnings(after).filter((issue) => !seen.has(identity(issue)));
}

/** The design-question warnings of a draft. */
export function designWarnings(workload: DraftWorkload): Issue[] {
  const entities: CheckedEntity[] = workload.entities.map((entity) => ({
    name: entity.name,
    ...(entity.key === undefined ? {} : { key: entity.key }),
    ...(entity.count === undefined ? {} : { count: entity.count }),
    ...(entity.growthPerMonth === undefined ? {} : { growthPerMonth: entity.growthPerMonth }),
    ...(entity.attributes.length === 0 ? {} : { attributes: entity.attributes.map((a) => a.name) }),
  }));
  const patterns: CheckedPattern[] = workload.accessPatterns.map((pattern, index) =>
    pattern.type === "read"
      ? {
          index,
          id: pattern.id,
          type: "read",
          entity: pattern.entity,
          standalone: pattern.standalone === true,
          ...(pattern.rps?.avg === undefined ? {} : { avg: pattern.rps.avg }),
          where: Object.entries(pattern.where ?? {}).map(([attribute, op]) => ({ attribute, op })),
          orderBy: Object.keys(pattern.orderBy ?? {}),
          ...(pattern.limit === undefined ? {} : { limit: pattern.limit }),
          ...(pattern.returns === undefined ? {} : { returns: pattern.returns.avg }),
        }
      : {
          index,
          id: pattern.id,
          type: "write",
          entity: pattern.entity,
          standalone: pattern.standalone === true,
          ...(pattern.rps?.avg === undefined ? {} : { avg: pattern.rps.avg }),
          ...(pattern.operation === undefined ? {} : { operation: pattern.operation }),
          recordsPerRequest: (pattern.batch ?? 1) * (pattern.bufferedRecords ?? 1),
          ...(pattern.changes === undefined ? {} : { changes: pattern.changes }),
        },
  );
  return designQuestionFindings(entities, patterns, { undeclaredAttributes: true }).map(
    (finding) =>
      ({
        ...(typeof finding.detail === "string" ? { code: finding.detail } : finding.detail),
        severity: "warning",
        path: finding.path,
        message: finding.message,
        suggestion: finding.suggestion,
      }) as Issue,
  );
}

/** What makes two warnings the same warning: the code and its subject, not the numbers. */
function identity(issue: Issue): string {
  const subject = issue as unknown as Record<string, unknown>;
  return JSON.stringify([issue.code, subject.pattern, subject.entity, subject.attribute]);
}
