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
import {
  entityKeyValue,
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

/** A new record of the entity with a key no record has, newer than every existing record. */
export function newRecord(workload: Workload, dataset: Dataset, entity: Entity, rng: Rng): EntityRecord {
  const records = dataset.entities[entity.name] ?? [];
  const template = pick(rng, records);
  const taken = new Set(records.map((record) => JSON.stringify(record[entity.key])));
  let rank = records.length;
  while (taken.has(JSON.stringify(entityKeyValue(entity, rank)))) rank += 1;
  const record: Record<string, unknown> = { ...template, [entity.key]: entityKeyValue(entity, rank) };
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
    if (attribute.unique && attribute.name !== entity.key) {
      record[attribute.name] = uniqueVariant(record[attribute.name], rank, records, attribute.name);
    }
  }
  // Parents with room, preferring those that already have children; then inherited ancestor keys.
  for (const relationship of linkingRelationships(workload).filter((link) => link.child === entity.name)) {
    const parentEntity = entityOf(workload, relationship.parent);
    const parents = dataset.entities[parentEntity.name] ?? [];
    const childCount = new Map<string, number>();
    for (const child of records) {
      const key = JSON.stringify(child[relationship.via]);
      childCount.set(key, (childCount.get(key) ?? 0) + 1);
    }
    const room = parents.filter(
      (parent) => (childCount.get(JSON.stringify(parent[parentEntity.key])) ?? 0) < maxChildren(relationship),
    );
    const withChildren = room.filter((parent) => childCount.has(JSON.stringify(parent[parentEntity.key])));
    const parent = pick(rng, withChildren.length > 0 ? withChildren : room);
    if (parent === undefined) continue;
    record[relationship.via] = parent[parentEntity.key];
    for (const attribute of attributes) {
      const name = attribute.name;
      if (name === entity.key || name === relationship.via || !isIdLike(name) || !(name in parent)) continue;
      if (linkingRelationships(workload).some((link) => link.child === entity.name && link.via === name))
        continue;
      record[name] = parent[name];
    }
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
      .map((link) => link.via),
  );
  const attributes = recordAttributes(entity).filter((attribute) => attribute.name !== entity.key);
  // Without a list, what the workload says may change (`changes` rare or frequent, as the model's
  // planning reads it: src/model/key-changes.ts): an attribute that never changes keeps its value.
  const changes =
    pattern.changes ??
    attributes
      .filter((attribute) => !links.has(attribute.name) && attribute.changes !== "never")
      .map((attribute) => attribute.name);
  const record: Record<string, unknown> = { ...target };
  for (const name of changes) {
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
    for (const child of dataset.entities[link.child] ?? []) referenced.add(JSON.stringify(child[link.via]));
  }
  const childless = records.filter((record) => !referenced.has(JSON.stringify(record[entity.key])));
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
