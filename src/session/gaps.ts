/**
 * What the session does not know yet: the gaps that the next questions fill and that the
 * checklist reports. Each function looks at one kind of gap.
 */
import { MASSIVE_BATCH_ITEMS, MASSIVE_WRITES_PER_SECOND } from "../workload/check-warnings.js";
import { patternAttributes } from "./draft-edits.js";
import type { DraftAccessPattern, DraftEntity, DraftRelationship, DraftWorkload } from "./draft.js";
import { formatNumber } from "./estimate-rate.js";
import type { SessionState } from "./state.js";

/** Why the three massive-scale questions must be asked, or undefined when the workload is not massive. */
export function massiveScaleReason(workload: DraftWorkload): string | undefined {
  const writes = workload.accessPatterns.filter((pattern) => pattern.type === "write");
  const total = writes.reduce(
    (sum, pattern) => sum + (pattern.rps?.peak ?? pattern.rps?.avg ?? 0) * (pattern.batch ?? 1),
    0,
  );
  if (total > MASSIVE_WRITES_PER_SECOND) {
    return `the write patterns add up to ${formatNumber(total)} item writes/s at peak, more than ${formatNumber(MASSIVE_WRITES_PER_SECOND)}/s`;
  }
  const bulk = writes.find((pattern) => (pattern.batch ?? 1) >= MASSIVE_BATCH_ITEMS);
  if (bulk !== undefined)
    return `${bulk.id} ingests ${formatNumber(bulk.batch ?? 0)} items per request (a bulk ingest of millions)`;
  return undefined;
}

export function massiveScaleOpen(state: SessionState): boolean {
  return (
    massiveScaleReason(state.workload) !== undefined &&
    (["binning", "writeReduction", "dataSizeFanOut"] as const).some(
      (field) =>
        state.massiveScale[field] === undefined && !state.declined.includes(`massive-scale:${field}`),
    )
  );
}

export function entitiesWithoutKey(workload: DraftWorkload): readonly DraftEntity[] {
  return workload.entities.filter((entity) => entity.key === undefined);
}

/** Patterns whose average or peak rate is unknown. */
export function patternsWithoutRate(workload: DraftWorkload): readonly DraftAccessPattern[] {
  return workload.accessPatterns.filter(
    (pattern) => pattern.rps?.avg === undefined || pattern.rps.peak === undefined,
  );
}

export interface PairingGap {
  readonly entity: string;
  /**
   * `create`: items are read but no write creates them; `read`: items are written but never
   * read; `any`: no access pattern uses the entity at all.
   */
  readonly missing: "create" | "read" | "any";
  readonly patterns: readonly string[];
  readonly questionId: string;
}

/** The entities a read's `with` entries name (`User.username`, `count(Comment)`, ...). */
function withEntities(pattern: DraftAccessPattern): readonly string[] {
  return (pattern.with ?? []).flatMap((entry) => {
    const entity = /^(?:[a-z]+\()?([A-Za-z_][A-Za-z0-9_]*)/.exec(entry)?.[1];
    return entity === undefined ? [] : [entity];
  });
}

/** Read patterns without a write that creates the items, and writes whose items nobody reads (the loader's rule). */
export function pairingGaps(state: SessionState): readonly PairingGap[] {
  const workload = state.workload;
  const created = new Set<string>();
  const read = new Set<string>();
  for (const pattern of workload.accessPatterns) {
    if (pattern.type === "write") {
      if (pattern.operation === "create" || pattern.operation === "upsert") created.add(pattern.entity);
    } else {
      read.add(pattern.entity);
      for (const entity of withEntities(pattern)) read.add(entity);
    }
  }
  const gaps: PairingGap[] = [];
  // Entities nothing uses come after the reads without writes and the writes without reads.
  const unused: PairingGap[] = [];
  for (const entity of workload.entities) {
    const used = workload.accessPatterns.some((p) => p.entity === entity.name) || read.has(entity.name);
    if (!used && workload.accessPatterns.length > 0) {
      unused.push({
        entity: entity.name,
        missing: "any",
        patterns: [],
        questionId: `pairing:${entity.name}:any`,
      });
      continue;
    }
    const patterns = workload.accessPatterns.filter((p) => p.entity === entity.name && p.standalone !== true);
    // a read needs the items it returns and the related items it returns them with
    const reads = workload.accessPatterns
      .filter(
        (p) =>
          p.type === "read" &&
          p.standalone !== true &&
          (p.entity === entity.name || withEntities(p).includes(entity.name)),
      )
      .map((p) => p.id);
    const writes = patterns.filter((p) => p.type === "write").map((p) => p.id);
    if (reads.length > 0 && !created.has(entity.name))
      gaps.push({
        entity: entity.name,
        missing: "create",
        patterns: reads,
        questionId: `pairing:${entity.name}:create`,
      });
    if (writes.length > 0 && !read.has(entity.name))
      gaps.push({
        entity: entity.name,
        missing: "read",
        patterns: writes,
        questionId: `pairing:${entity.name}:read`,
      });
  }
  return [...gaps, ...unused].filter((gap) => !state.declined.includes(gap.questionId));
}

/** Attributes that patterns or relationships name but the entity (which lists attributes) does not declare. */
export function undeclaredAttributes(
  workload: DraftWorkload,
): readonly { entity: string; attribute: string }[] {
  const found: { entity: string; attribute: string }[] = [];
  const add = (entity: DraftEntity | undefined, attribute: string): void => {
    if (
      entity === undefined ||
      entity.attributes.length === 0 ||
      entity.attributes.some((a) => a.name === attribute)
    )
      return;
    if (!found.some((f) => f.entity === entity.name && f.attribute === attribute))
      found.push({ entity: entity.name, attribute });
  };
  for (const pattern of workload.accessPatterns) {
    const entity = workload.entities.find((e) => e.name === pattern.entity);
    for (const attribute of patternAttributes(pattern)) add(entity, attribute);
  }
  for (const relationship of workload.relationships) {
    if (relationship.via !== undefined)
      add(
        workload.entities.find((e) => e.name === relationship.child),
        relationship.via,
      );
  }
  return found;
}

/** Entities whose item count or average size is unknown. */
export function entitiesWithoutSize(workload: DraftWorkload): readonly DraftEntity[] {
  return workload.entities.filter((entity) => entity.count === undefined || entity.avgBytes === undefined);
}

/** Entity pairs that look related (the child has an attribute named like the parent's key) but have no relationship. */
export function inferredRelationships(
  state: SessionState,
): readonly { parent: string; child: string; via: string; questionId: string }[] {
  const workload = state.workload;
  const found: { parent: string; child: string; via: string; questionId: string }[] = [];
  for (const parent of workload.entities) {
    if (parent.key === undefined) continue;
    for (const child of workload.entities) {
      if (child.name === parent.name || child.key === parent.key) continue;
      if (!child.attributes.some((a) => a.name === parent.key)) continue;
      const linked = workload.relationships.some(
        (r) =>
          (r.parent === parent.name && r.child === child.name) ||
          (r.parent === child.name && r.child === parent.name),
      );
      const questionId = `relationship:${parent.name}:${child.name}:exists`;
      if (!linked && !state.declined.includes(questionId))
        found.push({ parent: parent.name, child: child.name, via: parent.key, questionId });
    }
  }
  return found;
}

/** Relationships whose average, maximum (or "unbounded") or ownership is not known. */
export function relationshipsWithoutBounds(workload: DraftWorkload): readonly DraftRelationship[] {
  return workload.relationships.filter(
    (r) => r.avg === undefined || r.max === undefined || r.owned === undefined,
  );
}

/** Attributes that reads filter on with eq/in, other than the key, whose number of distinct values is unknown. */
export function cardinalityGaps(
  state: SessionState,
): readonly { entity: string; attribute: string; questionId: string }[] {
  const found: { entity: string; attribute: string; questionId: string }[] = [];
  for (const pattern of state.workload.accessPatterns) {
    if (pattern.type !== "read") continue;
    const entity = state.workload.entities.find((e) => e.name === pattern.entity);
    if (entity === undefined) continue;
    for (const [name, op] of Object.entries(pattern.where ?? {})) {
      if (name === entity.key || (op !== "eq" && op !== "in")) continue;
      const attribute = entity.attributes.find((a) => a.name === name);
      if (attribute === undefined || attribute.distinct !== undefined || attribute.unique === true) continue;
      if (state.workload.relationships.some((r) => r.child === entity.name && r.via === name)) continue;
      const questionId = `cardinality:${entity.name}:${name}`;
      if (!state.declined.includes(questionId) && !found.some((f) => f.questionId === questionId)) {
        found.push({ entity: entity.name, attribute: name, questionId });
      }
    }
  }
  return found;
}
