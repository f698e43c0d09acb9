/**
 * Applies structured changes to a session: all of them, or none when any is invalid (every
 * problem is reported at once). Returns the new state and, for the turn summary, what was
 * learned in words. Pure: the caller writes the files.
 */
import type { Issue, Result } from "../issues.js";
import { suggestName } from "../source/suggest.js";
import type { Change } from "./changes.js";
import {
  compact,
  type DraftAccessPattern,
  type DraftAttribute,
  type DraftEntity,
  type DraftWorkload,
} from "./draft.js";
import { estimateRate, formatNumber } from "./estimate-rate.js";
import type { SessionState } from "./state.js";

export interface AppliedChanges {
  readonly state: SessionState;
  /** What the changes taught the session, one sentence each (the turn summary's first part). */
  readonly learned: readonly string[];
  /** Things worth telling the user that do not stop the changes. */
  readonly warnings: readonly Issue[];
}

/** Thrown inside a handler to reject one change; turned into an issue with the change's path. */
class ChangeRejected extends Error {
  constructor(
    message: string,
    readonly suggestion?: string,
  ) {
    super(message);
  }
}

/**
 * Applies `changes` in order to `state`.
 * @example applyChanges(createSession(), [{ kind: "add-entity", name: "User", key: "userId" }])
 */
export function applyChanges(state: SessionState, changes: readonly Change[]): Result<AppliedChanges> {
  const issues: Issue[] = [];
  const learned: string[] = [];
  const warnings: Issue[] = [];
  let current = state;
  changes.forEach((change, index) => {
    const path = `changes[${index}]`;
    try {
      const step = applyOne(current, change);
      current = step.state;
      learned.push(...step.learned);
      warnings.push(
        ...step.warnings.map((message) => ({
          code: "session.warning",
          severity: "warning" as const,
          path,
          message,
        })),
      );
    } catch (error) {
      if (!(error instanceof ChangeRejected)) throw error;
      issues.push({
        code: `session.${change.kind}`,
        severity: "error",
        path,
        message: error.message,
        ...(error.suggestion === undefined ? {} : { suggestion: error.suggestion }),
      });
    }
  });
  if (issues.length > 0) return { ok: false, issues };
  return {
    ok: true,
    value: { state: { ...current, turn: state.turn + 1 }, learned, warnings },
    issues: warnings,
  };
}

interface Step {
  readonly state: SessionState;
  readonly learned: readonly string[];
  readonly warnings: readonly string[];
}

function applyOne(state: SessionState, change: Change): Step {
  const workload = state.workload;
  const done = (next: Partial<SessionState>, learned: string[], warnings: string[] = []): Step => ({
    state: { ...state, ...next },
    learned,
    warnings,
  });
  const withWorkload = (next: DraftWorkload, learned: string[], warnings: string[] = []): Step =>
    done({ workload: next }, learned, warnings);
  switch (change.kind) {
    case "set-application": {
      const { kind: _kind, ...fields } = change;
      const set = compact(fields);
      const said = Object.entries(set).map(([field, value]) => `${field}: ${String(value)}`);
      return withWorkload(
        { ...workload, ...set },
        said.length === 0 ? [] : [`Application ${said.join("; ")}.`],
      );
    }
    case "add-note":
      return done({ notes: [...state.notes, change.text] }, [`Business context: ${change.text}`]);
    case "add-entity": {
      if (findEntity(workload, change.name) !== undefined)
        throw new ChangeRejected(`entity ${change.name} already exists; use update-entity`);
      const { kind: _kind, name, attributes, ...fields } = change;
      const listed: DraftAttribute[] = Object.entries(attributes ?? {}).map(([attributeName, spec]) =>
        typeof spec === "string"
          ? { name: attributeName, type: spec }
          : compact({ name: attributeName, ...spec, type: spec.type ?? "string" }),
      );
      let entity: DraftEntity = compact({ name, ...fields, attributes: listed });
      const notes: string[] = [];
      ({ entity } = ensureKeyAttribute(entity, notes));
      return withWorkload({ ...workload, entities: [...workload.entities, entity] }, [
        `Entity ${name}${describeEntity(entity)}.`,
        ...notes,
      ]);
    }
    case "update-entity": {
      const entity = requireEntity(workload, change.name);
      const { kind: _kind, name: _name, rename, ...fields } = change;
      let updated: DraftEntity = { ...entity, ...compact(fields) };
      const notes: string[] = [];
      ({ entity: updated } = ensureKeyAttribute(updated, notes));
      let next: DraftWorkload = replaceEntity(workload, entity.name, updated);
      if (rename !== undefined && rename !== entity.name) {
        if (findEntity(workload, rename) !== undefined)
          throw new ChangeRejected(`entity ${rename} already exists`);
        next = renameEntity(next, entity.name, rename);
        notes.push(`Entity ${entity.name} renamed to ${rename} (relationships and patterns follow).`);
      }
      const described = describeEntity(compact(fields));
      return withWorkload(next, [
        ...(described === "" ? [] : [`Entity ${rename ?? entity.name}${described}.`]),
        ...notes,
      ]);
    }
    case "remove-entity": {
      requireEntity(workload, change.name);
      const patterns = workload.accessPatterns
        .filter((pattern) => pattern.entity === change.name)
        .map((pattern) => pattern.id);
      const next: DraftWorkload = {
        ...workload,
        entities: workload.entities.filter((entity) => entity.name !== change.name),
        relationships: workload.relationships.filter(
          (r) => r.parent !== change.name && r.child !== change.name,
        ),
        accessPatterns: workload.accessPatterns.filter((pattern) => pattern.entity !== change.name),
      };
      const removedPatterns = patterns.length === 0 ? "" : ` and its access patterns ${patterns.join(", ")}`;
      return done(
        {
          workload: next,
          ...forgetPatterns(state, patterns),
          confirmed: { ...state.confirmed, accessPatternsComplete: false },
        },
        [`Removed entity ${change.name}${removedPatterns}.`],
      );
    }
    case "set-attribute": {
      const entity = requireEntity(workload, change.entity);
      const { kind: _kind, entity: _entity, name, ...fields } = change;
      const existing = entity.attributes.find((attribute) => attribute.name === name);
      if (existing === undefined && fields.type === undefined)
        throw new ChangeRejected(`${entity.name}.${name} is a new attribute: give its type`);
      const attribute: DraftAttribute = { ...(existing ?? { name, type: "string" }), ...compact(fields) };
      const attributes =
        existing === undefined
          ? [...entity.attributes, attribute]
          : entity.attributes.map((a) => (a.name === name ? attribute : a));
      return withWorkload(replaceEntity(workload, entity.name, { ...entity, attributes }), [
        `Attribute ${entity.name}.${name}: ${describeAttribute(attribute)}.`,
      ]);
    }
    case "remove-attribute": {
      const entity = requireEntity(workload, change.entity);
      requireAttribute(entity, change.name);
      if (entity.key === change.name)
        throw new ChangeRejected(`${change.name} is the key of ${entity.name}; change the key first`);
      const users = workload.accessPatterns.filter(
        (pattern) => pattern.entity === entity.name && patternAttributes(pattern).includes(change.name),
      );
      const attributes = entity.attributes.filter((a) => a.name !== change.name);
      return withWorkload(
        replaceEntity(workload, entity.name, { ...entity, attributes }),
        [`Removed attribute ${entity.name}.${change.name}.`],
        users.length === 0
          ? []
          : [`access patterns ${users.map((p) => p.id).join(", ")} still use ${entity.name}.${change.name}`],
      );
    }
    case "add-relationship":
    case "update-relationship": {
      const parent = requireEntity(workload, change.parent);
      const child = requireEntity(workload, change.child);
      const index = workload.relationships.findIndex(
        (r) => r.parent === parent.name && r.child === child.name,
      );
      if (change.kind === "add-relationship" && index >= 0)
        throw new ChangeRejected(`${parent.name} -> ${child.name} already exists; use update-relationship`);
      if (change.kind === "update-relationship" && index < 0)
        throw new ChangeRejected(
          `there is no relationship ${parent.name} -> ${child.name}; use add-relationship`,
        );
      const { kind: _kind, relationshipKind, ...fields } = change;
      const relationship = {
        ...(workload.relationships[index] ?? {}),
        ...compact({ ...fields, kind: relationshipKind }),
      };
      if (
        typeof relationship.max === "number" &&
        relationship.avg !== undefined &&
        relationship.max < relationship.avg
      ) {
        throw new ChangeRejected(
          `max (${relationship.max}) is below avg (${relationship.avg}) children per ${parent.name}`,
        );
      }
      const relationships =
        index < 0
          ? [...workload.relationships, relationship]
          : workload.relationships.map((r, i) => (i === index ? relationship : r));
      let next: DraftWorkload = { ...workload, relationships };
      const notes: string[] = [];
      if (
        relationship.via !== undefined &&
        child.attributes.length > 0 &&
        !child.attributes.some((a) => a.name === relationship.via)
      ) {
        next = replaceEntity(next, child.name, {
          ...child,
          attributes: [...child.attributes, { name: relationship.via, type: "string" }],
        });
        notes.push(
          `Added attribute ${child.name}.${relationship.via} (string) that holds the ${parent.name}'s key.`,
        );
      }
      return withWorkload(next, [`Relationship ${describeRelationship(relationship)}.`, ...notes]);
    }
    case "remove-relationship": {
      const before = workload.relationships.length;
      const relationships = workload.relationships.filter(
        (r) => !(r.parent === change.parent && r.child === change.child),
      );
      if (relationships.length === before)
        throw new ChangeRejected(`there is no relationship ${change.parent} -> ${change.child}`);
      return withWorkload({ ...workload, relationships }, [
        `Removed relationship ${change.parent} -> ${change.child}.`,
      ]);
    }
    case "add-access-pattern": {
      const entity = requireEntity(workload, change.entity);
      const { kind: _kind, id, ...fields } = change;
      const patternId = id ?? nextPatternId(workload, change.type);
      if (workload.accessPatterns.some((pattern) => pattern.id === patternId))
        throw new ChangeRejected(`access pattern ${patternId} already exists`);
      const pattern = checkPattern(compact({ id: patternId, ...fields }) as DraftAccessPattern);
      return done(
        {
          workload: { ...workload, accessPatterns: [...workload.accessPatterns, pattern] },
          confirmed: { ...state.confirmed, accessPatternsComplete: false },
        },
        [`Access pattern ${patternId} (${pattern.type}): ${pattern.name}${describeRate(pattern)}.`],
        missingAttributes(entity, pattern),
      );
    }
    case "update-access-pattern": {
      const existing = requirePattern(workload, change.id);
      const { kind: _kind, id: _id, ...fields } = change;
      const pattern = checkPattern({ ...existing, ...compact(fields) } as DraftAccessPattern);
      const entity = requireEntity(workload, pattern.entity);
      const rateChanged = fields.rps !== undefined;
      return done(
        {
          workload: {
            ...workload,
            accessPatterns: workload.accessPatterns.map((p) => (p.id === pattern.id ? pattern : p)),
          },
          ...(rateChanged ? forgetPatterns(state, [pattern.id]) : {}),
        },
        [
          `Access pattern ${pattern.id} updated: ${Object.keys(compact(fields)).join(", ")}${rateChanged ? describeRate(pattern) : ""}.`,
        ],
        missingAttributes(entity, pattern),
      );
    }
    case "remove-access-pattern": {
      requirePattern(workload, change.id);
      return done(
        {
          workload: {
            ...workload,
            accessPatterns: workload.accessPatterns.filter((pattern) => pattern.id !== change.id),
          },
          ...forgetPatterns(state, [change.id]),
        },
        [`Removed access pattern ${change.id}.`],
      );
    }
    case "set-rate": {
      const existing = requirePattern(workload, change.pattern);
      const rps = compact({ ...existing.rps, ...compact({ avg: change.avg, peak: change.peak }) });
      const pattern = checkPattern({ ...existing, rps });
      return done(
        {
          workload: {
            ...workload,
            accessPatterns: workload.accessPatterns.map((p) => (p.id === pattern.id ? pattern : p)),
          },
          ...forgetPatterns(state, [pattern.id]),
        },
        [`${pattern.id} (${pattern.name})${describeRate(pattern)}.`],
      );
    }
    case "mark-rate-unknown": {
      const pattern = requirePattern(workload, change.pattern);
      return done({ unknownRates: [...state.unknownRates.filter((id) => id !== pattern.id), pattern.id] }, [
        `The rate of ${pattern.id} is not known yet: it will be estimated from business figures, with the arithmetic shown.`,
      ]);
    }
    case "estimate-rate": {
      const pattern = requirePattern(workload, change.pattern);
      const estimate = estimateRate(pattern.id, change);
      return done(
        {
          estimates: [...state.estimates.filter((e) => e.pattern !== pattern.id), estimate],
          unknownRates: state.unknownRates.filter((id) => id !== pattern.id),
        },
        [
          `Estimated rate of ${pattern.id} (not applied until you accept it): ${estimate.arithmetic.join("; ")}.`,
        ],
      );
    }
    case "accept-estimate": {
      const estimate = state.estimates.find((e) => e.pattern === change.pattern);
      if (estimate === undefined)
        throw new ChangeRejected(`there is no estimate for ${change.pattern} to accept`);
      const existing = requirePattern(workload, change.pattern);
      const pattern = { ...existing, rps: { avg: estimate.avg, peak: estimate.peak } };
      return done(
        {
          workload: {
            ...workload,
            accessPatterns: workload.accessPatterns.map((p) => (p.id === pattern.id ? pattern : p)),
          },
          ...forgetPatterns(state, [pattern.id]),
        },
        [`Accepted the estimate for ${pattern.id}${describeRate(pattern)}.`],
      );
    }
    case "reject-estimate": {
      if (!state.estimates.some((e) => e.pattern === change.pattern))
        throw new ChangeRejected(`there is no estimate for ${change.pattern}`);
      return done(forgetPatterns(state, [change.pattern]), [
        `Dropped the estimate for ${change.pattern}; its rate will be asked again.`,
      ]);
    }
    case "set-scale": {
      const { kind: _kind, ...fields } = change;
      const set = compact(fields);
      const regions = set.regionNames !== undefined ? { regions: set.regionNames.length } : {};
      if (
        set.regionNames !== undefined &&
        set.regions !== undefined &&
        set.regions !== set.regionNames.length
      ) {
        throw new ChangeRejected(
          `regions is ${set.regions} but ${set.regionNames.length} region names are listed`,
        );
      }
      const scale = { ...workload.scale, ...set, ...regions };
      const said = Object.entries(set).map(
        ([field, value]) => `${field}: ${Array.isArray(value) ? value.join(", ") : String(value)}`,
      );
      return withWorkload({ ...workload, scale }, [`Scale ${said.join("; ")}.`]);
    }
    case "answer-massive-scale": {
      const { kind: _kind, ...answers } = change;
      const set = compact(answers);
      const labels = {
        binning: "Binning",
        writeReduction: "Write reduction",
        dataSizeFanOut: "Data size and fan-out",
      } as const;
      return done(
        { massiveScale: { ...state.massiveScale, ...set } },
        Object.entries(set).map(([field, value]) => `${labels[field as keyof typeof labels]}: ${value}`),
      );
    }
    case "decline-question":
      return done({ declined: [...new Set([...state.declined, change.question])] }, [
        `Skipped question ${change.question}.`,
      ]);
    case "confirm": {
      const sentence =
        change.subject === "access-patterns-complete"
          ? change.value
            ? "You confirmed that every read and write access pattern is captured."
            : "There are more access patterns to capture."
          : change.value
            ? "You confirmed consistency, regions and multi-region writes."
            : "Consistency, regions and multi-region writes are still open.";
      const key = change.subject === "access-patterns-complete" ? "accessPatternsComplete" : "distribution";
      return done({ confirmed: { ...state.confirmed, [key]: change.value } }, [sentence]);
    }
    default:
      change satisfies never;
      throw new ChangeRejected("unknown change");
  }
}

function findEntity(workload: DraftWorkload, name: string): DraftEntity | undefined {
  return workload.entities.find((entity) => entity.name === name);
}

function requireEntity(workload: DraftWorkload, name: string): DraftEntity {
  const entity = findEntity(workload, name);
  if (entity !== undefined) return entity;
  const names = workload.entities.map((e) => e.name);
  const suggestion = suggestName(name, names);
  throw new ChangeRejected(
    `there is no entity ${name} (entities: ${names.length === 0 ? "none yet" : names.join(", ")})`,
    suggestion === undefined ? undefined : `did you mean ${suggestion}?`,
  );
}

function requireAttribute(entity: DraftEntity, name: string): DraftAttribute {
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

function requirePattern(workload: DraftWorkload, id: string): DraftAccessPattern {
  const pattern = workload.accessPatterns.find((p) => p.id === id);
  if (pattern !== undefined) return pattern;
  const ids = workload.accessPatterns.map((p) => p.id);
  const suggestion = suggestName(id, ids);
  throw new ChangeRejected(
    `there is no access pattern ${id} (patterns: ${ids.length === 0 ? "none yet" : ids.join(", ")})`,
    suggestion === undefined ? undefined : `did you mean ${suggestion}?`,
  );
}

function replaceEntity(workload: DraftWorkload, name: string, entity: DraftEntity): DraftWorkload {
  return { ...workload, entities: workload.entities.map((e) => (e.name === name ? entity : e)) };
}

/** Renames an entity everywhere it is referenced: relationships, patterns and their `with` entries. */
function renameEntity(workload: DraftWorkload, from: string, to: string): DraftWorkload {
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

/** The key must be an attribute when attributes are listed; it is added as a string otherwise. */
function ensureKeyAttribute(entity: DraftEntity, notes: string[]): { entity: DraftEntity } {
  if (entity.key === undefined || entity.attributes.some((a) => a.name === entity.key)) return { entity };
  notes.push(`Added attribute ${entity.name}.${entity.key} (string) as the key.`);
  return { entity: { ...entity, attributes: [{ name: entity.key, type: "string" }, ...entity.attributes] } };
}

function checkPattern(pattern: DraftAccessPattern): DraftAccessPattern {
  const { avg, peak } = pattern.rps ?? {};
  if (avg !== undefined && peak !== undefined && peak < avg) {
    throw new ChangeRejected(
      `${pattern.id}: the peak rate (${formatNumber(peak)}/s) is below the average (${formatNumber(avg)}/s)`,
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
  ];
}

function missingAttributes(entity: DraftEntity, pattern: DraftAccessPattern): string[] {
  if (entity.attributes.length === 0) return [];
  const missing = [...new Set(patternAttributes(pattern))].filter(
    (name) => !entity.attributes.some((a) => a.name === name),
  );
  return missing.length === 0
    ? []
    : [
        `${pattern.id} uses ${missing.map((name) => `${entity.name}.${name}`).join(", ")}, not listed as attributes yet: their types will be asked`,
      ];
}

/** Removes a pattern's pending estimate and unknown-rate mark (its rate was just given or it is gone). */
function forgetPatterns(
  state: SessionState,
  ids: readonly string[],
): Pick<SessionState, "estimates" | "unknownRates"> {
  return {
    estimates: state.estimates.filter((e) => !ids.includes(e.pattern)),
    unknownRates: state.unknownRates.filter((id) => !ids.includes(id)),
  };
}

function nextPatternId(workload: DraftWorkload, type: "read" | "write"): string {
  const prefix = type === "read" ? "Q" : "C";
  const used = new Set(workload.accessPatterns.map((p) => p.id));
  let n = workload.accessPatterns.filter((p) => p.type === type).length + 1;
  while (used.has(`${prefix}${n}`)) n++;
  return `${prefix}${n}`;
}

function describeEntity(entity: Partial<DraftEntity>): string {
  const parts = [
    entity.key === undefined ? undefined : `key ${entity.key}`,
    entity.count === undefined ? undefined : `${formatNumber(entity.count)} items`,
    entity.growthPerMonth === undefined ? undefined : `+${formatNumber(entity.growthPerMonth)} per month`,
    entity.avgBytes === undefined ? undefined : `${formatNumber(entity.avgBytes)} bytes on average`,
    entity.maxBytes === undefined ? undefined : `at most ${formatNumber(entity.maxBytes)} bytes`,
    entity.ttlSeconds === undefined
      ? undefined
      : `expires ${formatNumber(entity.ttlSeconds)} s after its last write`,
  ].filter((part) => part !== undefined);
  return parts.length === 0 ? "" : `: ${parts.join(", ")}`;
}

function describeAttribute(attribute: DraftAttribute): string {
  const parts = [
    attribute.type,
    attribute.distinct === undefined ? undefined : `${formatNumber(attribute.distinct)} distinct values`,
    attribute.unique === true ? "unique" : undefined,
    attribute.changes === undefined ? undefined : `changes ${attribute.changes}`,
    attribute.avgBytes === undefined ? undefined : `${formatNumber(attribute.avgBytes)} bytes`,
  ].filter((part) => part !== undefined);
  return parts.join(", ");
}

/** "User 1:N Post via userId (avg 27.5, max 50, owned)". */
export function describeRelationship(relationship: {
  parent: string;
  child: string;
  kind?: string;
  via?: string;
  avg?: number;
  max?: number | null;
  owned?: boolean;
}): string {
  const arrow =
    relationship.kind === "many-to-many" ? "M:N" : relationship.kind === "one-to-one" ? "1:1" : "1:N";
  const bounds = [
    relationship.avg === undefined ? undefined : `avg ${formatNumber(relationship.avg)}`,
    relationship.max === undefined
      ? undefined
      : relationship.max === null
        ? "unbounded"
        : `max ${formatNumber(relationship.max)}`,
    relationship.owned === undefined ? undefined : relationship.owned ? "owned" : "independent",
  ].filter((part) => part !== undefined);
  return `${relationship.parent} ${arrow} ${relationship.child}${relationship.via === undefined ? "" : ` via ${relationship.via}`}${bounds.length === 0 ? "" : ` (${bounds.join(", ")})`}`;
}

function describeRate(pattern: DraftAccessPattern): string {
  const { avg, peak } = pattern.rps ?? {};
  if (avg === undefined && peak === undefined) return "";
  const part = (value: number | undefined): string =>
    value === undefined ? "unknown" : `${formatNumber(value)}/s`;
  return `, rate avg ${part(avg)}, peak ${part(peak)}`;
}
