/**
 * The expected answer of every read access pattern, computed in memory from the normalized
 * dataset and the workload's own semantics, independently of the model and of the plans: verify
 * compares what Cosmos DB returns through the model with these answers. Pure.
 *
 * Semantics (spec/workload-format.md):
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
import { CosmosModelerError } from "../errors.js";
import type { Dataset, EntityRecord } from "../synthetic/generate-records.js";
import type { Rng } from "../synthetic/random.js";
import type {
  AccessPattern,
  Entity,
  ReadPattern,
  Relationship,
  WithItem,
  Workload,
  WritePattern,
} from "../workload/types.js";
import { formatWithItem } from "../workload/with-items.js";
import { compareValues, jsonEqual, newestFirst } from "../synthetic/record-order.js";

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

function isRange(value: ParameterValue | undefined): value is RangeValue {
  return typeof value === "object" && value !== null && !Array.isArray(value) && "from" in value;
}

/** The property name the oracle gives a `with` entry (its text in the workload file). */
export function withLabel(item: WithItem): string {
  return formatWithItem(item);
}

function entityOf(workload: Workload, name: string): Entity {
  const entity = workload.entities.find((candidate) => candidate.name === name);
  if (entity === undefined) {
    throw new CosmosModelerError("verify.unknownEntity", `the workload has no entity "${name}"`, {
      context: { entity: name },
    });
  }
  return entity;
}

function recordsOf(dataset: Dataset, entity: string): readonly EntityRecord[] {
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
 * The longest prefix of `text` whose UTF-8 encoding fits in `bytes` (never half a character).
 * @example truncateToBytes("naïve", 3) // "na" (ï takes 2 bytes)
 */
export function truncateToBytes(text: string, bytes: number): string {
  let used = 0;
  let end = 0;
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    const size = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    if (used + size > bytes) break;
    used += size;
    end += char.length;
  }
  return text.slice(0, end);
}

/** The relationship in which `child` holds the key of `parent` (the first one, when several). */
export function linkBetween(
  workload: Workload,
  parent: string,
  child: string,
): (Relationship & { readonly via: string }) | undefined {
  return workload.relationships.find(
    (relationship): relationship is Relationship & { readonly via: string } =>
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
  const key = record[entityOf(workload, parent).key];
  return recordsOf(dataset, child).filter((candidate) => jsonEqual(candidate[link.via], key));
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
    const parentKey = entityOf(workload, related).key;
    const parent = recordsOf(dataset, related).find((candidate) =>
      jsonEqual(candidate[parentKey], record[toParent.via]),
    );
    return parent?.[attribute] ?? null;
  }
  const toChild = linkBetween(workload, entity, related);
  if (toChild !== undefined) {
    return childrenOf(workload, dataset, entity, record, related)[0]?.[attribute] ?? null;
  }
  throw new CosmosModelerError(
    "verify.unrelatedWith",
    `no relationship with a "via" attribute links ${entity} and ${related}; the oracle cannot find ${related}.${attribute}`,
    { context: { entity, related, attribute } },
  );
}

/** The key value of a record of the pattern's entity. */
export function recordKey(workload: Workload, entity: string, record: EntityRecord): unknown {
  return record[entityOf(workload, entity).key];
}

/**
 * The dataset after one write of a write pattern. `record` is the written entity record: the
 * whole record for create, replace, upsert and delete (only its key matters for delete), and for
 * patch at least the key and the changed attributes, merged into the stored record. Derived data
 * (copied usernames, counters) is not stored: the oracle recomputes it from the records, so reads
 * after writes see current values. Like Cosmos DB: create of an existing key throws
 * `verify.conflict`, replace/patch/delete of a missing key throws `verify.notFound`; deletes do
 * not cascade to children.
 */
export function applyWriteToDataset(
  workload: Workload,
  dataset: Dataset,
  pattern: WritePattern,
  record: EntityRecord,
): Dataset {
  const entity = entityOf(workload, pattern.entity);
  const records = recordsOf(dataset, entity.name);
  const key = record[entity.key];
  const at = records.findIndex((candidate) => jsonEqual(candidate[entity.key], key));
  const missing = (): never => {
    throw new CosmosModelerError(
      "verify.notFound",
      `${pattern.id} ${pattern.operation}: ${entity.name} ${JSON.stringify(key)} does not exist`,
      { context: { pattern: pattern.id, key } },
    );
  };
  let next: readonly EntityRecord[];
  switch (pattern.operation) {
    case "create":
      if (at >= 0) {
        throw new CosmosModelerError(
          "verify.conflict",
          `${pattern.id} create: ${entity.name} ${JSON.stringify(key)} already exists`,
          { context: { pattern: pattern.id, key } },
        );
      }
      next = [...records, record];
      break;
    case "replace":
      if (at < 0) return missing();
      next = records.map((candidate, index) => (index === at ? record : candidate));
      break;
    case "upsert":
      next =
        at < 0
          ? [...records, record]
          : records.map((candidate, index) => (index === at ? record : candidate));
      break;
    case "patch":
      if (at < 0) return missing();
      next = records.map((candidate, index) => (index === at ? { ...candidate, ...record } : candidate));
      break;
    case "delete":
      if (at < 0) return missing();
      next = records.filter((_, index) => index !== at);
      break;
    default:
      return pattern.operation satisfies never;
  }
  return { ...dataset, entities: { ...dataset.entities, [entity.name]: next } };
}

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
  if (pattern.where.length === 0) return {};
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
  const parentsWithChildren = childEntities.map((child) => {
    const via = linkBetween(workload, pattern.entity, child)?.via ?? "";
    return new Set(recordsOf(dataset, child).map((record) => JSON.stringify(record[via])));
  });
  const hasAll = records.filter((record) =>
    parentsWithChildren.every((keys) => keys.has(JSON.stringify(record[key]))),
  );
  if (hasAll.length > 0) return hasAll;
  const hasSome = records.filter((record) =>
    parentsWithChildren.some((keys) => keys.has(JSON.stringify(record[key]))),
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
  // Half-open bounds: `to` just above the last value wanted.
  const to = typeof last === "number" ? nextAbove(last) : `${String(last)}\uffff`;
  return { from, to };
}

function nextAbove(value: number): number {
  const step = Math.max(Number.EPSILON, Math.abs(value) * Number.EPSILON * 4);
  return Number.isInteger(value) ? value + 1 : value + step;
}

/** True when the pattern is a read (narrows `AccessPattern`). */
export function isReadPattern(pattern: AccessPattern): pattern is ReadPattern {
  return pattern.type === "read";
}
