/**
 * How records compare and which are newest: Cosmos DB's ORDER BY order of JSON values, JSON
 * equality, and recency by an entity's first datetime attribute. Shared by the oracle and the
 * materialization of datasets. Pure.
 */
import { recencyAttribute } from "../workload/recency.js";
import type { Entity } from "../workload/types.js";
import type { EntityRecord } from "./generate-records.js";
import { compareValues as cosmosOrder } from "../runtime/reads.js";

/**
 * Cosmos DB's ORDER BY order: by type (undefined, null, boolean, number, string), then by value
 * (strings by UTF-16 code units, as JavaScript compares them), as -1, 0 or 1. The same order the
 * generated code sorts with (src/runtime/reads.ts).
 */
export function compareValues(a: unknown, b: unknown): number {
  return Math.sign(cosmosOrder(a, b));
}

/** Structural equality of JSON values (object key order ignored). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((element, index) => jsonEqual(element, b[index]));
  }
  const aKeys = Object.keys(a).filter((key) => (a as Record<string, unknown>)[key] !== undefined);
  const bKeys = Object.keys(b).filter((key) => (b as Record<string, unknown>)[key] !== undefined);
  return (
    aKeys.length === bKeys.length &&
    aKeys.every((key) => jsonEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]))
  );
}

export { recencyAttribute };

/**
 * True when two records are the same record of `entity`: every key attribute equal (a composite
 * key is the whole tuple, never one of its attributes).
 */
export function sameRecord(
  entity: Pick<Entity, "key">,
  a: Readonly<Record<string, unknown>>,
  b: Readonly<Record<string, unknown>>,
): boolean {
  return entity.key.every((name) => jsonEqual(a[name], b[name]));
}

/**
 * True when `child` holds `parent`'s key through a relationship's `via`: each via attribute equals
 * the parent's key attribute at its position.
 */
export function holdsParentKey(
  parent: Pick<Entity, "key">,
  via: readonly string[],
  parentRecord: Readonly<Record<string, unknown>>,
  child: Readonly<Record<string, unknown>>,
): boolean {
  return parent.key.every((name, index) => jsonEqual(child[via[index] ?? name], parentRecord[name]));
}

/** Compares two records by their key, attribute by attribute in key order (-1, 0 or 1). */
export function compareKeys(
  entity: Pick<Entity, "key">,
  a: Readonly<Record<string, unknown>>,
  b: Readonly<Record<string, unknown>>,
): number {
  for (const name of entity.key) {
    const order = compareValues(a[name], b[name]);
    if (order !== 0) return order;
  }
  return 0;
}

/**
 * Records newest first: by `recencyAttribute` descending, ties by the key descending (the order of
 * `latest(X, N)`, of a `latest: N` embed and of its follow-up query: `workload/recency.ts`). An
 * entity without a datetime attribute has no `latest` (the workload check rejects it); its
 * records, embedded whole (`all`), come later-in-the-dataset first.
 */
export function newestFirst(entity: Entity, records: readonly EntityRecord[]): readonly EntityRecord[] {
  const by = recencyAttribute(entity);
  const indexed = records.map((record, position) => ({ record, position }));
  return indexed
    .sort((a, b) =>
      by === undefined
        ? b.position - a.position
        : compareValues(b.record[by], a.record[by]) ||
          compareKeys(entity, b.record, a.record) ||
          a.position - b.position,
    )
    .map((entry) => entry.record);
}
