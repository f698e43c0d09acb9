/**
 * What the read functions of a generated module return: the items, the request charge and the
 * related data of follow-up reads.
 */
import { BUCKET_RECORDS_PROPERTY, truncateUtf8, type StoredItem } from "./items.js";

/** Related data returned by a follow-up step of a read. */
export interface FollowUpResult {
  readonly container: string;
  readonly itemType: string;
  /** True when the step ran once per item of the first step ("byResult" is aligned with "items"). */
  readonly perResult: boolean;
  readonly items: unknown[];
  readonly byResult: unknown[][];
}

/** The answer of a read access pattern. */
export interface ReadResult {
  readonly items: StoredItem[];
  /** The first item (point reads), or undefined. */
  readonly item: StoredItem | undefined;
  readonly requestCharge: number;
  readonly followUps: FollowUpResult[];
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
