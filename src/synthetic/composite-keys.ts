/**
 * Unique key tuples for the records of an entity with a composite key (`[filmId, actorId]`,
 * `[orderId, lineNumber]`). Each attribute of such a key gets its value the way any attribute
 * does (a parent's key through a relationship's via, a reference to another entity, or its own
 * value); none of them is unique alone, so two records may end with the same tuple (a film
 * linked twice to one actor). This pass makes every tuple unique, changing as little as
 * possible and keeping values realistic:
 *
 * - a number attribute of the key with its own values is numbered within its group (the records
 *   sharing the other key attributes): an order's lines are 1, 2, 3...;
 * - a record whose tuple is taken changes one key attribute: its own value first (a suffix, or the
 *   next number), else a reference (another record of the referenced entity), else a parent (the
 *   parent of the relationship holding the last key attribute, one with room for another child
 *   first), the last key attribute first;
 * - a record no change makes unique is left out (the caller's counts bound the entity by the
 *   tuples its parents allow, so it does not happen for link entities sized by `datasetCounts`).
 *
 * Pure and deterministic: candidates are tried in a fixed order from the record's rank.
 */
import { recordIdentity } from "../workload/keys.js";
import type { Entity, Relationship, Workload } from "../workload/types.js";

/** A record under construction: attribute name -> value. */
type MutableRecord = Record<string, unknown>;

/** How one or more key attributes of a record may change. */
type KeyMover =
  | { readonly kind: "own"; readonly attribute: string; readonly type: "number" | "other" }
  | {
      readonly kind: "reference";
      readonly attribute: string;
      /** Values of the referenced entity's key, in rank order. */
      readonly values: readonly unknown[];
    }
  | {
      readonly kind: "parent";
      readonly relationship: Relationship & { readonly via: readonly string[] };
      readonly parent: Entity;
      readonly parents: readonly Readonly<Record<string, unknown>>[];
      readonly max: number;
    };

/** What the pass needs to know of the entity's key attributes. */
export interface KeySources {
  /** Relationships whose child is the entity, with the records of their parents. */
  readonly parents: readonly {
    readonly relationship: Relationship & { readonly via: readonly string[] };
    readonly parent: Entity;
    readonly records: readonly Readonly<Record<string, unknown>>[];
    readonly max: number;
  }[];
  /** Key attributes holding another entity's key, with that entity's key values in rank order. */
  readonly references: ReadonlyMap<string, readonly unknown[]>;
}

/** How many candidate values of an own string or number attribute are tried before giving up. */
const OWN_ATTEMPTS = 1000;

/**
 * Makes the key tuples of `records` (from index `from` on) unique among themselves and among
 * `records[0..from)`, in place; returns the indexes of the records left out (no change made them
 * unique). A single key is left alone (its values are unique by construction).
 */
export function makeKeyTuplesUnique(
  entity: Entity,
  records: MutableRecord[],
  sources: KeySources,
  from = 0,
): ReadonlySet<number> {
  const dropped = new Set<number>();
  if (entity.key.length < 2) return dropped;
  const movers = keyMovers(entity, sources);
  if (from === 0) numberWithinGroups(entity, records, movers);
  const taken = new Set<string>();
  for (let index = 0; index < from; index++) taken.add(recordIdentity(entity, records[index] ?? {}));
  const children = childCounts(records, movers);
  for (let index = from; index < records.length; index++) {
    const record = records[index];
    if (record === undefined) continue;
    if (
      !taken.has(recordIdentity(entity, record)) ||
      retarget(entity, record, index, movers, taken, children)
    ) {
      taken.add(recordIdentity(entity, record));
    } else {
      dropped.add(index);
    }
  }
  return dropped;
}

/** The ways a key attribute may change, the most local first (own values, references, parents), last attribute first. */
function keyMovers(entity: Entity, sources: KeySources): KeyMover[] {
  const position = (attribute: string): number => entity.key.indexOf(attribute);
  const own: KeyMover[] = [];
  const references: KeyMover[] = [];
  const parents: KeyMover[] = [];
  const held = new Set(sources.parents.flatMap(({ relationship }) => relationship.via));
  for (const attribute of [...entity.key].reverse()) {
    if (held.has(attribute)) continue;
    const values = sources.references.get(attribute);
    if (values !== undefined && values.length > 0) {
      references.push({ kind: "reference", attribute, values });
      continue;
    }
    const type = entity.attributes.find((a) => a.name === attribute)?.type;
    own.push({ kind: "own", attribute, type: type === "number" ? "number" : "other" });
  }
  const ordered = [...sources.parents].sort(
    (a, b) => Math.max(...b.relationship.via.map(position)) - Math.max(...a.relationship.via.map(position)),
  );
  for (const { relationship, parent, records, max } of ordered) {
    if (!relationship.via.some((via) => entity.key.includes(via)) || records.length === 0) continue;
    parents.push({ kind: "parent", relationship, parent, parents: records, max });
  }
  return [...own, ...references, ...parents];
}

/**
 * Numbers an own number attribute of the key within the records sharing the other key
 * attributes (1, 2, 3... in record order), when there is exactly one such attribute.
 */
function numberWithinGroups(entity: Entity, records: MutableRecord[], movers: readonly KeyMover[]): void {
  const numbers = movers.filter((mover) => mover.kind === "own" && mover.type === "number");
  const [only] = numbers;
  if (numbers.length !== 1 || only?.kind !== "own") return;
  const others = entity.key.filter((attribute) => attribute !== only.attribute);
  const next = new Map<string, number>();
  for (const record of records) {
    const group = JSON.stringify(others.map((attribute) => record[attribute] ?? null));
    const value = (next.get(group) ?? 0) + 1;
    next.set(group, value);
    record[only.attribute] = value;
  }
}

/** Children per parent identity, for the parent movers (to respect `max`). */
function childCounts(records: readonly MutableRecord[], movers: readonly KeyMover[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const mover of movers) {
    if (mover.kind !== "parent") continue;
    for (const record of records) {
      const id = parentIdentity(mover, record);
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
  }
  return counts;
}

function parentIdentity(
  mover: Extract<KeyMover, { kind: "parent" }>,
  record: Readonly<Record<string, unknown>>,
): string {
  return `${mover.relationship.parent}:${JSON.stringify(mover.relationship.via.map((via) => record[via] ?? null))}`;
}

/** Gives `record` a tuple not in `taken` by one mover's change; false when none does. */
function retarget(
  entity: Entity,
  record: MutableRecord,
  rank: number,
  movers: readonly KeyMover[],
  taken: ReadonlySet<string>,
  children: Map<string, number>,
): boolean {
  for (const mover of movers) {
    for (const candidate of candidates(mover, record, rank, children)) {
      const trial = { ...record, ...candidate };
      if (taken.has(recordIdentity(entity, trial))) continue;
      if (mover.kind === "parent") {
        const before = parentIdentity(mover, record);
        const after = parentIdentity(mover, trial);
        children.set(before, (children.get(before) ?? 1) - 1);
        children.set(after, (children.get(after) ?? 0) + 1);
      }
      Object.assign(record, candidate);
      return true;
    }
  }
  return false;
}

/** The changes one mover can make to a record, in the order they are tried. */
function* candidates(
  mover: KeyMover,
  record: Readonly<Record<string, unknown>>,
  rank: number,
  children: ReadonlyMap<string, number>,
): Generator<Record<string, unknown>> {
  switch (mover.kind) {
    case "own": {
      const value = record[mover.attribute];
      for (let attempt = 1; attempt <= OWN_ATTEMPTS; attempt++) {
        if (mover.type === "number")
          yield { [mover.attribute]: (typeof value === "number" ? value : 0) + attempt };
        else
          yield {
            [mover.attribute]: `${typeof value === "string" ? value : mover.attribute}-${attempt + 1}`,
          };
      }
      return;
    }
    case "reference": {
      const { values } = mover;
      for (let offset = 1; offset <= values.length; offset++) {
        yield { [mover.attribute]: values[(rank + offset) % values.length] };
      }
      return;
    }
    case "parent": {
      const { parents, relationship, parent, max } = mover;
      const change = (parentRecord: Readonly<Record<string, unknown>>): Record<string, unknown> =>
        Object.fromEntries(
          relationship.via.map((via, index) => [via, parentRecord[parent.key[index] ?? via]]),
        );
      // Parents with room first, then any (a parent over `max` beats a duplicate record).
      for (const roomy of [true, false]) {
        for (let offset = 1; offset <= parents.length; offset++) {
          const parentRecord = parents[(rank + offset) % parents.length];
          if (parentRecord === undefined) continue;
          const next = change(parentRecord);
          const full = (children.get(parentIdentity(mover, next)) ?? 0) >= max;
          if (full === roomy) continue;
          yield next;
        }
      }
      return;
    }
    default:
      return mover satisfies never;
  }
}

/**
 * The most records of `entity` with distinct key tuples when every key attribute is a parent's
 * key or a reference: the product of the values each can take (Infinity when an attribute has
 * values of its own).
 * @example keyTupleCapacity(filmActor, { Film: 1000, Actor: 200 }, workload) // 200000
 */
export function keyTupleCapacity(
  workload: Workload,
  entity: Entity,
  counts: Readonly<Record<string, number>>,
  referenced: (attribute: string) => Entity | undefined,
): number {
  if (entity.key.length < 2) return Infinity;
  let capacity = 1;
  const counted = new Set<Relationship>();
  for (const attribute of entity.key) {
    const link = workload.relationships.find(
      (relationship) => relationship.child === entity.name && relationship.via?.includes(attribute) === true,
    );
    // A parent with a composite key gives several key attributes at once: its records count once.
    if (link !== undefined && counted.has(link)) continue;
    if (link !== undefined) counted.add(link);
    const target = link === undefined ? referenced(attribute) : undefined;
    const domain =
      link !== undefined
        ? (counts[link.parent] ?? 1)
        : target !== undefined
          ? (counts[target.name] ?? 1)
          : Infinity;
    capacity *= domain;
  }
  return capacity;
}
