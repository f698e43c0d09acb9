/**
 * What the read functions of a generated module return: a page of items (typed per item type),
 * the continuation token of the next page, the request charge and the related data of follow-up
 * reads. Point reads skip soft-delete tombstones (a tombstone is an item that no longer exists).
 */
import { liveItem, type ItemTypeShape, type StoredItem } from "./items.js";

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
