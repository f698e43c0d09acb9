/**
 * What the session does not know yet: the gaps that the next questions fill and that the
 * checklist reports. Each function looks at one kind of gap.
 */
import { ITEM_OVERHEAD_BYTES, MAX_ITEM_BYTES } from "../cosmos/limits.js";
import { MASSIVE_BATCH_ITEMS, MASSIVE_WRITES_PER_SECOND } from "../workload/check-warnings.js";
import { defaultMaxBytes } from "../workload/load-workload.js";
import { parseWithItem } from "../workload/with-items.js";
import { patternAttributes } from "./draft-edits.js";
import type { DraftAccessPattern, DraftEntity, DraftRelationship, DraftWorkload } from "./draft.js";
import { formatNumber } from "./estimate-rate.js";
import type { SessionState } from "./state.js";

/** Why the massive-scale questions must be asked, or undefined when the workload is not massive. */
export function massiveScaleReason(workload: DraftWorkload): string | undefined {
  const writes = workload.accessPatterns.filter((pattern) => pattern.type === "write");
  const total = writes.reduce((sum, pattern) => sum + itemWrites(pattern), 0);
  if (total > MASSIVE_WRITES_PER_SECOND) {
    return `the write patterns add up to ${formatNumber(total)} item writes/s at peak, more than ${formatNumber(MASSIVE_WRITES_PER_SECOND)}/s`;
  }
  const bulk = writes.find((pattern) => (pattern.batch ?? 1) >= MASSIVE_BATCH_ITEMS);
  if (bulk !== undefined)
    return `${bulk.id} ingests ${formatNumber(bulk.batch ?? 0)} items per request (a bulk ingest of millions)`;
  return undefined;
}

/** Item writes per second of a write pattern at peak (the average when the peak is not known). */
function itemWrites(pattern: DraftAccessPattern): number {
  return (pattern.rps?.peak ?? pattern.rps?.avg ?? 0) * (pattern.batch ?? 1);
}

/**
 * The write patterns that make a workload massive: those with a tenth or more of its item
 * writes, or a bulk ingest of millions; the largest first. Empty when it is not massive.
 */
export function massiveWrites(workload: DraftWorkload): readonly DraftAccessPattern[] {
  if (massiveScaleReason(workload) === undefined) return [];
  const writes = workload.accessPatterns.filter((pattern) => pattern.type === "write");
  const total = writes.reduce((sum, pattern) => sum + itemWrites(pattern), 0);
  return writes
    .filter(
      (pattern) =>
        (pattern.batch ?? 1) >= MASSIVE_BATCH_ITEMS ||
        (total > MASSIVE_WRITES_PER_SECOND && itemWrites(pattern) >= total / 10),
    )
    .sort((a, b) => itemWrites(b) - itemWrites(a));
}

/** A massive-scale question still open: its id and what it is about. */
export interface MassiveScaleGap {
  readonly questionId: string;
  readonly subject: "binning" | "buffering" | "staleness";
  /** The write pattern that makes the workload massive. */
  readonly write: DraftAccessPattern;
  /** For staleness: the read that returns the written entity's records with other data. */
  readonly read?: DraftAccessPattern;
}

/**
 * The massive-scale answers still missing, for each massive write: how its entity's records may
 * be binned (`binning`), how many records the writer sends at once (`bufferedRecords`), and how
 * old the records may be in the reads that return them with other data (`maxStalenessSeconds`).
 */
export function massiveScaleGaps(state: SessionState): readonly MassiveScaleGap[] {
  const gaps: MassiveScaleGap[] = [];
  const entities = new Set<string>();
  for (const write of massiveWrites(state.workload)) {
    const entity = state.workload.entities.find((e) => e.name === write.entity);
    if (entity !== undefined && entity.binning === undefined && !entities.has(entity.name))
      gaps.push({ questionId: `massive-scale:${entity.name}:binning`, subject: "binning", write });
    entities.add(write.entity);
    if (write.bufferedRecords === undefined && write.operation !== "delete" && write.operation !== "replace")
      gaps.push({ questionId: `massive-scale:${write.id}:buffering`, subject: "buffering", write });
    for (const read of state.workload.accessPatterns) {
      if (read.type !== "read" || read.maxStalenessSeconds !== undefined) continue;
      if (!(read.with ?? []).some((entry) => withEntityOf(entry) === write.entity)) continue;
      gaps.push({ questionId: `massive-scale:${read.id}:staleness`, subject: "staleness", write, read });
    }
  }
  return gaps.filter(
    (gap, index) =>
      !state.declined.includes(gap.questionId) &&
      gaps.findIndex((other) => other.questionId === gap.questionId) === index,
  );
}

export function massiveScaleOpen(state: SessionState): boolean {
  return massiveScaleGaps(state).length > 0;
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

/** The entity a `with` entry names (`User.username`, `count(Comment)` -> User, Comment). */
function withEntityOf(entry: string): string | undefined {
  return /^\s*(?:[a-z]+\(\s*)?([A-Za-z_][A-Za-z0-9_]*)/.exec(entry)?.[1];
}

/** The entities a read's `with` entries name (`User.username`, `count(Comment)`, ...). */
function withEntities(pattern: DraftAccessPattern): readonly string[] {
  return (pattern.with ?? []).flatMap((entry) => {
    const entity = withEntityOf(entry);
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
    for (const via of relationship.via ?? [])
      add(
        workload.entities.find((e) => e.name === relationship.child),
        via,
      );
  }
  return found;
}

/** The largest record an item holds: the item limit less the properties every item adds. */
export const LARGEST_RECORD_BYTES = MAX_ITEM_BYTES - ITEM_OVERHEAD_BYTES;

/**
 * Entities whose largest item must be given: the average is known, but without `maxBytes` the
 * largest is taken as 4 x the average, which (with the properties every item adds) is more than
 * an item can hold, so the workload would not load (workload.itemTooLarge).
 */
export function entitiesWithoutLargestSize(workload: DraftWorkload): readonly DraftEntity[] {
  return workload.entities.filter(
    (entity) =>
      entity.maxBytes === undefined &&
      entity.avgBytes !== undefined &&
      entity.avgBytes <= LARGEST_RECORD_BYTES &&
      defaultMaxBytes(entity.avgBytes) > LARGEST_RECORD_BYTES,
  );
}

/** Entities whose item count or average size is unknown (or an average no item can hold). */
export function entitiesWithoutSize(workload: DraftWorkload): readonly DraftEntity[] {
  return workload.entities.filter(
    (entity) =>
      entity.count === undefined || entity.avgBytes === undefined || entity.avgBytes > LARGEST_RECORD_BYTES,
  );
}

/** Entity pairs that look related (the child has an attribute named like the parent's key) but have no relationship. */
export function inferredRelationships(
  state: SessionState,
): readonly { parent: string; child: string; via: string; questionId: string }[] {
  const workload = state.workload;
  const found: { parent: string; child: string; via: string; questionId: string }[] = [];
  for (const parent of workload.entities) {
    // Inferred from one attribute named like the parent's key: a composite key is not inferred.
    const key = parent.key?.length === 1 ? parent.key[0] : undefined;
    if (key === undefined) continue;
    for (const child of workload.entities) {
      if (child.name === parent.name || (child.key?.length === 1 && child.key[0] === key)) continue;
      if (!child.attributes.some((a) => a.name === key)) continue;
      const linked = workload.relationships.some(
        (r) =>
          (r.parent === parent.name && r.child === child.name) ||
          (r.parent === child.name && r.child === parent.name),
      );
      const questionId = `relationship:${parent.name}:${child.name}:exists`;
      if (!linked && !state.declined.includes(questionId))
        found.push({ parent: parent.name, child: child.name, via: key, questionId });
    }
  }
  return found;
}

/**
 * A relationship that `with` entries of reads need and the workload lacks (`count(Comment)` on
 * Post needs Post -> Comment; `User.name` on Post needs User -> Post, or the two linked
 * many-to-many): without it the workload does not load (workload.badWith).
 */
export interface RequiredRelationship {
  readonly parent: string;
  readonly child: string;
  /** The reads that need it, each with the entries that need it. */
  readonly uses: readonly { readonly pattern: string; readonly entries: readonly string[] }[];
  readonly questionId: string;
}

/**
 * The relationships `with` entries need that the workload does not have, except those an
 * inferred relationship asks about already (the same parent and child), once each.
 */
export function requiredRelationships(state: SessionState): readonly RequiredRelationship[] {
  const workload = state.workload;
  const inferred = inferredRelationships(state);
  const found = new Map<string, { parent: string; child: string; uses: Map<string, string[]> }>();
  const has = (parent: string, child: string): boolean =>
    workload.relationships.some((r) => r.parent === parent && r.child === child);
  for (const pattern of workload.accessPatterns) {
    if (pattern.type !== "read") continue;
    for (const entry of pattern.with ?? []) {
      const parsed = parseWithItem(entry);
      if ("problem" in parsed) continue;
      const other = parsed.item.entity;
      if (other === pattern.entity || !workload.entities.some((e) => e.name === other)) continue;
      const attribute = parsed.item.kind === "attribute";
      const [parent, child] = attribute ? [other, pattern.entity] : [pattern.entity, other];
      const linked = attribute
        ? has(parent, child) ||
          workload.relationships.some(
            (r) => r.kind === "many-to-many" && r.parent === child && r.child === parent,
          )
        : has(parent, child);
      if (linked || inferred.some((r) => r.parent === parent && r.child === child)) continue;
      const key = `${parent}:${child}`;
      const entryOf = found.get(key) ?? { parent, child, uses: new Map<string, string[]>() };
      found.set(key, entryOf);
      entryOf.uses.set(pattern.id, [...(entryOf.uses.get(pattern.id) ?? []), entry]);
    }
  }
  return [...found.values()]
    .map((r) => ({
      parent: r.parent,
      child: r.child,
      uses: [...r.uses].map(([pattern, entries]) => ({ pattern, entries })),
      questionId: `relationship:${r.parent}:${r.child}:kind`,
    }))
    .filter((r) => !state.declined.includes(r.questionId));
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
  return locatingAttributes(state.workload)
    .filter(({ entity, attribute }) => {
      if (attribute.distinct !== undefined || attribute.unique === true) return false;
      // implied: a boolean has 2 values, a relationship's via has one per parent
      if (attribute.type === "boolean") return false;
      return !state.workload.relationships.some(
        (r) => r.child === entity.name && r.via?.length === 1 && r.via[0] === attribute.name,
      );
    })
    .map(({ entity, attribute }) => ({
      entity: entity.name,
      attribute: attribute.name,
      questionId: `cardinality:${entity.name}:${attribute.name}`,
    }))
    .filter((gap) => !state.declined.includes(gap.questionId));
}

/**
 * Attributes that locate reads (eq/in filters, other than the key and booleans) whose skew, how
 * unevenly the requests spread over their values, is unknown: it decides hot partitions.
 */
export function skewGaps(
  state: SessionState,
): readonly { entity: string; attribute: string; questionId: string }[] {
  return (
    locatingAttributes(state.workload)
      // a unique value is one record's: how often it is looked up does not concentrate anything
      .filter(
        ({ attribute }) =>
          attribute.skew === undefined && attribute.type !== "boolean" && attribute.unique !== true,
      )
      .map(({ entity, attribute }) => ({
        entity: entity.name,
        attribute: attribute.name,
        questionId: `skew:${entity.name}:${attribute.name}`,
      }))
      .filter((gap) => !state.declined.includes(gap.questionId))
  );
}

/** The declared attributes reads filter on with eq or in, other than the entity's key, once each. */
function locatingAttributes(
  workload: DraftWorkload,
): readonly { entity: DraftEntity; attribute: DraftEntity["attributes"][number] }[] {
  const found: { entity: DraftEntity; attribute: DraftEntity["attributes"][number] }[] = [];
  for (const pattern of workload.accessPatterns) {
    if (pattern.type !== "read") continue;
    const entity = workload.entities.find((e) => e.name === pattern.entity);
    if (entity === undefined) continue;
    for (const [name, op] of Object.entries(pattern.where ?? {})) {
      if ((entity.key?.length === 1 && entity.key[0] === name) || (op !== "eq" && op !== "in")) continue;
      const attribute = entity.attributes.find((a) => a.name === name);
      if (attribute === undefined) continue;
      if (!found.some((f) => f.entity.name === entity.name && f.attribute.name === name))
        found.push({ entity, attribute });
    }
  }
  return found;
}

/** A search read's settings still missing: `k` (every search), `recall` (a vector search). */
export interface SearchGap {
  readonly pattern: DraftAccessPattern;
  readonly missing: readonly ("k" | "recall")[];
}

/**
 * Search reads that lack `k` (how many results) or, for a vector search, `recall` (the share of
 * the true nearest neighbours needed): the workload format requires both, and they choose the
 * vector index and the RU of every search.
 */
export function searchGaps(workload: DraftWorkload): readonly SearchGap[] {
  return workload.accessPatterns.flatMap((pattern): SearchGap[] => {
    const search = pattern.search;
    if (pattern.type !== "read" || search === undefined) return [];
    const missing = [
      ...(search.k === undefined ? (["k"] as const) : []),
      ...(search.nearest !== undefined && search.recall === undefined ? (["recall"] as const) : []),
    ];
    return missing.length === 0 ? [] : [{ pattern, missing }];
  });
}
