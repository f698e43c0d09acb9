/**
 * Reads through the integrated cache of a dedicated gateway. A read the model serves from the
 * cache (`integratedCache.patterns`) is sent to the dedicated gateway endpoint (the account's
 * endpoint with `documents.azure.com` replaced by `sqlx.cosmos.azure.com`; the Node.js SDK always
 * connects in gateway mode) with `maxIntegratedCacheStalenessInMs` and a session or eventual
 * `consistencyLevel`: without an explicit consistency the service ignores the staleness, and a
 * stronger one bypasses the cache.
 * Source: https://learn.microsoft.com/azure/cosmos-db/how-to-configure-integrated-cache and
 * `SharedOptions.maxIntegratedCacheStalenessInMs` of `@azure/cosmos` 4.9 (checked 2026-11-28).
 *
 * The integrated cache keeps point reads and queries; reads of many items are sent as point
 * reads (not as one bulk request, which the cache is not documented to serve), so a follow-up
 * read of many is cached item by item.
 */
import type {
  Container,
  FeedOptions,
  Item,
  Items,
  OperationInput,
  OperationResponse,
  PartitionKey,
  RequestOptions,
  SqlQuerySpec,
} from "@azure/cosmos";

/** How a cached read is sent: how stale its answer may be, and at which consistency. */
export interface CachedReadOptions {
  /** `MaxIntegratedCacheStaleness` of every request, in milliseconds. */
  readonly maxStalenessMs: number;
  /** Session or eventual: the only consistencies the integrated cache serves. */
  readonly consistency: "Session" | "Eventual";
}

/** The request options of a cached read: the caller's, with the staleness and consistency set. */
export function cachedRequestOptions<T extends RequestOptions | FeedOptions>(
  cache: CachedReadOptions,
  options: T | undefined,
): T {
  return {
    ...options,
    maxIntegratedCacheStalenessInMs: cache.maxStalenessMs,
    consistencyLevel: cache.consistency,
  } as T;
}

/** The answer of one point read as a bulk operation's answer. */
async function pointReadAnswer(
  item: Item,
  cache: CachedReadOptions,
  options: RequestOptions | undefined,
): Promise<OperationResponse> {
  try {
    const response = await item.read(cachedRequestOptions(cache, options));
    return {
      statusCode: response.statusCode,
      requestCharge: response.requestCharge,
      ...(response.etag === undefined ? {} : { eTag: response.etag }),
      ...(response.resource === undefined ? {} : { resourceBody: response.resource as never }),
    };
  } catch (error) {
    // A throttled or failed read answers as the bulk call would: its status in the answer.
    const fields = error as { code?: unknown; requestCharge?: unknown; retryAfterInMs?: unknown };
    if (typeof fields.code !== "number") throw error;
    return {
      statusCode: fields.code,
      requestCharge: typeof fields.requestCharge === "number" ? fields.requestCharge : 0,
      ...(typeof fields.retryAfterInMs === "number" ? { retryAfterMilliseconds: fields.retryAfterInMs } : {}),
    } as OperationResponse;
  }
}

function cachedItems(items: Items, container: Container, cache: CachedReadOptions): Items {
  return new Proxy(items, {
    get(target, property) {
      switch (property) {
        case "query":
          return (spec: string | SqlQuerySpec, options?: FeedOptions) =>
            target.query(spec, cachedRequestOptions(cache, options));
        case "readAll":
          return (options?: FeedOptions) => target.readAll(cachedRequestOptions(cache, options));
        case "bulk":
          return async (
            operations: OperationInput[],
            bulkOptions?: object,
            requestOptions?: RequestOptions,
          ): Promise<OperationResponse[]> => {
            // Only reads go through the cache; anything else is the SDK's bulk call unchanged.
            if (!operations.every((operation) => operation.operationType === "Read"))
              return target.bulk(operations, bulkOptions, requestOptions);
            return Promise.all(
              operations.map((operation) =>
                pointReadAnswer(
                  container.item(
                    (operation as { id: string }).id,
                    operation.partitionKey as PartitionKey | undefined,
                  ),
                  cache,
                  requestOptions,
                ),
              ),
            );
          };
        default: {
          const value: unknown = Reflect.get(target, property, target);
          return typeof value === "function"
            ? (value as (...args: unknown[]) => unknown).bind(target)
            : value;
        }
      }
    },
  });
}

/**
 * The container whose reads go through the integrated cache with `cache`'s staleness and
 * consistency (writes are the SDK's own; a cached model never writes through these).
 * @example throughIntegratedCache(gatewayDatabase.container("posts"), { maxStalenessMs: 5_000, consistency: "Session" })
 */
export function throughIntegratedCache(container: Container, cache: CachedReadOptions): Container {
  let items: Items | undefined;
  return new Proxy(container, {
    get(target, property) {
      if (property === "item")
        return (id: string, partitionKey?: PartitionKey): Item => {
          const item = target.item(id, partitionKey);
          return new Proxy(item, {
            get(itemTarget, itemProperty) {
              if (itemProperty === "read")
                return (options?: RequestOptions) => itemTarget.read(cachedRequestOptions(cache, options));
              const value: unknown = Reflect.get(itemTarget, itemProperty, itemTarget);
              return typeof value === "function"
                ? (value as (...args: unknown[]) => unknown).bind(itemTarget)
                : value;
            },
          });
        };
      if (property === "items") return (items ??= cachedItems(target.items, target, cache));
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
