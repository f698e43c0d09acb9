/**
 * The links of a many-to-many relationship in synthetic data: the rows of the join table the
 * workload does not list as an entity, drawn once with the records and kept in the dataset
 * (writes add and remove records, never links; a link to a removed record is skipped). Parent
 * rank `i` links to `floor(avg x (i + 1)) - floor(avg x i)` children (`avg` per parent on
 * average, never more than `max` nor than there are children), the `j`-th at rank
 * `(i + j x stride) mod children` with `stride = floor(children / links)`, so a parent's children
 * are distinct and the links spread over every child. The items `verify` loads (a copy's array)
 * and the oracle's expected answers both come from here. Pure.
 */
import type { Relationship, Workload } from "../workload/types.js";
import type { Dataset, EntityRecord } from "./generate-records.js";
import { compareKeys } from "./record-order.js";

/** The join table of one many-to-many relationship: [parent key, child key] rows. */
export interface ManyToManyLinks {
  readonly parent: string;
  readonly child: string;
  readonly rows: readonly (readonly [unknown, unknown])[];
}

/** The many-to-many relationship between two entities (either direction), if any. */
export function manyToManyBetween(workload: Workload, a: string, b: string): Relationship | undefined {
  if (a === b) return undefined;
  return workload.relationships.find(
    (r) =>
      r.kind === "many-to-many" && ((r.parent === a && r.child === b) || (r.parent === b && r.child === a)),
  );
}

/** Ranks of the children parent rank `rank` links to. */
function childRanks(relationship: Relationship, rank: number, children: number): number[] {
  if (children === 0) return [];
  const wanted = Math.floor(relationship.avg * (rank + 1)) - Math.floor(relationship.avg * rank);
  const links = Math.min(wanted, relationship.max ?? Number.POSITIVE_INFINITY, children);
  if (links <= 0) return [];
  const stride = Math.max(1, Math.floor(children / links));
  return Array.from({ length: links }, (_, j) => (rank + j * stride) % children);
}

/** The join rows of every many-to-many relationship between generated records. */
export function drawManyToManyLinks(
  workload: Workload,
  entities: Readonly<Record<string, readonly EntityRecord[]>>,
): ManyToManyLinks[] {
  const keyOf = (name: string) => workload.entities.find((e) => e.name === name)?.key ?? [];
  return workload.relationships
    .filter((r) => r.kind === "many-to-many" && r.parent !== r.child)
    .map((relationship) => {
      const parents = entities[relationship.parent] ?? [];
      const children = entities[relationship.child] ?? [];
      const parentKey = keyOf(relationship.parent);
      const childKey = keyOf(relationship.child);
      const rows = parents.flatMap((parent, rank) =>
        childRanks(relationship, rank, children.length).map(
          (child) => [keyValueOf(parent, parentKey), keyValueOf(children[child] ?? {}, childKey)] as const,
        ),
      );
      return { parent: relationship.parent, child: relationship.child, rows };
    });
}

/** Records by key text, per records array (built once per array: verify asks per record). */
const BY_KEY = new WeakMap<readonly EntityRecord[], Map<string, EntityRecord>>();
/** Linked keys by key text, per join table and side. */
const ROWS_BY_KEY = new WeakMap<object, Map<string, unknown[]>>();

/**
 * A record's key as a join row holds it: the value of a single key, the list of values of a
 * composite one.
 */
export function keyValueOf(record: EntityRecord, key: readonly string[]): unknown {
  return key.length === 1 ? record[key[0] ?? ""] : key.map((name) => record[name] ?? null);
}

function recordsByKey(records: readonly EntityRecord[], key: readonly string[]): Map<string, EntityRecord> {
  let map = BY_KEY.get(records);
  if (map === undefined) {
    map = new Map(records.map((record) => [JSON.stringify(keyValueOf(record, key)), record]));
    BY_KEY.set(records, map);
  }
  return map;
}

function linkedKeys(links: ManyToManyLinks, fromParent: boolean, value: unknown): readonly unknown[] {
  const cacheKey = fromParent ? links : links.rows;
  let map = ROWS_BY_KEY.get(cacheKey);
  if (map === undefined) {
    map = new Map();
    for (const [parent, child] of links.rows) {
      const [from, to] = fromParent ? [parent, child] : [child, parent];
      const text = JSON.stringify(from);
      map.set(text, [...(map.get(text) ?? []), to]);
    }
    ROWS_BY_KEY.set(cacheKey, map);
  }
  return map.get(JSON.stringify(value)) ?? [];
}

/**
 * The records of `other` linked to `record` (a record of `entity`) through their many-to-many
 * relationship, ordered by `other`'s key; undefined when the two are not many-to-many.
 */
export function linkedRecords(
  workload: Workload,
  dataset: Dataset,
  entity: string,
  record: EntityRecord,
  other: string,
): readonly EntityRecord[] | undefined {
  const relationship = manyToManyBetween(workload, entity, other);
  if (relationship === undefined) return undefined;
  const links = dataset.links?.find(
    (l) => l.parent === relationship.parent && l.child === relationship.child,
  );
  if (links === undefined) return [];
  const key = workload.entities.find((e) => e.name === entity)?.key ?? [];
  const otherKey = workload.entities.find((e) => e.name === other)?.key ?? [];
  const others = recordsByKey(dataset.entities[other] ?? [], otherKey);
  return linkedKeys(links, relationship.parent === entity, keyValueOf(record, key))
    .map((value) => others.get(JSON.stringify(value)))
    .filter((found): found is EntityRecord => found !== undefined)
    .sort((a, b) => compareKeys({ key: otherKey }, a, b));
}
