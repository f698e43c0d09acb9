/**
 * The entity record one request of a write pattern writes, built from an existing dataset so that
 * verify can run writes and then check that reads reflect them. Pure and deterministic (the
 * random source decides).
 *
 * - create: a new record with a fresh key, dated after every existing record, its parents picked
 *   among existing parents that have room (`max`), preferring parents that already have children
 *   (so reads of those parents see the new child), ancestor keys copied from the parent;
 * - replace, upsert and patch: an existing record with the pattern's `changes` (default: every
 *   attribute but the key and the parent links) given values taken from other records of the
 *   entity (realistic and of the right type), unique attributes kept unique;
 * - delete: an existing record, preferring one without children (deletes do not cascade).
 */
import type { Entity, WritePattern, Workload } from "../workload/types.js";
import { isKeyAttribute } from "../workload/keys.js";
import { makeKeyTuplesUnique } from "./composite-keys.js";
import {
  entityKeyValue,
  keySources,
  linkingRelationships,
  maxChildren,
  recordAttributes,
  type Dataset,
  type EntityRecord,
} from "./generate-records.js";
import { type Rng } from "./random.js";
import { isIdLike } from "./values.js";

function entityOf(workload: Workload, name: string): Entity {
  const entity = workload.entities.find((candidate) => candidate.name === name);
  if (entity === undefined) throw new RangeError(`the workload has no entity "${name}"`);
  return entity;
}

function pick<T>(rng: Rng, values: readonly T[]): T | undefined {
  return values[Math.floor(rng() * values.length)];
}

/**
 * The record written by one request of `pattern`, or undefined when the pattern cannot apply
 * (replace, patch or delete on an entity without records).
 * @example generateWriteRecord(workload, dataset, c3, mulberry32(1)) // a new Comment on an existing post
 */
export function generateWriteRecord(
  workload: Workload,
  dataset: Dataset,
  pattern: WritePattern,
  rng: Rng,
): EntityRecord | undefined {
  const entity = entityOf(workload, pattern.entity);
  const records = dataset.entities[entity.name] ?? [];
  switch (pattern.operation) {
    case "create":
      return newRecord(workload, dataset, entity, rng);
    case "upsert":
      // Edit an existing record when the pattern names what it changes (profile edits), else create.
      return pattern.changes !== undefined && records.length > 0
        ? changedRecord(workload, dataset, entity, pattern, rng)
        : newRecord(workload, dataset, entity, rng);
    case "replace":
    case "patch":
      return records.length === 0 ? undefined : changedRecord(workload, dataset, entity, pattern, rng);
    case "delete":
      return recordToDelete(workload, dataset, entity, rng);
    default:
      return pattern.operation satisfies never;
  }
}

/**
 * A new record of the entity with a key no record has, newer than every existing record; undefined
 * when every tuple of a composite key its parents allow is taken.
 */
export function newRecord(
  workload: Workload,
  dataset: Dataset,
  entity: Entity,
  rng: Rng,
): EntityRecord | undefined {
  const records = dataset.entities[entity.name] ?? [];
  const template = pick(rng, records);
  // A fresh value of each key attribute of its own (a composite key's attributes that hold a
  // parent's key keep the template's existing parent until a parent is picked below; then the
  // tuple is made unique).
  const held = new Set(
    linkingRelationships(workload)
      .filter((link) => link.child === entity.name)
      .flatMap((link) => link.via),
  );
  const own = entity.key.length === 1 ? entity.key : entity.key.filter((name) => !held.has(name));
  const taken = own.map((name) => new Set(records.map((record) => JSON.stringify(record[name]))));
  let rank = records.length;
  const fresh = (at: number): Record<string, unknown> =>
    Object.fromEntries(own.map((name) => [name, entityKeyValue(entity, at, name)]));
  while (own.some((name, index) => taken[index]?.has(JSON.stringify(fresh(rank)[name])) === true)) rank += 1;
  const record: Record<string, unknown> = { ...template, ...fresh(rank) };
  const attributes = recordAttributes(entity);
  // Datetimes: one minute to one hour after the newest existing value.
  for (const attribute of attributes) {
    if (attribute.type !== "datetime") continue;
    const newest = records.reduce((max, other) => {
      const value = other[attribute.name];
      return typeof value === "string" && value > max ? value : max;
    }, "");
    const base = newest === "" ? Date.UTC(2026, 0, 1) : Date.parse(newest);
    record[attribute.name] = new Date(base + Math.floor(60_000 + rng() * 3_540_000)).toISOString();
  }
  for (const attribute of attributes) {
    if (attribute.unique && !isKeyAttribute(entity, attribute.name)) {
      record[attribute.name] = uniqueVariant(record[attribute.name], rank, records, attribute.name);
    }
  }
  // Parents with room, preferring those that already have children; then inherited ancestor keys.
  for (const relationship of linkingRelationships(workload).filter((link) => link.child === entity.name)) {
    const parentEntity = entityOf(workload, relationship.parent);
    const parents = dataset.entities[parentEntity.name] ?? [];
    // Parents by the tuple of their key values (the child's via holds it, position by position).
    const held = (child: EntityRecord): string =>
      JSON.stringify(relationship.via.map((via) => child[via] ?? null));
    const own = (parent: EntityRecord): string =>
      JSON.stringify(parentEntity.key.map((name) => parent[name] ?? null));
    const childCount = new Map<string, number>();
    for (const child of records) childCount.set(held(child), (childCount.get(held(child)) ?? 0) + 1);
    const room = parents.filter((parent) => (childCount.get(own(parent)) ?? 0) < maxChildren(relationship));
    const withChildren = room.filter((parent) => childCount.has(own(parent)));
    const parent = pick(rng, withChildren.length > 0 ? withChildren : room);
    if (parent === undefined) continue;
    relationship.via.forEach((via, index) => {
      record[via] = parent[parentEntity.key[index] ?? via];
    });
    for (const attribute of attributes) {
      const name = attribute.name;
      if (
        isKeyAttribute(entity, name) ||
        relationship.via.includes(name) ||
        !isIdLike(name) ||
        !(name in parent)
      )
        continue;
      if (
        linkingRelationships(workload).some((link) => link.child === entity.name && link.via.includes(name))
      )
        continue;
      record[name] = parent[name];
    }
  }
  if (entity.key.length > 1) {
    // A composite key of parents' keys may repeat an existing tuple: change it as the dataset does.
    const counts = Object.fromEntries(
      Object.entries(dataset.entities).map(([name, entityRecords]) => [name, entityRecords.length]),
    );
    const all: Record<string, unknown>[] = [...records.map((existing) => ({ ...existing })), record];
    const dropped = makeKeyTuplesUnique(
      entity,
      all,
      keySources(workload, entity, counts, dataset.entities, records),
      records.length,
    );
    if (dropped.size > 0) return undefined;
    return all[records.length] ?? record;
  }
  return record;
}

function changedRecord(
  workload: Workload,
  dataset: Dataset,
  entity: Entity,
  pattern: WritePattern,
  rng: Rng,
): EntityRecord | undefined {
  const records = dataset.entities[entity.name] ?? [];
  const target = pick(rng, records);
  if (target === undefined) return undefined;
  const links = new Set(
    linkingRelationships(workload)
      .filter((link) => link.child === entity.name)
      .flatMap((link) => link.via),
  );
  const attributes = recordAttributes(entity).filter((attribute) => !isKeyAttribute(entity, attribute.name));
  // Without a list, what the workload says may change (`changes` rare or frequent, as the model's
  // planning reads it: src/model/key-changes.ts): an attribute that never changes keeps its value.
  const changes =
    pattern.changes ??
    attributes
      .filter((attribute) => !links.has(attribute.name) && attribute.changes !== "never")
      .map((attribute) => attribute.name);
  const record: Record<string, unknown> = { ...target };
  for (const name of changes) {
    // The key names the record written: a write never changes it (src/model/key-changes.ts).
    if (isKeyAttribute(entity, name)) continue;
    const attribute = attributes.find((candidate) => candidate.name === name);
    const current = JSON.stringify(target[name]);
    const others = records.filter(
      (other) => JSON.stringify(other[name]) !== current && other[name] !== undefined,
    );
    const donor = pick(rng, others);
    if (donor !== undefined) record[name] = donor[name];
    if (attribute?.unique === true) record[name] = uniqueVariant(record[name], records.length, records, name);
  }
  return record;
}

function recordToDelete(
  workload: Workload,
  dataset: Dataset,
  entity: Entity,
  rng: Rng,
): EntityRecord | undefined {
  const records = dataset.entities[entity.name] ?? [];
  const parentOf = linkingRelationships(workload).filter((link) => link.parent === entity.name);
  const referenced = new Set<string>();
  for (const link of parentOf) {
    for (const child of dataset.entities[link.child] ?? [])
      referenced.add(JSON.stringify(link.via.map((via) => child[via] ?? null)));
  }
  const childless = records.filter(
    (record) => !referenced.has(JSON.stringify(entity.key.map((name) => record[name] ?? null))),
  );
  return pick(rng, childless.length > 0 ? childless : records);
}

/** A value derived from `value` that no record holds: `a.b12@example.com` -> `a.b12.w2001@example.com`. */
function uniqueVariant(
  value: unknown,
  rank: number,
  records: readonly EntityRecord[],
  name: string,
): unknown {
  const used = new Set(records.map((record) => JSON.stringify(record[name])));
  for (let attempt = 0; ; attempt++) {
    const tag = `w${rank + 1}${attempt === 0 ? "" : `-${attempt}`}`;
    let candidate: unknown;
    if (typeof value === "number")
      candidate = Math.max(0, ...records.map((r) => Number(r[name]) || 0)) + 1 + attempt;
    else if (typeof value === "string" && value.includes("@")) candidate = value.replace("@", `.${tag}@`);
    else candidate = `${String(value ?? name)}-${tag}`;
    if (!used.has(JSON.stringify(candidate))) return candidate;
  }
}
