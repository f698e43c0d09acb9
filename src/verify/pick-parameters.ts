/**
 * Realistic parameter values for read patterns, picked from the dataset so that each request
 * finds data, as a real application's requests do. Pure (the random source decides).
 */
import type { Dataset, EntityRecord } from "../synthetic/generate-records.js";
import type { Rng } from "../synthetic/random.js";
import { compareValues } from "../synthetic/record-order.js";
import type { ReadPattern, Workload } from "../workload/types.js";
import { queryVectorNear, termsFrom } from "./search-oracle.js";
import {
  entityOf,
  linkBetween,
  matchesPredicate,
  recordsOf,
  type ParameterValue,
  type PatternParameters,
  type RangeValue,
  type ScalarValue,
} from "./oracle.js";

/**
 * Realistic parameter values for one request of a read pattern: taken from an existing record
 * (the "anchor"), so that an `eq` on a parent key names a parent that has children, preferring
 * anchors whose `with` children exist; a range spans about the pattern's expected result size
 * (`returns.avg`, else `limit`, else 10) around the anchor among the records that share its
 * other predicate values; `in` lists the anchor's value and others, as many as `returns.avg`
 * (2 to 50); `contains` picks
 * an element of the anchor's array; `prefix` the first 60% of the anchor's string.
 * Returns {} for a pattern without predicates, and undefined when the entity has no records.
 */
export function pickParameters(
  workload: Workload,
  dataset: Dataset,
  pattern: ReadPattern,
  rng: Rng,
): PatternParameters | undefined {
  if (pattern.where.length === 0 && pattern.search === undefined) return {};
  const records = recordsOf(dataset, pattern.entity);
  if (records.length === 0) return undefined;
  const anchors = preferredAnchors(workload, dataset, pattern, records);
  const anchor = anchors[Math.floor(rng() * anchors.length)] ?? records[0];
  if (anchor === undefined) return undefined;
  const parameters: Record<string, ParameterValue> = {};
  for (const predicate of pattern.where) {
    const value = anchor[predicate.attribute];
    switch (predicate.op) {
      case "eq":
        if (isScalar(value)) parameters[predicate.attribute] = value;
        break;
      case "in": {
        // As many values as the pattern expects results (a feed page of 20 posts), 2 to 50.
        const wanted = Math.min(50, Math.max(2, Math.round(pattern.returns?.avg ?? 3)));
        const others = [
          ...new Set(
            records
              .map((record) => record[predicate.attribute])
              .filter((other): other is ScalarValue => isScalar(other) && other !== value),
          ),
        ];
        const picked = isScalar(value) ? [value] : [];
        while (picked.length < wanted && others.length > 0) {
          const [other] = others.splice(Math.floor(rng() * others.length), 1);
          if (other !== undefined) picked.push(other);
        }
        parameters[predicate.attribute] = picked;
        break;
      }
      case "contains":
        if (Array.isArray(value) && value.length > 0) {
          const element: unknown = value[Math.floor(rng() * value.length)];
          if (isScalar(element)) parameters[predicate.attribute] = element;
        }
        break;
      case "prefix":
        if (typeof value === "string" && value.length > 0) {
          parameters[predicate.attribute] = value.slice(0, Math.max(1, Math.ceil(value.length * 0.6)));
        }
        break;
      case "range":
        break;
      default:
        return predicate.op satisfies never;
    }
  }
  for (const predicate of pattern.where) {
    if (predicate.op !== "range") continue;
    const range = rangeAround(pattern, records, anchor, predicate.attribute, parameters, rng);
    if (range !== undefined) parameters[predicate.attribute] = range;
  }
  // A search: a query vector near the anchor's, and words of its text as the terms.
  const search = pattern.search;
  if (search !== undefined && search.kind !== "fullText") {
    const vector = queryVectorNear(anchor, search.vector, rng);
    if (vector !== undefined) parameters[search.vector] = vector;
  }
  if (search !== undefined && search.kind !== "vector")
    parameters.terms = termsFrom(anchor, search.text, search.terms);
  return parameters;
}

function isScalar(value: unknown): value is ScalarValue {
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean";
}

/** Records whose `with` children all exist (else those with some, else all records). */
function preferredAnchors(
  workload: Workload,
  dataset: Dataset,
  pattern: ReadPattern,
  records: readonly EntityRecord[],
): readonly EntityRecord[] {
  const childEntities = pattern.with
    .filter((item) => item.kind !== "attribute")
    .map((item) => item.entity)
    .filter((child) => linkBetween(workload, pattern.entity, child) !== undefined);
  if (childEntities.length === 0) return records;
  const key = entityOf(workload, pattern.entity).key;
  // The parent keys (tuples of values) the children hold through each relationship's via.
  const tuple = (record: EntityRecord, names: readonly string[]): string =>
    JSON.stringify(names.map((name) => record[name] ?? null));
  const parentsWithChildren = childEntities.map((child) => {
    const via = linkBetween(workload, pattern.entity, child)?.via ?? key;
    return new Set(recordsOf(dataset, child).map((record) => tuple(record, via)));
  });
  const hasAll = records.filter((record) =>
    parentsWithChildren.every((keys) => keys.has(tuple(record, key))),
  );
  if (hasAll.length > 0) return hasAll;
  const hasSome = records.filter((record) =>
    parentsWithChildren.some((keys) => keys.has(tuple(record, key))),
  );
  return hasSome.length > 0 ? hasSome : records;
}

function rangeAround(
  pattern: ReadPattern,
  records: readonly EntityRecord[],
  anchor: EntityRecord,
  attribute: string,
  fixed: Readonly<Record<string, ParameterValue>>,
  rng: Rng,
): RangeValue | undefined {
  const value = anchor[attribute];
  if (typeof value !== "string" && typeof value !== "number") return undefined;
  const peers = records
    .filter((record) =>
      pattern.where.every(
        (predicate) =>
          predicate.op === "range" ||
          fixed[predicate.attribute] === undefined ||
          matchesPredicate(record[predicate.attribute], predicate.op, fixed[predicate.attribute]),
      ),
    )
    .map((record) => record[attribute])
    .filter((other): other is typeof value => typeof other === typeof value)
    .sort(compareValues);
  const wanted = Math.max(1, Math.round(pattern.returns?.avg ?? pattern.limit ?? 10));
  const position = Math.max(
    0,
    peers.findIndex((other) => other === value),
  );
  const start = Math.max(0, Math.min(position - Math.floor(rng() * wanted), peers.length - wanted));
  const from = peers[start] ?? value;
  const last = peers[Math.min(peers.length - 1, start + wanted - 1)] ?? value;
  // Half-open bounds: `to` just above the last value wanted (a date-time 1 ms later, so a window
  // bucket's upper bound, aligned from it, is a date-time too).
  const to = typeof last === "number" ? nextAbove(last) : (dateTimeAfter(last) ?? `${String(last)}\uffff`);
  return { from, to };
}

/** The ISO 8601 UTC date-time 1 ms after `value` when it is one (as the synthetic data writes them). */
function dateTimeAfter(value: string): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(value)) return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : new Date(time + 1).toISOString();
}

function nextAbove(value: number): number {
  const step = Math.max(Number.EPSILON, Math.abs(value) * Number.EPSILON * 4);
  return Number.isInteger(value) ? value + 1 : value + step;
}
