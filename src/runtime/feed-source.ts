/**
 * The change feed as the processor reads it: the feed ranges of a container, and a reader per
 * range that resumes from a continuation. `cosmosFeedSource` reads `@azure/cosmos`'s pull model
 * (`getChangeFeedIterator` per `FeedRange`, which follows splits of its range itself); tests pass
 * an in-memory feed with the same contract.
 */
import {
  ChangeFeedMode,
  ChangeFeedStartFrom,
  type ChangeFeedPullModelIterator,
  type Database,
  type FeedRange,
} from "@azure/cosmos";
import { guardContainer } from "./guarded-container.js";
import type { RetryOptions } from "./retry.js";

/** Which change feed: latest version (creates and updates) or all versions and deletes. */
export type ChangeFeedModeName = "latestVersion" | "allVersionsAndDeletes";

/** A feed range of a container, by the key of its effective partition key range. */
export interface FeedRangeKey {
  /** `min..max` (hex effective partition keys; "" is the lowest, "FF" the highest). */
  readonly key: string;
}

/** One read of a feed range. */
export interface FeedPage {
  /** The changes, as the feed returns them (items, or `{ current, metadata }` in AVAD mode). */
  readonly changes: readonly unknown[];
  /** Where the next read starts: save it once the changes are applied. */
  readonly continuation: string;
  readonly requestCharge: number;
}

/** Reads one feed range, page after page. */
export interface FeedReader {
  read(): Promise<FeedPage>;
}

/** Where a reader starts when its lease has no continuation yet. */
export type FeedStart = "beginning" | "now";

/** A change feed by ranges. */
export interface FeedSource {
  /** The current feed ranges of a container. */
  ranges(container: string): Promise<readonly FeedRangeKey[]>;
  /** A reader of `range` from `continuation`, or from `start` when there is none. */
  open(container: string, range: string, continuation: string | undefined, start: FeedStart): FeedReader;
}

/** The key of a range: `min..max`. */
export function rangeKey(min: string, max: string): string {
  return `${min}..${max}`;
}

/** The bounds of a range key. */
export function rangeBounds(key: string): { readonly min: string; readonly max: string } {
  const at = key.indexOf("..");
  return at < 0 ? { min: "", max: "FF" } : { min: key.slice(0, at), max: key.slice(at + 2) };
}

/**
 * Compares two effective partition keys (upper-case hex strings of any length, "" lowest): by
 * value, as the service orders them.
 */
function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** True when range `outer` holds all of range `inner`. */
export function rangeCovers(outer: string, inner: string): boolean {
  const o = rangeBounds(outer);
  const i = rangeBounds(inner);
  return compareKeys(o.min, i.min) <= 0 && compareKeys(i.max, o.max) <= 0;
}

/**
 * The change feed of a database through `@azure/cosmos`. A 304 (nothing new) is an empty page.
 * `onCharge` receives each read's request charge.
 */
export function cosmosFeedSource(
  database: Database,
  options: {
    readonly mode: ChangeFeedModeName;
    readonly maxItemCount: number;
    readonly onCharge?: (requestCharge: number) => void;
    /** How throttled (429) and transiently failing reads are retried (default RetryOptions). */
    readonly retry?: RetryOptions;
  },
): FeedSource {
  const known = new Map<string, FeedRange>();
  return {
    async ranges(container) {
      const ranges = await guardContainer(database.container(container), options.retry).getFeedRanges();
      return ranges.map((range) => {
        const key = rangeKey(range.minInclusive, range.maxExclusive);
        known.set(`${container}\u0000${key}`, range);
        return { key };
      });
    },
    open(container, range, continuation, start) {
      let startFrom: ChangeFeedStartFrom;
      if (continuation !== undefined) {
        startFrom = ChangeFeedStartFrom.Continuation(continuation);
      } else {
        const feedRange = known.get(`${container}\u0000${range}`);
        if (feedRange === undefined) {
          throw new Error(`feed range ${range} of ${container} is unknown (read the ranges first)`);
        }
        startFrom =
          start === "now" ? ChangeFeedStartFrom.Now(feedRange) : ChangeFeedStartFrom.Beginning(feedRange);
      }
      // Guarded: a throttled or failed read is retried from its continuation, then typed.
      const iterator: ChangeFeedPullModelIterator<unknown> = guardContainer(
        database.container(container),
        options.retry,
      ).items.getChangeFeedIterator({
        changeFeedStartFrom: startFrom,
        maxItemCount: options.maxItemCount,
        ...(options.mode === "allVersionsAndDeletes"
          ? { changeFeedMode: ChangeFeedMode.AllVersionsAndDeletes }
          : {}),
      });
      return {
        async read() {
          const response = await iterator.readNext();
          options.onCharge?.(response.requestCharge);
          const changes =
            response.statusCode === 304 || !Array.isArray(response.result) ? [] : response.result;
          return { changes, continuation: response.continuationToken, requestCharge: response.requestCharge };
        },
      };
    },
  };
}
