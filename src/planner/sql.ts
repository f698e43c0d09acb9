/**
 * Parameterized Cosmos DB SQL for planned queries. Values never enter the SQL text: every
 * value is a `@parameter` whose source the plan records, so generated code and verify bind
 * them safely. Property names come from the model and the workload, and are quoted with the
 * bracket syntax (`c["name"]`) whenever they are not plain identifiers.
 */
import type { Predicate, SortKey } from "../workload/types.js";
import type { QueryParameter, ValueSource } from "./types.js";
import { propertyRef } from "../runtime/sql.js";

/** `c.name`, or `c["desc"]` for names that are not safe identifiers or are reserved words. */
export { propertyRef } from "../runtime/sql.js";

/** A parameter name derived from a property name (letters and digits only). */
function parameterName(name: string, used: Set<string>): string {
  const base = `@${name.replace(/[^A-Za-z0-9_]/g, "_") || "p"}`;
  let candidate = base;
  for (let n = 2; used.has(candidate); n++) candidate = `${base}${n}`;
  used.add(candidate);
  return candidate;
}

/** A condition on a property that is not an attribute predicate (type, partition key property). */
export interface KeyCondition {
  readonly property: string;
  readonly source: ValueSource;
  /** The parameter is an array of values (every write shard of a key): `ARRAY_CONTAINS`. */
  readonly many?: boolean;
}

export interface QuerySpec {
  /** Conditions on `type` and partition key properties (equality). */
  readonly keys: readonly KeyCondition[];
  /** Attribute predicates; values come from the caller (or from results when `fromResult`). */
  readonly predicates: readonly Predicate[];
  /** Where predicate values come from: the caller's input or the previous step's items. */
  readonly valuesFrom: "input" | "result";
  /** A window bucket's time attribute: the lower bound of a range on it is aligned to the window. */
  readonly window?: { readonly attribute: string; readonly seconds: number };
  /**
   * A bucket item type: its records are in the array `property`; the bucket item itself holds
   * only `itemAttributes` (those of its id and key templates) and, for a time window, the window
   * start under `window.attribute`. A predicate on any other attribute (or an equality, prefix...
   * on the window attribute, whose item value is the window start) is a condition on the
   * records: `EXISTS(SELECT VALUE r FROM r IN c.records WHERE r.x = @x)`, true for a bucket that
   * holds a matching record (the caller keeps the matching records of each bucket).
   */
  readonly records?: { readonly property: string; readonly itemAttributes: readonly string[] };
  /** With `valuesFrom: "result"`: the result property holding each predicate's value, when named differently. */
  readonly resultNames?: Readonly<Record<string, string>>;
  readonly orderBy: readonly SortKey[];
  /**
   * The items carry their ORDER BY values (`orderValues` of the built query): a client merging
   * the pages of several such queries (one per write shard) orders by them. A value the
   * projection leaves out or cuts is added as `_order<n>`.
   */
  readonly orderValues?: boolean;
  readonly top?: number;
  /** Properties returned; absent = the whole item. */
  readonly projection?: readonly string[];
  /** The tombstone property of a soft-deleted item type: tombstones are left out (`NOT IS_DEFINED`). */
  readonly excludeTombstones?: string;
  /**
   * Projected string properties cut to at most this many characters (`LEFT(c.x, n) AS x`), so
   * the response carries only them; the caller cuts to bytes (a character may take up to 4).
   */
  readonly truncate?: Readonly<Record<string, number>>;
  /** `SELECT VALUE COUNT(1)` and friends instead of items. */
  readonly aggregate?: { readonly fn: "count" | "sum" | "min" | "max"; readonly attribute?: string };
  /**
   * A search (replaces `orderBy` and `top`): `TOP k` ordered by VectorDistance (a vector), by
   * RANK FullTextScore (a text, its terms also filtering with FullTextContainsAny), or by RANK
   * RRF of both (hybrid); the VectorDistance is returned as `scoreProperty`.
   */
  readonly search?: {
    readonly k: number;
    readonly vector?: string;
    readonly text?: { readonly property: string; readonly terms: number };
    readonly scoreProperty: string;
  };
}

export interface BuiltQuery {
  readonly sql: string;
  readonly parameters: readonly QueryParameter[];
  /** With `orderValues`: the property of each item holding each ORDER BY value, in order. */
  readonly orderValues?: readonly OrderValue[];
}

/** Where an item of a query holds one of its ORDER BY values (`alias`: added for the merge only). */
export interface OrderValue {
  readonly property: string;
  readonly direction: "asc" | "desc";
  readonly alias: boolean;
}

/** The ORDER BY values of a query's items: the attribute itself where the projection returns it whole. */
function orderValuesOf(spec: QuerySpec): OrderValue[] {
  return spec.orderBy.map((key, index) => {
    const whole =
      spec.projection === undefined ||
      (spec.projection.includes(key.attribute) && spec.truncate?.[key.attribute] === undefined);
    return whole
      ? { property: key.attribute, direction: key.direction, alias: false }
      : { property: `_order${index}`, direction: key.direction, alias: true };
  });
}

/**
 * Builds the SQL text and its parameters.
 * @example buildQuery({ keys: [{ property: "type", source: { kind: "literal", value: "post" } }], predicates: [{ attribute: "userId", op: "eq" }], valuesFrom: "input", orderBy: [] })
 * // SELECT * FROM c WHERE c.type = @type AND c.userId = @userId
 */
export function buildQuery(spec: QuerySpec): BuiltQuery {
  const used = new Set<string>();
  const parameters: QueryParameter[] = [];
  const conditions: string[] = [];
  const bind = (name: string, source: ValueSource): string => {
    const parameter = parameterName(name, used);
    parameters.push({ name: parameter, source });
    return parameter;
  };
  for (const key of spec.keys) {
    const parameter = bind(key.property, key.source);
    conditions.push(
      key.many === true
        ? `ARRAY_CONTAINS(${parameter}, ${propertyRef(key.property)})`
        : `${propertyRef(key.property)} = ${parameter}`,
    );
  }
  const valueOf = (attribute: string, bound?: "from" | "to"): ValueSource => {
    if (spec.valuesFrom === "result")
      return { kind: "fromResult", attribute: spec.resultNames?.[attribute] ?? attribute };
    if (bound === undefined) return { kind: "input", attribute };
    const align =
      bound === "from" && spec.window?.attribute === attribute
        ? { alignToWindowSeconds: spec.window.seconds }
        : {};
    return { kind: "input", attribute, bound, ...align };
  };
  const recordConditions: string[] = [];
  for (const predicate of spec.predicates) {
    const onRecord = spec.records !== undefined && !onBucketItem(spec, predicate);
    const ref = propertyRef(predicate.attribute, onRecord ? "r" : "c");
    const target = onRecord ? recordConditions : conditions;
    switch (predicate.op) {
      case "eq":
        target.push(`${ref} = ${bind(predicate.attribute, valueOf(predicate.attribute))}`);
        break;
      case "in":
        target.push(`ARRAY_CONTAINS(${bind(predicate.attribute, valueOf(predicate.attribute))}, ${ref})`);
        break;
      case "contains":
        target.push(`ARRAY_CONTAINS(${ref}, ${bind(predicate.attribute, valueOf(predicate.attribute))})`);
        break;
      case "prefix":
        target.push(`STARTSWITH(${ref}, ${bind(predicate.attribute, valueOf(predicate.attribute))})`);
        break;
      case "range":
        target.push(`${ref} >= ${bind(`${predicate.attribute}From`, valueOf(predicate.attribute, "from"))}`);
        // A bucket's window start is compared with both bounds aligned down to the window: the
        // start is written without milliseconds ("10:15:00Z" sorts after "10:15:00.500Z"), so
        // `start < to` would drop the bucket holding the range's last records, while
        // `start <= aligned to` keeps it and no later bucket (the index bounds the scan); its
        // records test the exact bounds.
        target.push(
          windowRange(spec, predicate, onRecord)
            ? `${ref} <= ${bind(`${predicate.attribute}ToWindow`, alignedTo(spec, predicate.attribute))}`
            : `${ref} < ${bind(`${predicate.attribute}To`, valueOf(predicate.attribute, "to"))}`,
        );
        break;
      default:
        return predicate.op satisfies never;
    }
    if (windowRange(spec, predicate, onRecord)) {
      // The window range tests the records too: the first bucket (its start aligned down to the
      // window) may hold only records before the range, the last ones after it, and a page of
      // buckets must hold at least as many matching records as buckets.
      const from: ValueSource =
        spec.valuesFrom === "result"
          ? valueOf(predicate.attribute)
          : { kind: "input", attribute: predicate.attribute, bound: "from" };
      const record = propertyRef(predicate.attribute, "r");
      recordConditions.push(
        `${record} >= ${bind(`${predicate.attribute}From`, from)}`,
        `${record} < ${bind(`${predicate.attribute}To`, valueOf(predicate.attribute, "to"))}`,
      );
    }
  }
  if (spec.records !== undefined && recordConditions.length > 0) {
    // One record must match every record condition (not one record each).
    conditions.push(
      `EXISTS(SELECT VALUE r FROM r IN ${propertyRef(spec.records.property)} WHERE ${recordConditions.join(" AND ")})`,
    );
  }
  if (spec.excludeTombstones !== undefined)
    conditions.push(`NOT IS_DEFINED(${propertyRef(spec.excludeTombstones)})`);
  if (spec.search !== undefined) return searchQuery(spec, spec.search, conditions, parameters, bind);
  const orderValues =
    spec.orderValues === true && spec.aggregate === undefined && spec.orderBy.length > 0
      ? orderValuesOf(spec)
      : undefined;
  const added = (orderValues ?? []).flatMap((value, index) => {
    const key = spec.orderBy[index];
    return value.alias && key !== undefined
      ? [{ name: value.property, ref: propertyRef(key.attribute) }]
      : [];
  });
  let select: string;
  if (spec.aggregate !== undefined) {
    const target = spec.aggregate.attribute === undefined ? "1" : propertyRef(spec.aggregate.attribute);
    select = `VALUE ${spec.aggregate.fn.toUpperCase()}(${target})`;
  } else if (spec.projection !== undefined) {
    select = projectionClause(spec.projection, spec.truncate ?? {}, bind, added);
  } else {
    select = "*";
  }
  const top = spec.top === undefined ? "" : `TOP ${bind("limit", { kind: "limit", value: spec.top })} `;
  const where = conditions.length === 0 ? "" : ` WHERE ${conditions.join(" AND ")}`;
  const order =
    spec.orderBy.length === 0 || spec.aggregate !== undefined
      ? ""
      : ` ORDER BY ${spec.orderBy.map((s) => `${propertyRef(s.attribute)} ${s.direction.toUpperCase()}`).join(", ")}`;
  return {
    sql: `SELECT ${top}${select} FROM c${where}${order}`,
    parameters,
    ...(orderValues === undefined ? {} : { orderValues }),
  };
}

/**
 * A search query, in the grammar of the service's documentation (checked 2026-11-29):
 * `SELECT TOP @limit ..., VectorDistance(c.v, @v) AS score FROM c WHERE ... ORDER BY
 * VectorDistance(c.v, @v)` (most similar first, whatever the distance function), `ORDER BY RANK
 * FullTextScore(c.t, @term1, ...)` with `FullTextContainsAny(c.t, @term1, ...)` in the WHERE
 * clause, or `ORDER BY RANK RRF(VectorDistance(...), FullTextScore(...))`. FullTextScore can only
 * be used in ORDER BY RANK or RRF, so only the VectorDistance is returned.
 * Sources: query/vectordistance, query/fulltextscore, query/fulltextcontainsany, gen-ai/hybrid-search.
 */
function searchQuery(
  spec: QuerySpec,
  search: NonNullable<QuerySpec["search"]>,
  conditions: string[],
  parameters: QueryParameter[],
  bind: (name: string, source: ValueSource) => string,
): BuiltQuery {
  const distance =
    search.vector === undefined
      ? undefined
      : `VectorDistance(${propertyRef(search.vector)}, ${bind(search.vector, { kind: "input", attribute: search.vector })})`;
  const terms =
    search.text === undefined
      ? []
      : Array.from({ length: search.text.terms }, (_, i) =>
          bind(`term${i + 1}`, { kind: "searchTerm", index: i + 1 }),
        );
  const score =
    search.text === undefined
      ? undefined
      : `FullTextScore(${propertyRef(search.text.property)}, ${terms.join(", ")})`;
  if (search.text !== undefined && distance === undefined)
    conditions.push(`FullTextContainsAny(${propertyRef(search.text.property)}, ${terms.join(", ")})`);
  const columns =
    spec.projection === undefined ? ["c"] : [projectionClause(spec.projection, spec.truncate ?? {}, bind)];
  if (distance !== undefined) columns.push(`${distance} AS ${search.scoreProperty}`);
  const top = `TOP ${bind("limit", { kind: "limit", value: search.k })}`;
  const where = conditions.length === 0 ? "" : ` WHERE ${conditions.join(" AND ")}`;
  const order =
    distance !== undefined && score !== undefined
      ? `ORDER BY RANK RRF(${distance}, ${score})`
      : distance !== undefined
        ? `ORDER BY ${distance}`
        : `ORDER BY RANK ${score ?? ""}`;
  return { sql: `SELECT ${top} ${columns.join(", ")} FROM c${where} ${order}`, parameters };
}

/** True for a range on a window bucket's time attribute tested on the bucket item (its window start). */
function windowRange(spec: QuerySpec, predicate: Predicate, onRecord: boolean): boolean {
  return (
    spec.records !== undefined &&
    !onRecord &&
    predicate.op === "range" &&
    spec.window?.attribute === predicate.attribute
  );
}

/** The upper bound of a window range aligned down to the window (the last bucket's start). */
function alignedTo(spec: QuerySpec, attribute: string): ValueSource {
  if (spec.valuesFrom === "result")
    return { kind: "fromResult", attribute: spec.resultNames?.[attribute] ?? attribute };
  return spec.window === undefined
    ? { kind: "input", attribute, bound: "to" }
    : { kind: "input", attribute, bound: "to", alignToWindowSeconds: spec.window.seconds };
}

/**
 * True when a predicate of a bucket query tests the bucket item itself: an attribute of its id or
 * key templates, or a range on the window attribute (the bucket's window start, the lower bound
 * aligned to the window so that the bucket holding the range's first records is included).
 */
function onBucketItem(spec: QuerySpec, predicate: Predicate): boolean {
  if (spec.records?.itemAttributes.includes(predicate.attribute) === true) return true;
  return predicate.op === "range" && spec.window?.attribute === predicate.attribute;
}

/**
 * The SELECT list of a projection: `c.a, c.b`, with truncated properties as
 * `LEFT(c.x, @xChars) AS x`; an object (`VALUE {"x y": LEFT(...)}`) when a truncated name cannot
 * be an alias (not a plain identifier, or a keyword). `added` values come last (`c.x AS _order0`).
 */
function projectionClause(
  projection: readonly string[],
  truncate: Readonly<Record<string, number>>,
  bind: (name: string, source: ValueSource) => string,
  added: readonly { readonly name: string; readonly ref: string }[] = [],
): string {
  const columns = projection.map((name) => {
    const chars = truncate[name];
    const ref = propertyRef(name);
    return {
      name,
      ref,
      expression:
        chars === undefined
          ? ref
          : `LEFT(${ref}, ${bind(`${name}Chars`, { kind: "literal", value: chars })})`,
    };
  });
  const cut = columns.filter((column) => column.expression !== column.ref);
  const extra = added.map((value) => `, ${value.ref} AS ${value.name}`).join("");
  if (cut.length === 0) return columns.map((column) => column.ref).join(", ") + extra;
  if (cut.every((column) => column.ref === `c.${column.name}`)) {
    return (
      columns
        .map((column) =>
          column.expression === column.ref ? column.ref : `${column.expression} AS ${column.name}`,
        )
        .join(", ") + extra
    );
  }
  const entries = [
    ...columns.map((column) => `${JSON.stringify(column.name)}: ${column.expression}`),
    ...added.map((value) => `${JSON.stringify(value.name)}: ${value.ref}`),
  ];
  return `VALUE {${entries.join(", ")}}`;
}
