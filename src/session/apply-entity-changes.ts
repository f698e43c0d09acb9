/**
 * The changes to the session's entities, attributes and relationships, each applied to a state
 * (the caller, src/session/apply-changes.ts, collects the refusals). Pure.
 */
import {
  compact,
  nameList,
  type DraftAttribute,
  type DraftEntity,
  type DraftRelationship,
  type DraftWorkload,
} from "./draft.js";
import { describeAttribute, describeEntity, describeRelationship } from "./describe-changes.js";
import {
  ChangeRejected,
  ensureKeyAttribute,
  findEntity,
  forgetPatterns,
  patternAttributes,
  renameEntity,
  replaceEntity,
  requireAttribute,
  requireEntity,
} from "./draft-edits.js";
import type { SessionState } from "./state.js";
import { stepper, type ChangeOf, type Step } from "./apply-step.js";

export function addEntity(state: SessionState, change: ChangeOf<"add-entity">): Step {
  const workload = state.workload;
  const { withWorkload } = stepper(state);
  if (findEntity(workload, change.name) !== undefined)
    throw new ChangeRejected(`entity ${change.name} already exists; use update-entity`);
  const { kind: _kind, name, attributes, ...fields } = change;
  const listed: DraftAttribute[] = Object.entries(attributes ?? {}).map(([attributeName, spec]) =>
    typeof spec === "string"
      ? { name: attributeName, type: spec }
      : compact({ name: attributeName, ...spec, type: spec.type ?? "string" }),
  );
  let entity: DraftEntity = compact({ name, ...fields, key: nameList(fields.key), attributes: listed });
  const notes: string[] = [];
  ({ entity } = ensureKeyAttribute(entity, notes));
  return withWorkload({ ...workload, entities: [...workload.entities, entity] }, [
    `Entity ${name}${describeEntity(entity)}.`,
    ...notes,
  ]);
}

export function updateEntity(state: SessionState, change: ChangeOf<"update-entity">): Step {
  const workload = state.workload;
  const { withWorkload } = stepper(state);
  const entity = requireEntity(workload, change.name);
  const { kind: _kind, name: _name, rename, ...fields } = change;
  let updated: DraftEntity = { ...entity, ...compact({ ...fields, key: nameList(fields.key) }) };
  const notes: string[] = [];
  ({ entity: updated } = ensureKeyAttribute(updated, notes));
  let next: DraftWorkload = replaceEntity(workload, entity.name, updated);
  if (rename !== undefined && rename !== entity.name) {
    if (findEntity(workload, rename) !== undefined)
      throw new ChangeRejected(`entity ${rename} already exists`);
    next = renameEntity(next, entity.name, rename);
    notes.push(`Entity ${entity.name} renamed to ${rename} (relationships and patterns follow).`);
  }
  const described = describeEntity(compact({ ...fields, key: nameList(fields.key) }));
  return withWorkload(next, [
    ...(described === "" ? [] : [`Entity ${rename ?? entity.name}${described}.`]),
    ...notes,
  ]);
}

export function removeEntity(state: SessionState, change: ChangeOf<"remove-entity">): Step {
  const workload = state.workload;
  const { done } = stepper(state);
  requireEntity(workload, change.name);
  const patterns = workload.accessPatterns
    .filter((pattern) => pattern.entity === change.name)
    .map((pattern) => pattern.id);
  const next: DraftWorkload = {
    ...workload,
    entities: workload.entities.filter((entity) => entity.name !== change.name),
    relationships: workload.relationships.filter((r) => r.parent !== change.name && r.child !== change.name),
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

export function setAttribute(state: SessionState, change: ChangeOf<"set-attribute">): Step {
  const workload = state.workload;
  const { withWorkload } = stepper(state);
  const entity = requireEntity(workload, change.entity);
  const { kind: _kind, entity: _entity, name, ...fields } = change;
  const existing = entity.attributes.find((attribute) => attribute.name === name);
  if (existing === undefined && fields.type === undefined)
    throw new ChangeRejected(`${entity.name}.${name} is a new attribute: give its type`);
  const merged: DraftAttribute = { ...(existing ?? { name, type: "string" }), ...compact(fields) };
  // a new type that cannot hold the old vector or full-text search drops it (`type string` of an embedding)
  const { vector, fullText, ...plain } = merged;
  const attribute: DraftAttribute = {
    ...plain,
    ...(vector === undefined || (fields.vector === undefined && merged.type !== "array") ? {} : { vector }),
    ...(fullText === undefined || (fields.fullText === undefined && merged.type !== "string")
      ? {}
      : { fullText }),
  };
  if (attribute.vector !== undefined && attribute.type !== "array")
    throw new ChangeRejected(
      `${entity.name}.${name} is a vector: its type is array, not ${attribute.type} (vector(<dimensions>) in the interview)`,
    );
  if (attribute.fullText !== undefined && attribute.type !== "string")
    throw new ChangeRejected(
      `${entity.name}.${name} is searched by full text: its type is string, not ${attribute.type} (text(<language>) in the interview)`,
    );
  const attributes =
    existing === undefined
      ? [...entity.attributes, attribute]
      : entity.attributes.map((a) => (a.name === name ? attribute : a));
  return withWorkload(replaceEntity(workload, entity.name, { ...entity, attributes }), [
    `Attribute ${entity.name}.${name}: ${describeAttribute(attribute)}.`,
  ]);
}

export function removeAttribute(state: SessionState, change: ChangeOf<"remove-attribute">): Step {
  const workload = state.workload;
  const { withWorkload } = stepper(state);
  const entity = requireEntity(workload, change.entity);
  requireAttribute(entity, change.name);
  if (entity.key?.includes(change.name) === true)
    throw new ChangeRejected(
      `${change.name} is ${entity.key.length === 1 ? "the key" : "part of the key"} of ${entity.name}; change the key first`,
    );
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

export function putRelationship(
  state: SessionState,
  change: ChangeOf<"add-relationship" | "update-relationship">,
): Step {
  const workload = state.workload;
  const { withWorkload } = stepper(state);
  const parent = requireEntity(workload, change.parent);
  const child = requireEntity(workload, change.child);
  const index =
    change.kind === "update-relationship"
      ? relationshipIndex(workload, parent.name, child.name, change.of)
      : workload.relationships.findIndex(
          (r) =>
            r.parent === parent.name &&
            r.child === child.name &&
            // a second relationship between the same entities needs a via of its own
            (r.via === undefined || change.via === undefined || sameNames(r.via, nameList(change.via))),
        );
  if (change.kind === "add-relationship" && index >= 0)
    throw new ChangeRejected(`${parent.name} -> ${child.name} already exists; use update-relationship`);
  const { kind: _kind, relationshipKind, ...rest } = change;
  const { of: _of, ...fields } = rest as typeof rest & { of?: unknown };
  const relationship: DraftRelationship = {
    ...(workload.relationships[index] ?? {}),
    ...compact({ ...fields, via: nameList(fields.via), kind: relationshipKind }),
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
  const missing = (relationship.via ?? []).filter((via) => !child.attributes.some((a) => a.name === via));
  if (child.attributes.length > 0 && missing.length > 0) {
    next = replaceEntity(next, child.name, {
      ...child,
      attributes: [...child.attributes, ...missing.map((via) => ({ name: via, type: "string" as const }))],
    });
    for (const via of missing)
      notes.push(`Added attribute ${child.name}.${via} (string) that holds the ${parent.name}'s key.`);
  }
  return withWorkload(next, [`Relationship ${describeRelationship(relationship)}.`, ...notes]);
}

function sameNames(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  return a !== undefined && b !== undefined && a.length === b.length && a.every((name, i) => name === b[i]);
}

/**
 * The relationship `parent -> child` a change means: the only one, or the one whose via is `of`
 * when several relate the two entities (refused, naming their vias, when `of` does not say which).
 */
function relationshipIndex(
  workload: DraftWorkload,
  parent: string,
  child: string,
  of: string | readonly string[] | undefined,
): number {
  const candidates = workload.relationships
    .map((relationship, index) => ({ relationship, index }))
    .filter(({ relationship }) => relationship.parent === parent && relationship.child === child);
  if (candidates.length === 0)
    throw new ChangeRejected(`there is no relationship ${parent} -> ${child}; use add-relationship`);
  const vias = candidates.map(({ relationship }) => `[${(relationship.via ?? []).join(", ")}]`).join(" or ");
  if (of !== undefined) {
    const found = candidates.find(({ relationship }) => sameNames(relationship.via, nameList(of)));
    if (found === undefined)
      throw new ChangeRejected(
        `no relationship ${parent} -> ${child} has via [${(nameList(of) ?? []).join(", ")}]: ${vias}`,
      );
    return found.index;
  }
  if (candidates.length > 1)
    throw new ChangeRejected(
      `${candidates.length} relationships relate ${parent} -> ${child} (via ${vias}): say which with "of"`,
    );
  return candidates[0]?.index ?? -1;
}

export function removeRelationship(state: SessionState, change: ChangeOf<"remove-relationship">): Step {
  const workload = state.workload;
  const { withWorkload } = stepper(state);
  const index = relationshipIndex(workload, change.parent, change.child, change.of);
  const relationships = workload.relationships.filter((_, i) => i !== index);
  return withWorkload({ ...workload, relationships }, [
    `Removed relationship ${change.parent} -> ${change.child}.`,
  ]);
}
