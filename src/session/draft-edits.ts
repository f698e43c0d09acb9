/**
 * Editing the draft workload: finding and requiring entities, attributes and patterns (with
 * "did you mean" suggestions), replacing and renaming entities, and the checks a pattern must
 * pass. Used by `applyChanges`; a `ChangeRejected` becomes an issue on the change's path.
 */
import { suggestName } from "../source/suggest.js";
import {
  draftSearchSchema,
  type DraftAccessPattern,
  type DraftAttribute,
  type DraftEntity,
  type DraftWorkload,
} from "./draft.js";
import { formatNumber } from "./estimate-rate.js";
import type { SessionState } from "./state.js";

/** Thrown inside a handler to reject one change; turned into an issue with the change's path. */
export class ChangeRejected extends Error {
  constructor(
    message: string,
    readonly suggestion?: string,
    /** The field of the change that is wrong, when one is (`peak`): only its answer is asked again. */
    readonly field?: string,
  ) {
    super(message);
  }
}

/** The entity named `name`, if any. */
export function findEntity(workload: DraftWorkload, name: string): DraftEntity | undefined {
  return workload.entities.find((entity) => entity.name === name);
}

/** The entity named `name`, or a rejection with the known names and a suggestion. */
export function requireEntity(workload: DraftWorkload, name: string): DraftEntity {
  const entity = findEntity(workload, name);
  if (entity !== undefined) return entity;
  const names = workload.entities.map((e) => e.name);
  const suggestion = suggestName(name, names);
  throw new ChangeRejected(
    `there is no entity ${name} (entities: ${names.length === 0 ? "none yet" : names.join(", ")})`,
    suggestion === undefined ? undefined : `did you mean ${suggestion}?`,
  );
}

/** The attribute `name` of `entity`, or a rejection with a suggestion. */
export function requireAttribute(entity: DraftEntity, name: string): DraftAttribute {
  const attribute = entity.attributes.find((a) => a.name === name);
  if (attribute !== undefined) return attribute;
  const suggestion = suggestName(
    name,
    entity.attributes.map((a) => a.name),
  );
  throw new ChangeRejected(
    `entity ${entity.name} has no attribute ${name}`,
    suggestion === undefined ? undefined : `did you mean ${suggestion}?`,
  );
}

/** The access pattern `id`, or a rejection with the known ids and a suggestion. */
export function requirePattern(workload: DraftWorkload, id: string): DraftAccessPattern {
  const pattern = workload.accessPatterns.find((p) => p.id === id);
  if (pattern !== undefined) return pattern;
  const ids = workload.accessPatterns.map((p) => p.id);
  const suggestion = suggestName(id, ids);
  throw new ChangeRejected(
    `there is no access pattern ${id} (patterns: ${ids.length === 0 ? "none yet" : ids.join(", ")})`,
    suggestion === undefined ? undefined : `did you mean ${suggestion}?`,
  );
}

/** The workload with entity `name` replaced by `entity`. */
export function replaceEntity(workload: DraftWorkload, name: string, entity: DraftEntity): DraftWorkload {
  return { ...workload, entities: workload.entities.map((e) => (e.name === name ? entity : e)) };
}

/** Renames an entity everywhere it is referenced: relationships, patterns and their `with` entries. */
export function renameEntity(workload: DraftWorkload, from: string, to: string): DraftWorkload {
  const rename = (name: string): string => (name === from ? to : name);
  const renameWith = (entry: string): string =>
    entry.replace(new RegExp(`(^|\\()${from}(?=[.,)]|$)`), (_match, prefix: string) => `${prefix}${to}`);
  return {
    ...workload,
    entities: workload.entities.map((e) => (e.name === from ? { ...e, name: to } : e)),
    relationships: workload.relationships.map((r) => ({
      ...r,
      parent: rename(r.parent),
      child: rename(r.child),
    })),
    accessPatterns: workload.accessPatterns.map((p) => ({
      ...p,
      entity: rename(p.entity),
      ...(p.with === undefined ? {} : { with: p.with.map(renameWith) }),
    })),
  };
}

/**
 * The key attributes must be attributes when attributes are listed; each missing one is added as
 * a string otherwise (a composite key names several).
 */
export function ensureKeyAttribute(entity: DraftEntity, notes: string[]): { entity: DraftEntity } {
  const missing = (entity.key ?? []).filter((key) => !entity.attributes.some((a) => a.name === key));
  if (missing.length === 0) return { entity };
  for (const key of missing)
    notes.push(
      `Added attribute ${entity.name}.${key} (string) as ${(entity.key?.length ?? 1) > 1 ? "part of the key" : "the key"}.`,
    );
  return {
    entity: {
      ...entity,
      attributes: [...missing.map((name) => ({ name, type: "string" as const })), ...entity.attributes],
    },
  };
}

/** Rejects a pattern whose peak is below its average, or whose fields do not fit its type. */
export function checkPattern(pattern: DraftAccessPattern): DraftAccessPattern {
  const { avg, peak } = pattern.rps ?? {};
  if (avg !== undefined && peak !== undefined && peak < avg) {
    throw new ChangeRejected(
      `${pattern.id}: the peak rate (${formatNumber(peak)}/s) is below the average (${formatNumber(avg)}/s)`,
      undefined,
      "peak",
    );
  }
  if (peak === 0) {
    // The requirements checklist counts a zero peak as a missing rate: a pattern that never runs.
    throw new ChangeRejected(
      `${pattern.id}: a peak rate of 0/s means the pattern never runs; give its busiest rate (it can be small, e.g. 0.01/s) or remove it`,
      undefined,
      "peak",
    );
  }
  if (pattern.type === "write" && pattern.operation === undefined) {
    throw new ChangeRejected(
      `${pattern.id} is a write: give its operation (create, replace, upsert, patch or delete)`,
    );
  }
  if (
    pattern.type === "read" &&
    (pattern.operation !== undefined || pattern.changes !== undefined || pattern.batch !== undefined)
  ) {
    throw new ChangeRejected(`${pattern.id} is a read: operation, changes and batch apply to writes only`);
  }
  if (
    pattern.type === "write" &&
    (pattern.where !== undefined || pattern.orderBy !== undefined || pattern.select !== undefined)
  ) {
    throw new ChangeRejected(`${pattern.id} is a write: where, orderBy and select apply to reads only`);
  }
  return pattern;
}

/** Attributes a pattern names (filters, sort, selection, changes). */
export function patternAttributes(pattern: DraftAccessPattern): readonly string[] {
  return [
    ...Object.keys(pattern.where ?? {}),
    ...Object.keys(pattern.orderBy ?? {}),
    ...(pattern.select ?? []),
    ...(pattern.changes ?? []),
    ...Object.keys(pattern.truncate ?? {}),
    ...(pattern.search?.nearest === undefined ? [] : [pattern.search.nearest]),
    ...(pattern.search?.fullText === undefined ? [] : [pattern.search.fullText]),
  ];
}

/**
 * Refuses a search the workload format would refuse: on a write, with neither `nearest` nor
 * `fullText`, `nearest` naming an attribute that is not a vector, `fullText` one that is not
 * searched by full text, `recall` without `nearest`, `terms` without `fullText`, with `orderBy`
 * or `limit` (`k` is its limit), or returning more on average than its `k`. An attribute the entity does not list yet is left to be declared.
 */
export function checkSearch(entity: DraftEntity, pattern: DraftAccessPattern): DraftAccessPattern {
  const search = pattern.search;
  if (search === undefined) return pattern;
  const refuse = (message: string): never => {
    throw new ChangeRejected(`${pattern.id}: ${message}`, undefined, "search");
  };
  if (pattern.type !== "read") refuse("a search is a read; a write does not search");
  // k, recall and terms as the workload format takes them (k may still be missing in a draft)
  const settings = draftSearchSchema.safeParse(search);
  if (!settings.success)
    refuse(
      settings.error.issues.map((issue) => `search.${issue.path.join(".")}: ${issue.message}`).join("; "),
    );
  if (search.nearest === undefined && search.fullText === undefined)
    refuse("a search names nearest (a vector attribute), fullText (a full-text attribute) or both");
  const kinds = (wanted: "vector" | "fullText"): string => {
    const names = entity.attributes.filter((a) => a[wanted] !== undefined).map((a) => a.name);
    return names.length === 0
      ? `${entity.name} has no ${wanted === "vector" ? "vector" : "full-text"} attribute yet`
      : `its ${wanted === "vector" ? "vector" : "full-text"} attributes: ${names.join(", ")}`;
  };
  const nearest = entity.attributes.find((a) => a.name === search.nearest);
  if (nearest !== undefined && nearest.vector === undefined)
    refuse(
      `${entity.name}.${nearest.name} is not a vector attribute (declare it as type vector(<dimensions>), e.g. vector(1536)); ${kinds("vector")}`,
    );
  const text = entity.attributes.find((a) => a.name === search.fullText);
  if (text !== undefined && text.fullText === undefined)
    refuse(
      `${entity.name}.${text.name} is not searched by full text (declare it as type text(en-US)); ${kinds("fullText")}`,
    );
  if (search.recall !== undefined && search.nearest === undefined)
    refuse("recall applies to a vector search (nearest), not a full-text one");
  if (search.terms !== undefined && search.fullText === undefined)
    refuse("terms apply to a full-text search, not a vector one");
  if (pattern.orderBy !== undefined || pattern.limit !== undefined)
    refuse("a search returns its k results by distance or rank: no sorted by and no limit (k is its limit)");
  // the workload check's `returns.avg` at most `search.k`
  const returned = pattern.returns?.avg;
  if (search.k !== undefined && returned !== undefined && returned > search.k)
    refuse(
      `a search returns at most its k (${search.k}) results: returns ${returned} on average is more (lower it, or raise k)`,
    );
  return pattern;
}

/**
 * Warnings for attributes a pattern selects, changes or truncates that its entity does not list
 * (filters and sort keys are the design warnings' `workload.filterNeverWritten`).
 */
export function missingAttributes(entity: DraftEntity, pattern: DraftAccessPattern): string[] {
  if (entity.attributes.length === 0) return [];
  const filtered = new Set([...Object.keys(pattern.where ?? {}), ...Object.keys(pattern.orderBy ?? {})]);
  const missing = [...new Set(patternAttributes(pattern))].filter(
    (name) => !filtered.has(name) && !entity.attributes.some((a) => a.name === name),
  );
  return missing.length === 0
    ? []
    : [
        `${pattern.id} uses ${missing.map((name) => `${entity.name}.${name}`).join(", ")}, not listed as attributes yet: their types will be asked`,
      ];
}

/** Removes a pattern's pending estimate and unknown-rate mark (its rate was just given or it is gone). */
export function forgetPatterns(
  state: SessionState,
  ids: readonly string[],
): Pick<SessionState, "estimates" | "unknownRates"> {
  return {
    estimates: state.estimates.filter((e) => !ids.includes(e.pattern)),
    unknownRates: state.unknownRates.filter((id) => !ids.includes(id)),
  };
}

/** The next free id: Q<n> for reads, C<n> for writes. */
export function nextPatternId(workload: DraftWorkload, type: "read" | "write"): string {
  const prefix = type === "read" ? "Q" : "C";
  const used = new Set(workload.accessPatterns.map((p) => p.id));
  let n = workload.accessPatterns.filter((p) => p.type === type).length + 1;
  while (used.has(`${prefix}${n}`)) n++;
  return `${prefix}${n}`;
}
