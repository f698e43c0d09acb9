/**
 * The expected answer of every read access pattern, computed in memory from the normalized
 * dataset and the workload's own semantics, independently of the model and of the plans: verify
 * compares what Cosmos DB returns through the model with these answers. Pure.
 *
 * Semantics (docs/workload-format.md):
 * - `where`: eq (equal JSON values), range (from <= value < to, values of the same type, like
 *   Cosmos DB comparisons; the planner's queries use the same half-open bounds), in (one of a
 *   list), contains (an array attribute holding the value), prefix (a string starting with it);
 * - `orderBy` sorts with Cosmos DB's order of types (undefined < null < booleans < numbers <
 *   strings), ties keep the dataset order; `limit` keeps the first N; `select` keeps the listed
 *   attributes; `truncate` cuts strings to N bytes of UTF-8 without splitting a character;
 * - `with` adds one property per entry, named by the entry's text (`User.username`,
 *   `count(Comment)`, `sum(Bet.amount)`, `latest(Comment, 3)`, `all(OrderItem)`): the parent's
 *   attribute, the number of children, sum (0 when none) / min / max (null when none) of a child
 *   attribute, the newest N children (newest first, by the child's first datetime attribute) and
 *   all children, following the relationships' `via` attributes.
 */
import { CosmosModelerError } from "../common/errors.js";
import { truncateUtf8 } from "../runtime/items.js";
import type { Dataset, EntityRecord } from "../synthetic/generate-records.js";
import { linkedRecords } from "../synthetic/many-to-many-links.js";
import type { Entity, ReadPattern, Relationship, WithItem, Workload } from "../workload/types.js";
import { formatWithItem } from "../workload/with-items.js";
import { compareValues, holdsParentKey, jsonEqual, newestFirst } from "../synthetic/record-order.js";

import { nearestNeighbours, omittedVectors } from "./search-oracle.js";
export { compareValues, jsonEqual, newestFirst, recencyAttribute } from "../synthetic/record-order.js";

export type ScalarValue = string | number | boolean;

/** Bounds of a `range` predicate: from <= value < to. */
export interface RangeValue {
  readonly from: ScalarValue;
  readonly to: ScalarValue;
}

/** A predicate's value: a scalar (eq, contains, prefix), a list (in) or bounds (range). */
export type ParameterValue = ScalarValue | readonly ScalarValue[] | RangeValue;

/** Parameter values of one request of a read pattern, by `where` attribute. */
export type PatternParameters = Readonly<Record<string, ParameterValue>>;

/**
 * The value a plan's `{kind: "input", attribute, bound?}` source stands for: the parameter, or one
 * bound of a range.
 */
export function inputValue(
  parameters: PatternParameters,
  attribute: string,
  bound?: "from" | "to",
): ParameterValue | undefined {
  const value = parameters[attribute];
  if (bound === undefined || !isRange(value)) return value;
  return value[bound];
}

/** True for the bounds of a `range` predicate. */
export function isRange(value: ParameterValue | undefined): value is RangeValue {
  return typeof value === "object" && value !== null && !Array.isArray(value) && "from" in value;
}

/** The property name the oracle gives a `with` entry (its text in the workload file). */
export function withLabel(item: WithItem): string {
  return formatWithItem(item);
}

/** The workload's entity of that name; throws `verify.unknownEntity`. */
export function entityOf(workload: Workload, name: string): Entity {
  const entity = workload.entities.find((candidate) => candidate.name === name);
  if (entity === undefined) {
    throw new CosmosModelerError("verify.unknownEntity", `the workload has no entity "${name}"`, {
      context: { entity: name },
    });
  }
  return entity;
}

/** The dataset's records of an entity (none when absent). */
export function recordsOf(dataset: Dataset, entity: string): readonly EntityRecord[] {
  return dataset.entities[entity] ?? [];
}

/**
 * The expected answer of a read pattern for the given parameter values.
 * @example answerReadPattern(workload, dataset, q3, { userId: "user-000001" })
 *   // [{ postId, userId, title, content (200 bytes), creationDate, "User.username": ..., "count(Comment)": 4 }]
 */
export function answerReadPattern(
  workload: Workload,
  dataset: Dataset,
  pattern: ReadPattern,
  parameters: PatternParameters,
): readonly Record<string, unknown>[] {
  return answerWithSortValues(workload, dataset, pattern, parameters).map((entry) => entry.result);
}

/** One answer record with the values of the pattern's `orderBy` attributes (selected or not). */
export interface SortedAnswer {
  readonly result: Record<string, unknown>;
  readonly sortValues: readonly unknown[];
}

/** `answerReadPattern`, keeping each result's sort values (for checks when `select` omits them). */
export function answerWithSortValues(
  workload: Workload,
  dataset: Dataset,
  pattern: ReadPattern,
  parameters: PatternParameters,
): readonly SortedAnswer[] {
  const matches = recordsOf(dataset, pattern.entity).filter((record) =>
    pattern.where.every((predicate) =>
      matchesPredicate(record[predicate.attribute], predicate.op, parameters[predicate.attribute]),
    ),
  );
  const search = pattern.search;
  if (search !== undefined && search.kind === "vector") {
    // The exact k nearest neighbours (brute force), without the vectors the query leaves out.
    const entity = entityOf(workload, pattern.entity);
    const distance = entity.attributes.find((a) => a.name === search.vector)?.vector?.distance ?? "cosine";
    const query = parameters[search.vector];
    const vector = Array.isArray(query) ? (query as readonly number[]) : [];
    const omitted = omittedVectors(entity, pattern);
    return nearestNeighbours(matches, search.vector, vector, distance, search.k).map(({ record, score }) => ({
      result: Object.fromEntries(
        Object.entries(shapeResult(workload, dataset, pattern, record)).filter(
          ([name]) => !omitted.has(name),
        ),
      ),
      sortValues: [score],
    }));
  }
  const ordered =
    pattern.orderBy.length === 0
      ? matches
      : matches
          .map((record, position) => ({ record, position }))
          .sort((a, b) => {
            for (const key of pattern.orderBy) {
              const order = compareValues(a.record[key.attribute], b.record[key.attribute]);
              if (order !== 0) return key.direction === "asc" ? order : -order;
            }
            return a.position - b.position;
          })
          .map((entry) => entry.record);
  const limited = pattern.limit === undefined ? ordered : ordered.slice(0, pattern.limit);
  return limited.map((record) => ({
    result: shapeResult(workload, dataset, pattern, record),
    sortValues: pattern.orderBy.map((key) => record[key.attribute]),
  }));
}

function shapeResult(
  workload: Workload,
  dataset: Dataset,
  pattern: ReadPattern,
  record: EntityRecord,
): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  const names = pattern.select ?? Object.keys(record);
  for (const name of names) {
    if (!(name in record)) continue;
    const cut = pattern.truncate.find((truncation) => truncation.attribute === name);
    const value = record[name];
    result[name] = cut !== undefined && typeof value === "string" ? truncateToBytes(value, cut.bytes) : value;
  }
  for (const item of pattern.with) {
    result[withLabel(item)] = relatedValue(workload, dataset, pattern.entity, record, item);
  }
  return result;
}

/** True when `value` satisfies the predicate with the parameter; a missing parameter matches nothing. */
export function matchesPredicate(
  value: unknown,
  op: ReadPattern["where"][number]["op"],
  parameter: ParameterValue | undefined,
): boolean {
  if (parameter === undefined) return false;
  switch (op) {
    case "eq":
      return jsonEqual(value, parameter);
    case "in":
      return Array.isArray(parameter) && parameter.some((candidate) => jsonEqual(value, candidate));
    case "contains":
      return Array.isArray(value) && value.some((element) => jsonEqual(element, parameter));
    case "prefix":
      return typeof value === "string" && typeof parameter === "string" && value.startsWith(parameter);
    case "range": {
      if (!isRange(parameter)) return false;
      const low = compareSameType(value, parameter.from);
      const high = compareSameType(value, parameter.to);
      return low !== undefined && high !== undefined && low >= 0 && high < 0;
    }
    default:
      return op satisfies never;
  }
}

/** Comparison of two values of the same JSON scalar type; undefined across types (as in Cosmos DB). */
function compareSameType(a: unknown, b: unknown): number | undefined {
  if (typeof a !== typeof b) return undefined;
  if (typeof a === "number" || typeof a === "string" || typeof a === "boolean") return compareValues(a, b);
  return undefined;
}

/**
 * The longest prefix of `text` whose UTF-8 encoding fits in `bytes` (never half a character): the
 * runtime's own cut, the one generated reads apply.
 * @example truncateToBytes("naïve", 3) // "na" (ï takes 2 bytes)
 */
export const truncateToBytes = truncateUtf8;

/** The relationship in which `child` holds the key of `parent` (the first one, when several). */
export function linkBetween(
  workload: Workload,
  parent: string,
  child: string,
): (Relationship & { readonly via: readonly string[] }) | undefined {
  return workload.relationships.find(
    (relationship): relationship is Relationship & { readonly via: readonly string[] } =>
      relationship.parent === parent && relationship.child === child && relationship.via !== undefined,
  );
}

/** The children of `record` (an item of `parent`) in the child entity, in dataset order. */
export function childrenOf(
  workload: Workload,
  dataset: Dataset,
  parent: string,
  record: EntityRecord,
  child: string,
): readonly EntityRecord[] {
  const link = linkBetween(workload, parent, child);
  if (link === undefined) {
    throw new CosmosModelerError(
      "verify.unrelatedWith",
      `no relationship with a "via" attribute links ${parent} to its children ${child}; the oracle cannot follow it`,
      { context: { parent, child } },
    );
  }
  const parentEntity = entityOf(workload, parent);
  return recordsOf(dataset, child).filter((candidate) =>
    holdsParentKey(parentEntity, link.via, record, candidate),
  );
}

/** The value of one `with` entry for a record of `entity`. */
export function relatedValue(
  workload: Workload,
  dataset: Dataset,
  entity: string,
  record: EntityRecord,
  item: WithItem,
): unknown {
  switch (item.kind) {
    case "attribute":
      return relatedAttribute(workload, dataset, entity, record, item.entity, item.attribute);
    case "count":
      return childrenOf(workload, dataset, entity, record, item.entity).length;
    case "aggregate": {
      const values = childrenOf(workload, dataset, entity, record, item.entity)
        .map((child) => child[item.attribute])
        .filter((value): value is number => typeof value === "number");
      if (item.fn === "sum") return values.reduce((sum, value) => sum + value, 0);
      if (values.length === 0) return null;
      return item.fn === "min" ? Math.min(...values) : Math.max(...values);
    }
    case "latest":
      return newestFirst(
        entityOf(workload, item.entity),
        childrenOf(workload, dataset, entity, record, item.entity),
      ).slice(0, item.n);
    case "all":
      return childrenOf(workload, dataset, entity, record, item.entity);
    default:
      return item satisfies never;
  }
}

function relatedAttribute(
  workload: Workload,
  dataset: Dataset,
  entity: string,
  record: EntityRecord,
  related: string,
  attribute: string,
): unknown {
  if (related === entity) return record[attribute] ?? null;
  const toParent = linkBetween(workload, related, entity);
  if (toParent !== undefined) {
    const parentEntity = entityOf(workload, related);
    const parent = recordsOf(dataset, related).find((candidate) =>
      holdsParentKey(parentEntity, toParent.via, candidate, record),
    );
    return parent?.[attribute] ?? null;
  }
  const toChild = linkBetween(workload, entity, related);
  if (toChild !== undefined) {
    return childrenOf(workload, dataset, entity, record, related)[0]?.[attribute] ?? null;
  }
  // Many-to-many: the attribute of every linked record, in the order of their keys.
  const linked = linkedRecords(workload, dataset, entity, record, related);
  if (linked !== undefined) return linked.map((other) => other[attribute] ?? null);
  throw new CosmosModelerError(
    "verify.unrelatedWith",
    `no relationship with a "via" attribute links ${entity} and ${related}; the oracle cannot find ${related}.${attribute}`,
    { context: { entity, related, attribute } },
  );
}

/** The key of a record of the pattern's entity: its value, or the list of values of a composite key. */
export function recordKey(workload: Workload, entity: string, record: EntityRecord): unknown {
  const key = entityOf(workload, entity).key;
  return key.length === 1 ? record[key[0] ?? ""] : key.map((name) => record[name]);
}
