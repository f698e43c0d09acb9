/**
 * Checks what Cosmos DB returned for one request of a read pattern against the oracle, and turns
 * stored items into the oracle's answer shape. Pure.
 *
 * An answer is accepted when it has the expected number of results, every result is a correct
 * answer record (same values as the oracle's record with the same key, or an identical record
 * when the pattern does not return the key), and with `orderBy` the results are in order and
 * carry the same sort values as the oracle's first N: ties may come back in any order, and a
 * tie across the `limit` may return either record, as Cosmos DB is free to.
 */
import { BUCKET_RECORDS_PROPERTY, effectiveItemType } from "../model/materialize-item.js";
import { manyToManyKeysOf } from "../model/item-type-shape.js";
import type { ItemType, Model } from "../model/types.js";
import { recordAttributes, type Dataset } from "../synthetic/generate-records.js";
import type { ReadPattern, WithItem, Workload } from "../workload/types.js";
import {
  answerWithSortValues,
  compareValues,
  jsonEqual,
  recordKey,
  truncateToBytes,
  withLabel,
  type PatternParameters,
  type SortedAnswer,
} from "./oracle.js";
import { compareKeys, sameRecord } from "../synthetic/record-order.js";
import { coversKey } from "../workload/keys.js";

export type AnswerDifferenceKind = "count" | "unexpected" | "value" | "order" | "sortValues";

export interface AnswerDifference {
  readonly kind: AnswerDifferenceKind;
  /** The result's key value (the list of values of a composite key), when the pattern returns the key. */
  readonly key?: unknown;
  /** The property that differs (an attribute or a `with` label). */
  readonly property?: string;
  readonly expected?: unknown;
  readonly actual?: unknown;
  readonly message: string;
}

export interface AnswerCheck {
  readonly ok: boolean;
  readonly expectedCount: number;
  readonly actualCount: number;
  /** At most `maxDifferences` (default 10). */
  readonly differences: readonly AnswerDifference[];
}

/**
 * Compares `actual` (results in the oracle's shape: attributes plus `with` labels) with the
 * oracle's answer for the same parameters.
 * @example checkReadAnswer(workload, dataset, q3, { userId: "user-000001" }, results).ok
 */
export function checkReadAnswer(
  workload: Workload,
  dataset: Dataset,
  pattern: ReadPattern,
  parameters: PatternParameters,
  actual: readonly Readonly<Record<string, unknown>>[],
  options: { readonly maxDifferences?: number } = {},
): AnswerCheck {
  const expected = answerWithSortValues(workload, dataset, pattern, parameters);
  const { limit, ...withoutLimit } = pattern;
  const unlimited =
    limit === undefined ? expected : answerWithSortValues(workload, dataset, withoutLimit, parameters);
  const differences: AnswerDifference[] = [];
  const max = options.maxDifferences ?? 10;
  const add = (difference: AnswerDifference): void => {
    if (differences.length < max) differences.push(difference);
  };
  if (actual.length !== expected.length) {
    add({
      kind: "count",
      expected: expected.length,
      actual: actual.length,
      message: `${pattern.id}: expected ${expected.length} results, got ${actual.length}`,
    });
  }
  const entity = workload.entities.find((candidate) => candidate.name === pattern.entity);
  // Results are matched by the whole key when the read returns every key attribute.
  const keyed = entity !== undefined && (pattern.select === undefined || coversKey(entity, pattern.select));
  const remaining = [...unlimited];
  // Sort values of each actual result, from its matching oracle record (select may omit them).
  const actualSortValues: (readonly unknown[] | undefined)[] = [];
  for (const result of actual) {
    const key = keyed ? recordKey(workload, entity.name, result) : undefined;
    const at = keyed
      ? remaining.findIndex((candidate) => sameRecord(entity, candidate.result, result))
      : remaining.findIndex((candidate) => answersEqual(candidate.result, result));
    if (at < 0) {
      actualSortValues.push(undefined);
      add({
        kind: "unexpected",
        ...(keyed ? { key } : {}),
        actual: result,
        message: keyed
          ? `${pattern.id}: ${keyLabel(key)} is not an answer for these parameters`
          : `${pattern.id}: a result matches no expected answer: ${brief(result)}`,
      });
      continue;
    }
    const match = remaining[at] ?? { result: {}, sortValues: [] };
    remaining.splice(at, 1);
    actualSortValues.push(match.sortValues);
    for (const property of new Set([...Object.keys(match.result), ...Object.keys(result)])) {
      if (!valuesEqual(match.result[property], result[property])) {
        add({
          kind: "value",
          ...(keyed ? { key } : {}),
          property,
          expected: match.result[property],
          actual: result[property],
          message: `${pattern.id}: ${keyed ? `${keyLabel(key)} ` : ""}${property}: expected ${brief(match.result[property])}, got ${brief(result[property])}`,
        });
      }
    }
  }
  if (pattern.orderBy.length > 0) checkOrder(pattern, expected, actualSortValues, add);
  return {
    ok: differences.length === 0,
    expectedCount: expected.length,
    actualCount: actual.length,
    differences,
  };
}

/** A record's key in a message: the value, or the list of a composite key's values. */
function keyLabel(key: unknown): string {
  return Array.isArray(key) ? JSON.stringify(key) : String(key);
}

function checkOrder(
  pattern: ReadPattern,
  expected: readonly SortedAnswer[],
  actualSortValues: readonly (readonly unknown[] | undefined)[],
  add: (difference: AnswerDifference) => void,
): void {
  const order = (a: readonly unknown[], b: readonly unknown[]): number => {
    for (const [index, key] of pattern.orderBy.entries()) {
      const compared = compareValues(a[index], b[index]);
      if (compared !== 0) return key.direction === "asc" ? compared : -compared;
    }
    return 0;
  };
  const known = actualSortValues.filter((values): values is readonly unknown[] => values !== undefined);
  for (let index = 1; index < known.length; index++) {
    const previous = known[index - 1] ?? [];
    const current = known[index] ?? [];
    if (order(previous, current) > 0) {
      add({
        kind: "order",
        expected: previous,
        actual: current,
        message: `${pattern.id}: a result sorted ${brief(current)} comes after ${brief(previous)}, against ORDER BY ${pattern.orderBy.map((key) => `${key.attribute} ${key.direction}`).join(", ")}`,
      });
      break;
    }
  }
  const expectedKeys = expected.map((entry) => JSON.stringify(entry.sortValues)).sort();
  const actualKeys = known.map((values) => JSON.stringify(values)).sort();
  if (
    known.length === actualSortValues.length &&
    JSON.stringify(expectedKeys) !== JSON.stringify(actualKeys)
  ) {
    add({
      kind: "sortValues",
      expected: expectedKeys,
      actual: actualKeys,
      message: `${pattern.id}: the results are not the first ${expected.length} by ORDER BY`,
    });
  }
}

function brief(value: unknown): string {
  const text = JSON.stringify(value) ?? "undefined";
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** Numbers within a relative 1e-9 (sums of decimals), arrays of records in any order. */
function valuesEqual(expected: unknown, actual: unknown): boolean {
  if (typeof expected === "number" && typeof actual === "number") {
    return Math.abs(expected - actual) <= 1e-9 * Math.max(1, Math.abs(expected), Math.abs(actual));
  }
  if (Array.isArray(expected) && Array.isArray(actual)) {
    if (expected.length !== actual.length) return false;
    if (expected.every((entry, index) => valuesEqual(entry, actual[index]))) return true;
    // Children (all(...)) may come back in another order.
    const left = expected.map((entry) => canonical(entry)).sort();
    const right = actual.map((entry) => canonical(entry)).sort();
    return left.every((entry, index) => entry === right[index]);
  }
  return jsonEqual(expected, actual);
}

function answersEqual(a: Readonly<Record<string, unknown>>, b: Readonly<Record<string, unknown>>): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((key) => valuesEqual(a[key], b[key]));
}

/** JSON with object keys sorted, for order-independent comparison. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value)
      .filter(([, entry]) => entry !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, entry]) => `${JSON.stringify(key)}:${canonical(entry)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** A stored item in the oracle's answer shape, and the `with` entries the item cannot answer. */
export interface ItemAnswer {
  readonly answer: Readonly<Record<string, unknown>>;
  /** `with` entries to fetch with follow-up reads (e.g. counts not kept in the item). */
  readonly unresolved: readonly WithItem[];
}

/**
 * Reads the oracle's answer shape out of a stored item of `itemType`: the pattern's attributes
 * (its `select`, else every attribute of the entity's records that the item holds), cut by the pattern's
 * `truncate` as the application would, and each `with` entry from the item's copies (`as`),
 * counters and embeds; entries the item does not hold are listed as unresolved.
 */
export function answerFromItem(
  workload: Workload,
  model: Model,
  itemType: ItemType,
  pattern: ReadPattern,
  item: Readonly<Record<string, unknown>>,
): ItemAnswer {
  const shape = effectiveItemType(itemType, model);
  const entity = workload.entities.find((candidate) => candidate.name === pattern.entity);
  // The attributes of the entity's records (the key first when the workload does not list it).
  const names =
    pattern.select ??
    (entity === undefined ? [] : recordAttributes(entity).map((attribute) => attribute.name));
  const answer: Record<string, unknown> = {};
  for (const name of names) {
    if (!(name in item)) continue;
    const value = item[name];
    const cut = pattern.truncate.find((truncation) => truncation.attribute === name);
    answer[name] = cut !== undefined && typeof value === "string" ? truncateToBytes(value, cut.bytes) : value;
  }
  const unresolved: WithItem[] = [];
  const manyToManyKeys = manyToManyKeysOf(workload, pattern.entity);
  for (const withItem of pattern.with) {
    const value = withValueFromItem(shape, pattern.entity, withItem, item, manyToManyKeys);
    if (value === undefined) unresolved.push(withItem);
    else answer[withLabel(withItem)] = value;
  }
  return { answer, unresolved };
}

function withValueFromItem(
  shape: ItemType,
  entity: string,
  withItem: WithItem,
  item: Readonly<Record<string, unknown>>,
  manyToManyKeys: Readonly<Record<string, readonly string[]>>,
): unknown {
  switch (withItem.kind) {
    case "attribute": {
      if (withItem.entity === entity) return item[withItem.attribute] ?? null;
      const copy = shape.copies.find(
        (candidate) =>
          candidate.from.entity === withItem.entity && candidate.from.attribute === withItem.attribute,
      );
      if (copy === undefined) return undefined;
      const key = manyToManyKeys[withItem.entity];
      return key === undefined
        ? (item[copy.as] ?? null)
        : linkedValues(item[copy.as], key, withItem.attribute);
    }
    case "count": {
      const counter = shape.counts.find((candidate) => candidate.of === withItem.entity);
      return counter === undefined ? undefined : item[counter.as];
    }
    case "aggregate":
      return undefined;
    case "latest": {
      const embed = shape.embeds.find(
        (candidate) =>
          candidate.entity === withItem.entity &&
          (candidate.latest === undefined || candidate.latest >= withItem.n),
      );
      const value = embed === undefined ? undefined : item[embed.as];
      // A one-to-one child is embedded as an object (or null when there is none).
      if (value === null) return [];
      return Array.isArray(value)
        ? value.slice(0, withItem.n)
        : value === undefined
          ? undefined
          : [value].slice(0, withItem.n);
    }
    case "all": {
      const embed = shape.embeds.find(
        (candidate) => candidate.entity === withItem.entity && candidate.latest === undefined,
      );
      const value = embed === undefined ? undefined : item[embed.as];
      if (value === null) return [];
      return Array.isArray(value) ? value : value === undefined ? undefined : [value];
    }
    default:
      return withItem satisfies never;
  }
}

/** The attribute of each element of a many-to-many copy's array, in the order of their keys. */
function linkedValues(array: unknown, key: readonly string[], attribute: string): unknown[] {
  const elements = (Array.isArray(array) ? array : []).filter(
    (element): element is Record<string, unknown> => typeof element === "object" && element !== null,
  );
  return [...elements]
    .sort((a, b) => compareKeys({ key }, a, b))
    .map((element) => element[attribute] ?? null);
}

/**
 * The entity records a stored item holds: for a bucketed item type, each record of its
 * `records` array (the records of the bucket, to be filtered by the pattern client-side), else
 * the item itself.
 */
export function unpackItem(
  itemType: ItemType,
  item: Readonly<Record<string, unknown>>,
): readonly Readonly<Record<string, unknown>>[] {
  if (itemType.bucket === undefined) return [item];
  const records = item[BUCKET_RECORDS_PROPERTY];
  return Array.isArray(records)
    ? records.filter(
        (record): record is Record<string, unknown> => typeof record === "object" && record !== null,
      )
    : [];
}
