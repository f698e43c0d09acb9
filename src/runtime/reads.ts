/**
 * What the read functions of a generated module return: a page of items (typed per item type),
 * the continuation token of the next page, the request charge and the related data of follow-up
 * reads. Point reads skip soft-delete tombstones (a tombstone is an item that no longer exists).
 */
import {
  BUCKET_RECORDS_PROPERTY,
  liveItem,
  truncateUtf8,
  type ItemTypeShape,
  type StoredItem,
} from "./items.js";

/** Related data returned by a follow-up step of a read. */
export interface FollowUpResult {
  readonly container: string;
  readonly itemType: string;
  /** True when the step ran once per item of the first step ("byResult" is aligned with "items"). */
  readonly perResult: boolean;
  readonly items: unknown[];
  readonly byResult: unknown[][];
}

/** The answer of a read access pattern: a page of items of one item type. */
export interface ReadResult<TItem = StoredItem> {
  readonly items: TItem[];
  /** The first item (point reads), or undefined. */
  readonly item: TItem | undefined;
  readonly requestCharge: number;
  readonly followUps: FollowUpResult[];
  /** Pass it back (with the same input) for the next page; undefined on the last page. */
  readonly continuationToken?: string;
}

/** A point read's answer without its tombstone: what a read function returns. */
export function liveRead<T extends { readonly item: StoredItem | undefined }>(
  shape: Pick<ItemTypeShape, "softDelete">,
  read: T,
): T {
  return { ...read, item: liveItem(shape, read.item) };
}

/**
 * Items from the database, as the item type the plan reads (the query's SQL selects them; this is
 * the one place their type is asserted).
 */
export function itemsAs<TItem>(values: readonly unknown[]): TItem[] {
  return values.filter((value) => typeof value === "object" && value !== null) as TItem[];
}

/** What a read pattern returns of each item: `select` and `truncate`, as the plan states them. */
export interface ReturnedShape {
  /** Properties kept (the selected attributes and what the item holds for `with`); absent = all. */
  readonly properties?: readonly string[];
  /** String attributes cut to at most this many bytes of UTF-8. */
  readonly truncate: readonly { readonly attribute: string; readonly bytes: number }[];
  /** Bucket items: the shape applies to each record of `records`, the bucket's own properties are kept. */
  readonly bucketed: boolean;
}

function shapeRecord(record: StoredItem, shape: ReturnedShape): StoredItem {
  const kept: StoredItem = {};
  for (const [name, value] of Object.entries(record)) {
    if (shape.properties !== undefined && !shape.properties.includes(name)) continue;
    const cut = shape.truncate.find((truncation) => truncation.attribute === name);
    kept[name] = cut !== undefined && typeof value === "string" ? truncateUtf8(value, cut.bytes) : value;
  }
  return kept;
}

/**
 * The items a read returns to its caller: only the pattern's properties (a point read is charged
 * for the whole item all the same), strings cut to their bytes.
 */
export function shapeItems(items: readonly StoredItem[], shape: ReturnedShape): StoredItem[] {
  return items.map((item) => {
    if (!shape.bucketed) return shapeRecord(item, shape);
    const records = item[BUCKET_RECORDS_PROPERTY];
    if (!Array.isArray(records)) return item;
    return {
      ...item,
      [BUCKET_RECORDS_PROPERTY]: records.map((record: unknown) =>
        typeof record === "object" && record !== null && !Array.isArray(record)
          ? shapeRecord(record as StoredItem, shape)
          : record,
      ),
    };
  });
}

/** Cosmos DB's order of JSON values of different types: undefined, null, booleans, numbers, strings. */
function typeRank(value: unknown): number {
  if (value === undefined) return 0;
  if (value === null) return 1;
  if (typeof value === "boolean") return 2;
  if (typeof value === "number") return 3;
  if (typeof value === "string") return 4;
  return 5;
}

/** Cosmos DB's ORDER BY order of two JSON values (by type, then by value). */
export function compareValues(a: unknown, b: unknown): number {
  const rank = typeRank(a) - typeRank(b);
  if (rank !== 0) return rank;
  if (typeof a === "number" && typeof b === "number") return a - b;
  if (typeof a === "string" && typeof b === "string") return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === "boolean" && typeof b === "boolean") return Number(a) - Number(b);
  return 0;
}

/**
 * Compares two records by their key values, attribute by attribute in key order (the tie-break of
 * "newest first": the greater key first).
 * @example compareKeys(["filmId", "actorId"], { filmId: "f1", actorId: "a2" }, { filmId: "f1", actorId: "a1" }) // > 0
 */
export function compareKeys(
  key: readonly string[],
  a: Readonly<Record<string, unknown>>,
  b: Readonly<Record<string, unknown>>,
): number {
  for (const name of key) {
    const order = compareValues(a[name], b[name]);
    if (order !== 0) return order;
  }
  return 0;
}

/**
 * The inputs of a read of many by `in` filters on addressing attributes: one per combination of
 * their listed values (the cross product; a value given alone counts as a list of one), each
 * combination once, so an item is read once however its values repeat.
 * @example combinationsOf({ a: ["x", "y"], b: [1] }, ["a", "b"]) // [{ a: "x", b: 1 }, { a: "y", b: 1 }]
 */
export function combinationsOf(
  input: Readonly<Record<string, unknown>>,
  names: readonly string[],
): Record<string, unknown>[] {
  let combinations: Record<string, unknown>[] = [{}];
  for (const name of names) {
    const value = input[name];
    const values = Array.isArray(value) ? (value as unknown[]) : [value];
    combinations = combinations.flatMap((partial) => values.map((one) => ({ ...partial, [name]: one })));
  }
  const seen = new Set<string>();
  return combinations.filter((combination) => {
    const key = JSON.stringify(names.map((name) => combination[name]));
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Items read by their keys (a read of many answers in the order asked), as a query with the
 * pattern's ORDER BY and TOP would answer them: sorted by `orderBy`, the first `limit` kept.
 */
export function firstInOrder<T extends StoredItem>(
  items: readonly T[],
  orderBy: readonly { readonly attribute: string; readonly direction: "asc" | "desc" }[],
  limit: number | undefined,
): T[] {
  const sorted = [...items].sort((a, b) => {
    for (const key of orderBy) {
      const order = compareValues(a[key.attribute], b[key.attribute]);
      if (order !== 0) return key.direction === "asc" ? order : -order;
    }
    return 0;
  });
  return limit === undefined ? sorted : sorted.slice(0, limit);
}
