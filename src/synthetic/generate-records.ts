/**
 * Deterministic synthetic data shaped like a workload: per entity an array of plain records with
 * every listed attribute, children assigned to parents along the relationships. Used by `verify`
 * (to load containers and to compute the expected answers) and by the documents' sample items.
 *
 * How the data is shaped:
 * - Counts: `min(maxItemsPerEntity, count x scale)` per entity (scale default 1, cap default
 *   2,000, at least 1), and never more children than their parents can hold (`max` per parent).
 * - Children per parent: the children of a relationship go to the first ceil(children / avg)
 *   parents (the "active" parents), so a parent that has children has about `avg` of them, never
 *   more than `max`; with a `skew` on the `via` attribute the shares follow Zipf's law. Ratios
 *   between entities above the cap are not kept: keeping them would leave one user for the 1,375
 *   likes of the blogging example.
 * - A child copies the identifier-like attributes (`tenantId`, `siteId`, `...Id`) it shares with
 *   its parent, so denormalized ancestor keys agree (a session's tenantId is its user's tenantId).
 * - Other attributes named like another entity's key point to an existing item of that entity.
 * - String attributes without an `avgBytes` that hold free text (content, body, description...)
 *   grow so that the average record comes near the entity's `avgBytes`.
 * - Values come from `values.ts`; every value depends only on the seed, the entity, the attribute
 *   and the record's rank (see `random.ts`).
 */
import type { Attribute, Entity, Relationship, Workload } from "../workload/types.js";
import { isKeyAttribute, soleKey } from "../workload/keys.js";
import { keyTupleCapacity, makeKeyTuplesUnique, type KeySources } from "./composite-keys.js";
import { drawManyToManyLinks, type ManyToManyLinks } from "./many-to-many-links.js";
import { createRng, distributeCounts, hashSeed, mulberry32, zipfSampler, type Rng } from "./random.js";
import { KNOWN_VALUES } from "./vocabulary.js";
import { formatId, idStem, isIdLike, isTextLike, valueGenerator, type ValueGenerator } from "./values.js";

/** One record of an entity: attribute name -> value (JSON data). */
export type EntityRecord = Readonly<Record<string, unknown>>;

/** Synthetic data: per entity name, its records in rank order. */
export interface Dataset {
  readonly seed: number;
  readonly entities: Readonly<Record<string, readonly EntityRecord[]>>;
  /**
   * The rows of each many-to-many relationship's join table (`many-to-many-links.ts`), drawn
   * once with the records: writes add or remove records, never links.
   */
  readonly links?: readonly ManyToManyLinks[];
}

export interface GenerateOptions {
  /** Multiplies every entity count before the cap. Default 1. */
  readonly scale?: number;
  /** At most this many records per entity. Default 2,000. */
  readonly maxItemsPerEntity?: number;
  readonly seed: number;
}

/** Default cap: a few thousand items per container keep the embedded endpoint fast (embedded-endpoint.md). */
export const DEFAULT_MAX_ITEMS_PER_ENTITY = 2000;

/**
 * Bytes of records generated per entity at most (64 MiB): large records get fewer of them, so a
 * dataset stays bounded in memory whatever the sizes (2,000 records of 1.9 MB would be 3.8 GB).
 */
export const MAX_DATASET_BYTES_PER_ENTITY = 64 * 1024 * 1024;

/** The bytes one record of `entity` is generated with: its size, or its attributes' if larger. */
function recordBytes(entity: Entity): number {
  const attributes = entity.attributes.reduce((sum, attribute) => sum + (attribute.avgBytes ?? 0), 0);
  return Math.max(1, entity.avgBytes, attributes);
}

/** Strings with a format of their own (names, emails, titles...), never stretched. */
const FORMATTED_STRING =
  /name|email|url|phone|hash|token|version|^ip|title|subject|headline|agent|postal|zip|city|country|street|line\d|address/i;

/** Datetimes run over the year 2025: record i of n is dated about i/n through it. */
const TIMELINE_START = Date.UTC(2025, 0, 1);
const TIMELINE_SPAN = 365 * 86_400_000;

/** The relationships that assign a parent to each child (those with a `via`). */
export function linkingRelationships(
  workload: Workload,
): readonly (Relationship & { readonly via: readonly string[] })[] {
  return workload.relationships.filter(
    (relationship): relationship is Relationship & { readonly via: readonly string[] } =>
      relationship.via !== undefined,
  );
}

/** Largest number of children one parent may have in a relationship. */
export function maxChildren(relationship: Relationship): number {
  return relationship.max ?? (relationship.kind === "one-to-one" ? 1 : Infinity);
}

/** Records per entity in the generated dataset (see the file comment). */
export function datasetCounts(
  workload: Workload,
  options: GenerateOptions,
): Readonly<Record<string, number>> {
  const cap = options.maxItemsPerEntity ?? DEFAULT_MAX_ITEMS_PER_ENTITY;
  const scale = options.scale ?? 1;
  const counts: Record<string, number> = {};
  for (const entity of workload.entities) {
    const bounded = Math.floor(MAX_DATASET_BYTES_PER_ENTITY / recordBytes(entity));
    counts[entity.name] = Math.max(1, Math.min(cap, bounded, Math.round(entity.count * scale)));
  }
  for (const entity of entitiesParentsFirst(workload)) {
    for (const relationship of linkingRelationships(workload)) {
      if (relationship.child !== entity.name || relationship.parent === entity.name) continue;
      const capacity = (counts[relationship.parent] ?? 1) * maxChildren(relationship);
      counts[entity.name] = Math.min(counts[entity.name] ?? 1, capacity);
    }
    // A composite key of parents' keys and references has at most as many distinct tuples.
    const tuples = keyTupleCapacity(workload, entity, counts, (attribute) =>
      referencedEntity(workload, entity, attribute),
    );
    counts[entity.name] = Math.max(1, Math.min(counts[entity.name] ?? 1, tuples));
  }
  return counts;
}

/** Entities ordered so that parents come before their children (cycles keep the file order). */
export function entitiesParentsFirst(workload: Workload): readonly Entity[] {
  const ordered: Entity[] = [];
  const visiting = new Set<string>();
  const visit = (entity: Entity): void => {
    if (ordered.includes(entity) || visiting.has(entity.name)) return;
    visiting.add(entity.name);
    for (const relationship of linkingRelationships(workload)) {
      if (relationship.child !== entity.name) continue;
      const parent = workload.entities.find((candidate) => candidate.name === relationship.parent);
      if (parent !== undefined) visit(parent);
    }
    ordered.push(entity);
  };
  workload.entities.forEach(visit);
  return ordered;
}

/**
 * The value of a key attribute of the entity's record of rank `index` (0-based), as generated
 * before any parent or reference sets it: `post-000001` or 1. For a single key, the record's
 * key; `attribute` names one attribute of a composite key (default: the first).
 */
export function entityKeyValue(
  entity: Entity,
  index: number,
  attribute = entity.key[0] ?? "id",
): string | number {
  const key = entity.attributes.find((candidate) => candidate.name === attribute);
  return key?.type === "number" ? index + 1 : formatId(idStem(attribute, entity.name), index + 1);
}

/** The attributes of a record: the listed ones, with the key first when the list omits it. */
export function recordAttributes(entity: Entity): readonly Attribute[] {
  const missing = entity.key.filter(
    (name) => !entity.attributes.some((attribute) => attribute.name === name),
  );
  if (missing.length === 0) return entity.attributes;
  const keys = missing.map((name): Attribute => ({
    name,
    type: "string",
    skew: 0,
    unique: entity.key.length === 1,
    changes: "never",
    presence: 1,
  }));
  return [...keys, ...entity.attributes];
}

/**
 * For each child of a relationship, the rank of its parent: children split over the first
 * ceil(children / avg) parents, at most `max` each, Zipf-weighted by the `via` attribute's skew.
 * With `groups` (the parent ranks of the child's first relationship), this is a second parent:
 * the children of one first parent get distinct second parents whenever the counts allow (one
 * like per user and post, one review per customer and product), using as many second parents
 * as the largest group needs; otherwise children stay in rank order (children of one parent are
 * neighbours).
 */
export function assignParents(
  relationship: Relationship,
  childCount: number,
  parentCount: number,
  skew: number,
  rng: Rng,
  groups?: readonly number[],
): readonly number[] {
  const max = maxChildren(relationship);
  const byAverage = relationship.avg > 0 ? Math.ceil(childCount / relationship.avg) : parentCount;
  const byMax = Number.isFinite(max) ? Math.ceil(childCount / max) : 1;
  const largestGroup = groups === undefined ? 1 : Math.max(1, ...groupSizes(groups).values());
  const active = Math.min(parentCount, Math.max(1, byAverage, byMax, largestGroup));
  const weights =
    skew > 0
      ? Array.from({ length: active }, (_, rank) => 1 / Math.pow(rank + 1, skew))
      : Array.from({ length: active }, () => 0.5 + rng());
  const perParent = distributeCounts(Math.min(childCount, active * max), weights, max);
  if (groups === undefined) {
    const parents: number[] = [];
    perParent.forEach((count, parent) => {
      for (let child = 0; child < count; child++) parents.push(parent);
    });
    return parents;
  }
  return spreadOverGroups(groups, perParent, rng);
}

function groupSizes(groups: readonly number[]): Map<number, number> {
  const sizes = new Map<number, number>();
  for (const group of groups) sizes.set(group, (sizes.get(group) ?? 0) + 1);
  return sizes;
}

/**
 * Gives each child a parent so that every parent gets its count and, as far as possible, no two
 * children of the same group share a parent: the largest groups first, each taking the parents
 * with the most children left (greedy, which succeeds whenever a distinct assignment exists).
 */
function spreadOverGroups(groups: readonly number[], perParent: readonly number[], rng: Rng): number[] {
  const remaining = [...perParent];
  const members = new Map<number, number[]>();
  groups.forEach((group, child) => {
    const list = members.get(group);
    if (list === undefined) members.set(group, [child]);
    else list.push(child);
  });
  const result = groups.map(() => 0);
  const ordered = [...members.values()].sort((a, b) => b.length - a.length);
  // Random tie-breaks, fixed once, so equal counts do not always favour the first parents.
  const tieBreak = perParent.map(() => rng());
  for (const children of ordered) {
    const candidates = remaining
      .map((count, parent) => ({ parent, count }))
      .filter((entry) => entry.count > 0)
      .sort((a, b) => b.count - a.count || (tieBreak[a.parent] ?? 0) - (tieBreak[b.parent] ?? 0));
    const used = new Set<number>();
    for (const child of children) {
      // A parent not used in this group yet; failing that (more children than parents with room),
      // any parent with children left, so every parent ends with exactly its count.
      const entry =
        candidates.find(
          (candidate) => !used.has(candidate.parent) && (remaining[candidate.parent] ?? 0) > 0,
        ) ?? candidates.find((candidate) => (remaining[candidate.parent] ?? 0) > 0);
      const parent = entry?.parent ?? 0;
      used.add(parent);
      result[child] = parent;
      remaining[parent] = (remaining[parent] ?? 0) - 1;
    }
  }
  return result;
}

interface ColumnPlan {
  readonly attribute: Attribute;
  readonly generate: ValueGenerator;
}

/**
 * Generates the dataset. Same workload, options and seed -> the same data.
 * @example generateDataset(workload, { seed: 42 }).entities["Post"]?.[0] // { postId: "post-000001", ... }
 */
export function generateDataset(workload: Workload, options: GenerateOptions): Dataset {
  // Counts as generated: a composite key may leave out records no unique tuple was found for.
  const counts: Record<string, number> = { ...datasetCounts(workload, options) };
  const entities: Record<string, readonly EntityRecord[]> = {};
  for (const entity of entitiesParentsFirst(workload)) {
    const records = generateEntityRecords(workload, entity, counts, entities, options.seed);
    entities[entity.name] = records;
    counts[entity.name] = records.length;
  }
  const links = drawManyToManyLinks(workload, entities);
  return { seed: options.seed, entities, ...(links.length === 0 ? {} : { links }) };
}

function generateEntityRecords(
  workload: Workload,
  entity: Entity,
  counts: Readonly<Record<string, number>>,
  generated: Readonly<Record<string, readonly EntityRecord[]>>,
  seed: number,
): readonly EntityRecord[] {
  const count = counts[entity.name] ?? 1;
  const records: Record<string, unknown>[] = Array.from({ length: count }, () => ({}));
  const attributes = recordAttributes(entity);
  const links = linkingRelationships(workload).filter((relationship) => relationship.child === entity.name);
  const viaNames = new Set(links.flatMap((relationship) => relationship.via));

  // Own values first (columns in attribute order; the first datetime is the record's timeline).
  const columns = planColumns(entity, attributes, count, undefined);
  fillColumns(records, columns, seed, entity.name);
  const stretched = stretchColumns(entity, attributes, count, records, lookupAttributes(workload, entity));
  if (stretched.length > 0) fillColumns(records, stretched, seed, entity.name);

  // Parents, then the identifier-like attributes inherited from them.
  const inheritedFrom = new Map<string, string>();
  let firstParents: readonly number[] | undefined;
  links.forEach((relationship, position) => {
    const parent = workload.entities.find((candidate) => candidate.name === relationship.parent);
    if (parent === undefined) return;
    // The skew of the attribute holding the parent (the first of a composite parent's key).
    const via = attributes.find((attribute) => attribute.name === relationship.via[0]);
    const rng = createRng(seed, "parents", entity.name, relationship.parent, relationship.via.join(","));
    const parentRanks = assignParents(
      relationship,
      count,
      counts[parent.name] ?? 1,
      via?.skew ?? 0,
      rng,
      position === 0 ? undefined : firstParents,
    );
    if (position === 0) firstParents = parentRanks;
    // A parent of the same entity is among the records being made (their own key values are set).
    const parentRecords = parent.name === entity.name ? records : generated[parent.name];
    parentRanks.forEach((parentRank, child) => {
      const record = records[child];
      if (record === undefined) return;
      const parentRecord = parentRecords?.[parentRank];
      relationship.via.forEach((name, index) => {
        const parentKey = parent.key[index] ?? name;
        // A single key is known from the rank; a composite one is read from the parent's record.
        record[name] =
          parent.key.length === 1 || parentRecord === undefined
            ? entityKeyValue(parent, parentRank, parentKey)
            : parentRecord[parentKey];
      });
      if (parentRecord === undefined || parent.name === entity.name) return;
      for (const attribute of attributes) {
        const name = attribute.name;
        if (isKeyAttribute(entity, name) || viaNames.has(name) || !isIdLike(name) || !(name in parentRecord))
          continue;
        if ((inheritedFrom.get(name) ?? relationship.parent) !== relationship.parent) continue;
        inheritedFrom.set(name, relationship.parent);
        record[name] = parentRecord[name];
      }
    });
  });

  // References to other entities by their key name (an attribute of a composite key too: the
  // user of a reaction keyed [postId, userId] is an existing user).
  for (const attribute of attributes) {
    if (
      soleKey(entity) === attribute.name ||
      viaNames.has(attribute.name) ||
      inheritedFrom.has(attribute.name)
    )
      continue;
    const target = referencedEntity(workload, entity, attribute.name);
    if (target === undefined) continue;
    const rank = zipfSampler(counts[target.name] ?? 1, attribute.skew);
    records.forEach((record, index) => {
      record[attribute.name] = entityKeyValue(
        target,
        rank(mulberry32(hashSeed(seed, entity.name, attribute.name, index))),
      );
    });
  }
  const dropped = makeKeyTuplesUnique(
    entity,
    records,
    keySources(workload, entity, counts, generated, records),
  );
  return records.filter((_, index) => !dropped.has(index)).map((record) => Object.freeze(record));
}

/** Where the attributes of `entity`'s composite key take their values from (`composite-keys.ts`). */
export function keySources(
  workload: Workload,
  entity: Entity,
  counts: Readonly<Record<string, number>>,
  generated: Readonly<Record<string, readonly EntityRecord[]>>,
  own: readonly EntityRecord[],
): KeySources {
  if (entity.key.length < 2) return { parents: [], references: new Map() };
  const parents = linkingRelationships(workload)
    .filter((relationship) => relationship.child === entity.name)
    .flatMap((relationship) => {
      const parent = workload.entities.find((candidate) => candidate.name === relationship.parent);
      const records =
        parent?.name === entity.name ? own : parent === undefined ? undefined : generated[parent.name];
      return parent === undefined || records === undefined
        ? []
        : [{ relationship, parent, records, max: maxChildren(relationship) }];
    });
  const references = new Map<string, readonly unknown[]>();
  for (const attribute of entity.key) {
    const target = referencedEntity(workload, entity, attribute);
    if (target === undefined || parents.some(({ relationship }) => relationship.via.includes(attribute)))
      continue;
    const count = counts[target.name] ?? 1;
    references.set(
      attribute,
      Array.from({ length: count }, (_, rank) => entityKeyValue(target, rank)),
    );
  }
  return { parents, references };
}

function planColumns(
  entity: Entity,
  attributes: readonly Attribute[],
  count: number,
  targets: ReadonlyMap<string, number> | undefined,
): ColumnPlan[] {
  const firstDatetime = attributes.find((attribute) => attribute.type === "datetime")?.name;
  return attributes
    .filter((attribute) => targets === undefined || targets.has(attribute.name))
    .map((attribute) => {
      const targetBytes = targets?.get(attribute.name) ?? attribute.avgBytes;
      const generate = valueGenerator(
        {
          entity,
          attribute,
          count,
          timelineStart: TIMELINE_START,
          timelineSpan: TIMELINE_SPAN,
          ...(targetBytes === undefined ? {} : { targetBytes }),
          ...(firstDatetime === undefined ? {} : { firstDatetime }),
        },
        isKeyAttribute(entity, attribute.name),
      );
      return { attribute, generate };
    });
}

function fillColumns(
  records: Record<string, unknown>[],
  columns: readonly ColumnPlan[],
  seed: number,
  entity: string,
): void {
  for (const { attribute, generate } of columns) {
    const attributeSeed = hashSeed(seed, entity, attribute.name);
    records.forEach((record, index) => {
      record[attribute.name] = generate(index, mulberry32(hashSeed(attributeSeed, index)), record);
    });
  }
}

/**
 * Attributes of `entity` that locate records, whatever their names: unique ones, those holding a
 * parent (a relationship's `via`), and those a read filters on by equality (`eq`, `in`). A model
 * may key items by them, so they are never stretched into free text: a key holds at most 2,048
 * bytes, and an attribute whose size the workload leaves open is taken to be an identifier of
 * ordinary length by the model's checks too (`cost/soundness.ts`, `longestKeyBytes`).
 */
function lookupAttributes(workload: Workload, entity: Entity): ReadonlySet<string> {
  const names = new Set<string>();
  for (const attribute of entity.attributes) if (attribute.unique === true) names.add(attribute.name);
  for (const relationship of linkingRelationships(workload)) {
    if (relationship.child === entity.name) for (const name of relationship.via) names.add(name);
  }
  for (const pattern of workload.accessPatterns) {
    if (pattern.type !== "read" || pattern.entity !== entity.name) continue;
    for (const predicate of pattern.where) {
      if (predicate.op === "eq" || predicate.op === "in") names.add(predicate.attribute);
    }
  }
  return names;
}

/**
 * Column plans that regenerate the free-text attributes longer, so that the average record's
 * JSON comes near the entity's `avgBytes`; empty when the records are already large enough.
 * `lookups` (`lookupAttributes`) are never stretched.
 */
function stretchColumns(
  entity: Entity,
  attributes: readonly Attribute[],
  count: number,
  records: readonly Record<string, unknown>[],
  lookups: ReadonlySet<string>,
): ColumnPlan[] {
  const average = (values: readonly unknown[]): number =>
    values.reduce<number>((sum, value) => sum + (JSON.stringify(value)?.length ?? 0), 0) /
    Math.max(1, values.length);
  const missing = entity.avgBytes - average(records);
  if (missing < 16) return [];
  const free = (attribute: Attribute): boolean =>
    attribute.type === "string" &&
    attribute.avgBytes === undefined &&
    attribute.distinct === undefined &&
    !lookups.has(attribute.name) &&
    !isKeyAttribute(entity, attribute.name) &&
    !isIdLike(attribute.name);
  const textual = attributes.filter((attribute) => free(attribute) && isTextLike(attribute.name));
  const stretchable =
    textual.length > 0
      ? textual
      : attributes.filter(
          (attribute) =>
            free(attribute) &&
            !FORMATTED_STRING.test(attribute.name) &&
            KNOWN_VALUES[attribute.name.toLowerCase()] === undefined,
        );
  if (stretchable.length === 0) return [];
  const targets = new Map<string, number>();
  for (const attribute of stretchable) {
    const current = average(records.map((record) => record[attribute.name]));
    targets.set(attribute.name, Math.round(current + missing / stretchable.length));
  }
  return planColumns(entity, attributes, count, targets);
}

/**
 * The entity an attribute refers to by name: another entity whose key is the attribute's name
 * (`customerId`), or any entity whose key ends the name (`parentCategoryId` -> Category). Only
 * entities with a single key are referred to so (a composite key is no one attribute's value).
 */
export function referencedEntity(workload: Workload, entity: Entity, name: string): Entity | undefined {
  const single = workload.entities.flatMap((candidate) => {
    const key = soleKey(candidate);
    return key === undefined ? [] : [{ candidate, key }];
  });
  return (
    single.find(({ candidate, key }) => key === name && candidate.name !== entity.name) ??
    single.find(
      ({ key }) =>
        isIdLike(key) &&
        key.length < name.length &&
        name.endsWith(key.charAt(0).toUpperCase() + key.slice(1)),
    )
  )?.candidate;
}
