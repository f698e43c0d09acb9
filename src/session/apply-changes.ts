/**
 * Applies structured changes to a session: all of them, or none when any is invalid (every
 * problem is reported at once). Returns the new state and, for the turn summary, what was
 * learned in words. Pure: the caller writes the files.
 */
import type { Issue, Result } from "../common/issues.js";
import type { Change } from "./changes.js";
import {
  compact,
  type DraftAccessPattern,
  type DraftAttribute,
  type DraftEntity,
  type DraftWorkload,
} from "./draft.js";
import { describeAttribute, describeEntity, describeRate, describeRelationship } from "./describe-changes.js";
import {
  ChangeRejected,
  checkPattern,
  ensureKeyAttribute,
  findEntity,
  forgetPatterns,
  missingAttributes,
  nextPatternId,
  patternAttributes,
  renameEntity,
  replaceEntity,
  requireAttribute,
  requireEntity,
  requirePattern,
} from "./draft-edits.js";
import { estimateRate } from "./estimate-rate.js";
import {
  checkPatternReferences,
  fillImpliedFacts,
  missingWithRelationships,
  newDesignWarnings,
} from "./answer-checks.js";
import type { SessionState } from "./state.js";

export interface AppliedChanges {
  readonly state: SessionState;
  /** What the changes taught the session, one sentence each (the turn summary's first part). */
  readonly learned: readonly string[];
  /** Things worth telling the user that do not stop the changes. */
  readonly warnings: readonly Issue[];
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
  const reject = (index: number, kind: string, error: ChangeRejected): void => {
    issues.push({
      code: "session.changeRejected",
      change: kind,
      severity: "error",
      path: ["changes", index],
      message: error.message,
      ...(error.suggestion === undefined ? {} : { suggestion: error.suggestion }),
      ...(error.field === undefined ? {} : { field: error.field }),
    });
  };
  const warn = (index: number, message: string): void => {
    warnings.push({ code: "session.warning", severity: "warning", path: ["changes", index], message });
  };
  // The patterns each change added or edited: their references are checked once every change
  // is applied (a write may name, in atomicWith, a write added later in the same answer).
  const touched: { index: number; kind: string; id: string }[] = [];
  changes.forEach((change, index) => {
    try {
      const step = applyOne(current, change);
      current = step.state;
      learned.push(...step.learned);
      for (const message of step.warnings) warn(index, message);
      if (step.pattern !== undefined) touched.push({ index, kind: change.kind, id: step.pattern });
    } catch (error) {
      if (!(error instanceof ChangeRejected)) throw error;
      reject(index, change.kind, error);
    }
  });
  for (const { index, kind, id } of touched) {
    const pattern = current.workload.accessPatterns.find((p) => p.id === id);
    if (pattern === undefined) continue;
    try {
      checkPatternReferences(current.workload, pattern);
      for (const message of missingWithRelationships(current.workload, pattern)) warn(index, message);
    } catch (error) {
      if (!(error instanceof ChangeRejected)) throw error;
      reject(index, kind, error);
    }
  }
  if (issues.length > 0) return { ok: false, issues };
  const implied = fillImpliedFacts(current.workload);
  learned.push(...implied.learned);
  warnings.push(...newDesignWarnings(state.workload, implied.workload));
  return {
    ok: true,
    value: {
      state: { ...current, workload: implied.workload, turn: state.turn + 1 },
      learned: lastPerRelationship(learned),
      warnings,
    },
    issues: warnings,
  };
}

interface Step {
  readonly state: SessionState;
  readonly learned: readonly string[];
  readonly warnings: readonly string[];
  /** The access pattern the change added or edited, for the reference checks. */
  readonly pattern?: string;
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
      return {
        ...done(
          {
            workload: { ...workload, accessPatterns: [...workload.accessPatterns, pattern] },
            confirmed: { ...state.confirmed, accessPatternsComplete: false },
          },
          [`Access pattern ${patternId} (${pattern.type}): ${pattern.name}${describeRate(pattern)}.`],
          missingAttributes(entity, pattern),
        ),
        pattern: patternId,
      };
    }
    case "update-access-pattern": {
      const existing = requirePattern(workload, change.id);
      const { kind: _kind, id: _id, ...fields } = change;
      const pattern = checkPattern({ ...existing, ...compact(fields) } as DraftAccessPattern);
      const entity = requireEntity(workload, pattern.entity);
      const rateChanged = fields.rps !== undefined;
      return {
        ...done(
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
        ),
        pattern: pattern.id,
      };
    }
    case "remove-access-pattern": {
      requirePattern(workload, change.id);
      // writes that committed with it no longer name it
      const partners = workload.accessPatterns.filter((p) => p.atomicWith?.includes(change.id));
      const accessPatterns = workload.accessPatterns
        .filter((pattern) => pattern.id !== change.id)
        .map((pattern) => {
          if (!pattern.atomicWith?.includes(change.id)) return pattern;
          const { atomicWith, ...rest } = pattern;
          const others = atomicWith.filter((id) => id !== change.id);
          return others.length === 0 ? rest : { ...rest, atomicWith: others };
        });
      return done({ workload: { ...workload, accessPatterns }, ...forgetPatterns(state, [change.id]) }, [
        `Removed access pattern ${change.id}${partners.length === 0 ? "" : ` (and from the atomicWith of ${partners.map((p) => p.id).join(", ")})`}.`,
      ]);
    }
    case "set-latency-target": {
      const reads = workload.accessPatterns.filter((p) => p.type === "read");
      const ids = change.patterns ?? reads.filter((p) => p.latencyMs === undefined).map((p) => p.id);
      for (const id of ids) {
        const pattern = requirePattern(workload, id);
        if (pattern.type !== "read")
          throw new ChangeRejected(`${id} is a write; a latency target applies to reads`);
      }
      const accessPatterns = workload.accessPatterns.map((p) =>
        ids.includes(p.id) ? { ...p, latencyMs: change.latencyMs } : p,
      );
      return withWorkload({ ...workload, accessPatterns }, [
        ids.length === 0
          ? "Every read already has a latency target."
          : `Latency target ${change.latencyMs} ms (p99) for ${ids.join(", ")}.`,
      ]);
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
      const labels: Readonly<Record<string, string>> = {
        regions: "Regions",
        regionNames: "Region names",
        multiRegionWrites: "Multi-region writes",
        consistency: "Consistency",
        horizonMonths: "Planning horizon (months)",
      };
      const said = Object.entries(set).map(([field, value]) => {
        const shown = Array.isArray(value)
          ? value.join(", ")
          : typeof value === "boolean"
            ? value
              ? "yes"
              : "no"
            : String(value);
        return `${labels[field] ?? field}: ${shown}.`;
      });
      return withWorkload({ ...workload, scale }, said);
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

/** Several changes to one relationship in a turn are said once, in their final form. */
function lastPerRelationship(learned: readonly string[]): readonly string[] {
  const pair = (line: string): string | undefined =>
    /^Relationship (\S+) \S+ (\S+)/.exec(line)?.slice(1).join(" ");
  return learned.filter((line, index) => {
    const key = pair(line);
    return key === undefined || !learned.slice(index + 1).some((later) => pair(later) === key);
  });
}
