/**
 * The pages of a read whose first step is a query. A read runs one query, or one per write shard
 * of its key (a query per shard, routed to that shard's partition, merged here in the order of
 * the read's ORDER BY), and returns a page of the size asked (the pattern's `limit` by default),
 * however many shards it merges. The continuation token it returns holds every query's position
 * and the replica the first page read, so the next page starts exactly where this one stopped: no
 * item twice, none skipped, even when several shards hold items with equal sort values.
 */
import type { Container } from "@azure/cosmos";
import { DataAccessError } from "./errors.js";
import type { ItemTypeShape } from "./items.js";
import { compareValues } from "./reads.js";
import { queryPage, type PageOptions, type QueryParameterValue } from "./requests.js";
import type { KeyValue } from "./templates.js";

/** One query of a read: its parameters and the partition key (or prefix) it is routed to. */
export interface QueryStream {
  readonly parameters: readonly QueryParameterValue[];
  readonly keys?: readonly KeyValue[];
}

/**
 * A key of the order the queries' items come in: the property of the returned items that holds
 * the ORDER BY value (`alias`: a property the query adds for the merge, not returned to the caller).
 */
export interface MergeKey {
  readonly property: string;
  readonly direction: "asc" | "desc";
  readonly alias?: boolean;
}

/** How a read pages: its order (for the merge) and the page size asked. */
export interface PagingOptions {
  readonly orderBy: readonly MergeKey[];
  /** Items per page (default: the service's page for one query, `MERGED_PAGE_SIZE` for several). */
  readonly pageSize?: number | undefined;
}

/**
 * Items per page of a read merged from several queries when neither the caller nor the pattern
 * gives a page size (the SDK's default `maxItemCount` is 100 as well).
 */
export const MERGED_PAGE_SIZE = 100;

/** Where a query stands: the service token its next items follow and how many of those were returned. */
type Position = { readonly token?: string; readonly skip: number } | "done";

/** The state a continuation token carries. */
export interface ReadCursor {
  /** The replica the first page read (replicated item types). */
  readonly replica?: number;
  /** One position per query; empty for a first page. */
  readonly positions: readonly Position[];
}

const TOKEN_PREFIX = "cm1.";

/** The token of a cursor: `cm1.` and JSON (opaque to callers, as the service's own tokens are). */
export function encodeCursor(cursor: ReadCursor): string {
  const positions = cursor.positions.map((p) => (p === "done" ? 0 : [p.token ?? null, p.skip]));
  const body = {
    ...(cursor.replica === undefined ? {} : { r: cursor.replica }),
    p: positions,
  };
  return TOKEN_PREFIX + JSON.stringify(body);
}

function badToken(token: string, why: string): DataAccessError {
  return new DataAccessError(
    "badContinuationToken",
    `continuation token is not one this read returned (${why}): pass the token of the previous page unchanged, with the same input`,
    { context: { continuationToken: token.length > 200 ? `${token.slice(0, 200)}...` : token } },
  );
}

/** The cursor of a token `encodeCursor` wrote; throws `badContinuationToken` for any other text. */
export function decodeCursor(token: string): ReadCursor {
  if (!token.startsWith(TOKEN_PREFIX)) throw badToken(token, "unknown format");
  let body: unknown;
  try {
    body = JSON.parse(token.slice(TOKEN_PREFIX.length));
  } catch (error) {
    throw badToken(token, error instanceof Error ? error.message : "not JSON");
  }
  const { r, p } = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
  const count = (value: unknown) => typeof value === "number" && Number.isInteger(value) && value >= 0;
  if (!Array.isArray(p) || (r !== undefined && !count(r))) throw badToken(token, "bad fields");
  const positions = p.map((entry: unknown): Position => {
    if (entry === 0) return "done";
    if (!Array.isArray(entry) || entry.length !== 2) throw badToken(token, "bad position");
    const [serviceToken, skip] = entry as unknown[];
    if (!count(skip) || (serviceToken !== null && typeof serviceToken !== "string"))
      throw badToken(token, "bad position");
    return typeof serviceToken === "string"
      ? { token: serviceToken, skip: skip as number }
      : { skip: skip as number };
  });
  return { ...(r === undefined ? {} : { replica: r as number }), positions };
}

/**
 * The cursor a page continues (a first page: no positions). A replicated
 * read picks its replica at random for the first page and reads every later page from the
 * replica the token names (a token of one replica's partition means nothing in another's).
 * @example openPages({ replicas: 4 }, {}) // { positions: [] }
 */
export function openPages(shape: Pick<ItemTypeShape, "replicas">, page: PageOptions): ReadCursor {
  if (page.continuationToken === undefined) return { positions: [] };
  const cursor = decodeCursor(page.continuationToken);
  if (cursor.replica !== undefined && cursor.replica >= (shape.replicas ?? 0))
    throw badToken(page.continuationToken, `replica ${cursor.replica} of ${shape.replicas ?? 0}`);
  return cursor;
}

/**
 * One query per write shard of an item type (shard 0 to shards - 1).
 * @example perShard({ shards: 2 }, (shard) => ({ parameters: [{ name: "@s", value: [`p-${shard}`] }] }))
 */
export function perShard(
  shape: Pick<ItemTypeShape, "shards">,
  stream: (shard: number) => QueryStream,
): QueryStream[] {
  return Array.from({ length: shape.shards ?? 1 }, (_, shard) => stream(shard));
}

/** A page of a read: its items, the token of the next page (none after the last), the charge. */
export interface ReadPage {
  readonly items: unknown[];
  readonly continuationToken: string | undefined;
  readonly requestCharge: number;
}

/**
 * One page of a read: its queries' items (merged in the order `orderBy`, ties by id, then by the
 * query's position in `streams`), at most `pageSize`, from where `cursor` stopped. `replica` is the replica this page read (kept in the token).
 */
export async function readPage(
  container: Container,
  query: string,
  streams: readonly QueryStream[],
  options: PagingOptions,
  cursor: ReadCursor,
  replica?: number,
): Promise<ReadPage> {
  const [only] = streams;
  const page =
    streams.length === 1 && only !== undefined
      ? await singlePage(container, query, only, options.pageSize, cursor.positions[0])
      : await mergedPage(
          container,
          query,
          streams,
          options.orderBy,
          options.pageSize ?? MERGED_PAGE_SIZE,
          cursor,
        );
  const finished = page.positions.every((position) => position === "done");
  const aliases = options.orderBy.filter((key) => key.alias === true).map((key) => key.property);
  return {
    items: aliases.length === 0 ? page.items : page.items.map((item) => withoutAliases(item, aliases)),
    continuationToken: finished
      ? undefined
      : encodeCursor({ ...(replica === undefined ? {} : { replica }), positions: page.positions }),
    requestCharge: page.requestCharge,
  };
}

function withoutAliases(item: unknown, aliases: readonly string[]): unknown {
  if (typeof item !== "object" || item === null || Array.isArray(item)) return item;
  return Object.fromEntries(Object.entries(item).filter(([name]) => !aliases.includes(name)));
}

interface PageItems {
  readonly items: unknown[];
  readonly positions: Position[];
  readonly requestCharge: number;
}

/** One query's page: the service's continuation is exact, so it is the position. */
async function singlePage(
  container: Container,
  query: string,
  stream: QueryStream,
  size: number | undefined,
  position: Position | undefined,
): Promise<PageItems> {
  if (position === "done") return { items: [], positions: ["done"], requestCharge: 0 };
  const page = await queryPage(container, query, stream.parameters, stream.keys, {
    ...(size === undefined ? {} : { pageSize: size }),
    ...(position?.token === undefined ? {} : { continuationToken: position.token }),
  });
  // A position with a skip comes from a merged read; one query never leaves one (it starts over).
  const items = page.items.slice(position?.skip ?? 0);
  return {
    items,
    positions: [page.continuationToken === undefined ? "done" : { token: page.continuationToken, skip: 0 }],
    requestCharge: page.requestCharge,
  };
}

/** One query of a merged read, while a page is read: its buffered items and where they came from. */
interface StreamState {
  /** The service token the buffer was read from (undefined: the query's start). */
  origin: string | undefined;
  /** Items of the response from `origin` before the buffer (returned by earlier pages). */
  skip: number;
  buffer: unknown[];
  /** Items of the buffer this page returned. */
  used: number;
  /** The service token after the buffer (undefined: the query has no more items). */
  next: string | undefined;
  /** True once the buffer was read on this page. */
  read: boolean;
  done: boolean;
}

/**
 * The next items of a query from its position: asked from the token the position follows, the
 * first `skip` items (returned by earlier pages) dropped. The service may answer fewer items than
 * asked: the rest of the skip is then dropped from the next responses.
 */
async function fill(
  container: Container,
  query: string,
  stream: QueryStream,
  state: StreamState,
  want: number,
): Promise<number> {
  let requestCharge = 0;
  for (;;) {
    const page = await queryPage(container, query, stream.parameters, stream.keys, {
      pageSize: state.skip + want,
      ...(state.origin === undefined ? {} : { continuationToken: state.origin }),
    });
    requestCharge += page.requestCharge;
    if (page.items.length > state.skip) {
      state.buffer = page.items.slice(state.skip);
      state.used = 0;
      state.next = page.continuationToken;
      state.read = true;
      return requestCharge;
    }
    state.skip -= page.items.length;
    state.origin = page.continuationToken;
    if (state.origin === undefined) {
      state.done = true;
      return requestCharge;
    }
  }
}

/** The value of an item's property (undefined for what is not an object). */
function valueOf(item: unknown, property: string): unknown {
  return typeof item === "object" && item !== null ? (item as Record<string, unknown>)[property] : undefined;
}

/** The order of the merge: the ORDER BY values, then the id, then the query's position. */
function compareHeads(orderBy: readonly MergeKey[], a: unknown, b: unknown): number {
  for (const key of orderBy) {
    const order = compareValues(valueOf(a, key.property), valueOf(b, key.property));
    if (order !== 0) return key.direction === "asc" ? order : -order;
  }
  return compareValues(valueOf(a, "id"), valueOf(b, "id"));
}

/**
 * A page merged from several queries, each in the read's order: the least head of the queries
 * (by `compareHeads`) is taken until the page is full or every query is done. Without ORDER BY
 * the queries are read one after the other. Each query is asked for at most what the page can
 * still take (beyond what earlier pages took from the same response).
 */
async function mergedPage(
  container: Container,
  query: string,
  streams: readonly QueryStream[],
  orderBy: readonly MergeKey[],
  size: number,
  cursor: ReadCursor,
): Promise<PageItems> {
  const states: StreamState[] = streams.map((_, index) => {
    const position = cursor.positions[index] ?? { skip: 0 };
    return position === "done"
      ? { origin: undefined, skip: 0, buffer: [], used: 0, next: undefined, read: false, done: true }
      : {
          origin: position.token,
          skip: position.skip,
          buffer: [],
          used: 0,
          next: undefined,
          read: false,
          done: false,
        };
  });
  const items: unknown[] = [];
  let requestCharge = 0;
  /** The state's next item, read from the service when its buffer is used up; undefined when done. */
  const head = async (index: number): Promise<unknown> => {
    const state = states[index];
    const stream = streams[index];
    if (state === undefined || stream === undefined) return undefined;
    while (!state.done && state.used >= state.buffer.length) {
      if (state.read) {
        // The buffer was the rest of its response: the next items follow the response's token.
        if (state.next === undefined) {
          state.done = true;
          break;
        }
        state.origin = state.next;
        state.skip = 0;
      }
      requestCharge += await fill(container, query, stream, state, size - items.length);
    }
    return state.done ? undefined : state.buffer[state.used];
  };
  while (items.length < size) {
    let best: { index: number; item: unknown } | undefined;
    for (let index = 0; index < states.length; index++) {
      const item = await head(index);
      if (states[index]?.done !== false) continue;
      if (best === undefined || compareHeads(orderBy, item, best.item) < 0) best = { index, item };
      // Without an order, the first query with items comes first: the others wait.
      if (orderBy.length === 0) break;
    }
    const state = best === undefined ? undefined : states[best.index];
    if (best === undefined || state === undefined) break;
    items.push(best.item);
    state.used++;
  }
  const positions = states.map((state): Position => {
    if (state.done) return "done";
    if (!state.read)
      return state.origin === undefined ? { skip: state.skip } : { token: state.origin, skip: state.skip };
    if (state.used < state.buffer.length) {
      const skip = state.skip + state.used;
      return state.origin === undefined ? { skip } : { token: state.origin, skip };
    }
    return state.next === undefined ? "done" : { token: state.next, skip: 0 };
  });
  return { items, positions, requestCharge };
}
