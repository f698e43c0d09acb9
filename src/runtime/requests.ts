/**
 * The `@azure/cosmos` requests the data-access runtime makes, each returning its request charge:
 * point reads (a missing item is `undefined`), parameterized queries routed to a partition key,
 * patches (split into requests of at most 10 operations), deletes (a missing item is no error).
 * Each goes through a guarded container (`guarded-container.ts`: keys checked, 429s and transient
 * failures retried, failures thrown as DataAccessError); a container not guarded yet is guarded
 * with the default RetryOptions.
 */
import {
  BulkOperationType,
  type Container,
  type JSONValue,
  type OperationResponse,
  type PartitionKey,
  type PatchOperation,
  type SqlQuerySpec,
} from "@azure/cosmos";
import { chargeOf, codeOfStatus, DataAccessError, statusOf, toDataAccessError } from "./errors.js";
import { guardContainer } from "./guarded-container.js";
import type { StoredItem } from "./items.js";
import type { RetryOptions } from "./retry.js";
import type { KeyValue } from "./templates.js";

/**
 * Cosmos DB accepts at most 10 operations per patch request.
 * Source: https://learn.microsoft.com/azure/cosmos-db/partial-document-update#supported-operations (checked 2026-11-23).
 */
export const MAX_PATCH_OPERATIONS = 10;

/** A query parameter: `@name` and its value. */
export interface QueryParameterValue {
  readonly name: string;
  readonly value: unknown;
}

/** The partition key argument of the SDK for key values (one value, or an array for hierarchical keys). */
export function toPartitionKey(keys: readonly KeyValue[]): PartitionKey {
  const [first] = keys;
  return keys.length === 1 && first !== undefined ? first : [...keys];
}

/** A JSON pointer to a top-level property, for patch operations. */
export function pointer(name: string): string {
  return "/" + name.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** Keeps the objects of a list of query results. */
export function asItems(values: readonly unknown[]): StoredItem[] {
  return values.filter((value): value is StoredItem => typeof value === "object" && value !== null);
}

/** A point read; a missing item is undefined. */
export async function readItem(
  container: Container,
  id: string,
  keys: readonly KeyValue[],
): Promise<{ item: StoredItem | undefined; requestCharge: number }> {
  try {
    const response = await guardContainer(container).item(id, toPartitionKey(keys)).read<StoredItem>();
    const item: StoredItem | undefined = response.resource;
    return { item, requestCharge: response.requestCharge };
  } catch (error) {
    if (statusOf(error) === 404) return { item: undefined, requestCharge: chargeOf(error) };
    throw error;
  }
}

function querySpec(query: string, parameters: readonly QueryParameterValue[]): SqlQuerySpec {
  return {
    query,
    parameters: parameters.map((parameter) => ({
      name: parameter.name,
      value: parameter.value as JSONValue,
    })),
  };
}

/** A parameterized query, routed to a partition key (or prefix) when given; every result. */
export async function queryItems(
  container: Container,
  query: string,
  parameters: readonly QueryParameterValue[],
  keys?: readonly KeyValue[],
): Promise<{ items: unknown[]; requestCharge: number }> {
  const response = await guardContainer(container)
    .items.query<unknown>(
      querySpec(query, parameters),
      keys === undefined ? {} : { partitionKey: toPartitionKey(keys) },
    )
    .fetchAll();
  return { items: response.resources, requestCharge: response.requestCharge };
}

/** Where a page of a query starts and how many items it holds. */
export interface PageOptions {
  /** Items per page (default: the pattern's limit, else the service's page). */
  readonly pageSize?: number;
  /** The continuation token of the previous page; absent for the first page. */
  readonly continuationToken?: string;
}

/**
 * One page of a parameterized query: up to `pageSize` items and the token of the next page
 * (undefined after the last). A cross-partition query may answer fewer items per request than
 * asked: it is asked again from its continuation for the rest, so a page holds `pageSize` items
 * unless the results run out.
 */
export async function queryPage(
  container: Container,
  query: string,
  parameters: readonly QueryParameterValue[],
  keys: readonly KeyValue[] | undefined,
  page: PageOptions = {},
): Promise<{ items: unknown[]; continuationToken: string | undefined; requestCharge: number }> {
  const items: unknown[] = [];
  let requestCharge = 0;
  let continuationToken = page.continuationToken;
  for (;;) {
    const remaining = page.pageSize === undefined ? undefined : page.pageSize - items.length;
    const iterator = guardContainer(container).items.query<unknown>(querySpec(query, parameters), {
      ...(keys === undefined ? {} : { partitionKey: toPartitionKey(keys) }),
      ...(remaining === undefined ? {} : { maxItemCount: remaining }),
      ...(continuationToken === undefined ? {} : { continuationToken }),
    });
    const response = await iterator.fetchNext();
    requestCharge += response.requestCharge;
    items.push(...response.resources);
    continuationToken = response.continuationToken ?? undefined;
    if (continuationToken === undefined || remaining === undefined || items.length >= (page.pageSize ?? 0))
      break;
  }
  return { items, continuationToken, requestCharge };
}

/** An item to read by id and partition key. */
export interface ItemIdentity {
  readonly id: string;
  readonly keys: readonly KeyValue[];
}

/**
 * Operations per bulk call: a batch request carries at most 100 operations (the transactional
 * batch limit, MAX_TRANSACTIONAL_BATCH_OPERATIONS in src/cosmos/limits.ts), and `@azure/cosmos`
 * 4.x refuses a bulk call with more in one partition key range ("Cannot run bulk request with
 * more than 100 operations per partition", Items.executeBatchOperations).
 * Source: https://learn.microsoft.com/azure/cosmos-db/nosql/transactional-batch (checked 2026-11-24).
 */
export const MAX_BULK_OPERATIONS = 100;

/**
 * Reads many items by id and partition key at once (what .NET's ReadMany does): the SDK's bulk
 * API sends the reads grouped by physical partition, one request per partition range, in calls of
 * at most 100 reads (run in parallel); a missing item is left out. Answers in the order asked.
 * The guard sends again the reads the service throttles (429, per read or for a whole request)
 * after its delay, within `retry` (the runtime's RetryOptions when the container is the
 * runtime's); after that the read fails with `throttled`.
 */
export async function readMany(
  container: Container,
  identities: readonly ItemIdentity[],
  retry: RetryOptions = {},
): Promise<{ items: StoredItem[]; requestCharge: number }> {
  const guarded = guardContainer(container, retry);
  const chunks: number[][] = [];
  for (let start = 0; start < identities.length; start += MAX_BULK_OPERATIONS)
    chunks.push(identities.slice(start, start + MAX_BULK_OPERATIONS).map((_, offset) => start + offset));
  const answers = await Promise.all(
    chunks.map(async (chunk) => {
      const responses = await guarded.items.bulk(
        chunk.map((index) => ({
          operationType: BulkOperationType.Read,
          id: identities[index]?.id ?? "",
          partitionKey: toPartitionKey(identities[index]?.keys ?? []),
        })),
      );
      return chunk.map((index, position) => ({ index, response: responses[position] }));
    }),
  );
  const found = new Array<StoredItem | undefined>(identities.length);
  let requestCharge = 0;
  for (const { index, response } of answers.flat()) {
    if (response === undefined) {
      throw new DataAccessError("requestFailed", "a read of many items answered fewer results than asked");
    }
    requestCharge += response.requestCharge;
    if (response.statusCode === 200 && response.resourceBody !== undefined)
      found[index] = response.resourceBody as StoredItem;
    else if (response.statusCode !== 404) {
      throw toDataAccessError(
        Object.assign(new Error(`a read of many items answered ${response.statusCode}`), {
          code: response.statusCode,
          requestCharge: response.requestCharge,
        }),
        `read ${identities[index]?.id ?? "an item"} of many`,
        { id: identities[index]?.id },
      );
    }
  }
  return { items: found.filter((item): item is StoredItem => item !== undefined), requestCharge };
}

/**
 * Patches an item (several requests when there are more than 10 operations); a missing item is
 * undefined, and so is the item when there is nothing to patch (no request is sent). A
 * `condition` applies to the first request (put the operations it guards first); when it does not
 * hold the service answers 412, thrown as it is.
 */
export async function patchItem(
  container: Container,
  id: string,
  keys: readonly KeyValue[],
  operations: readonly PatchOperation[],
  condition?: string,
): Promise<{ item: StoredItem | undefined; requestCharge: number }> {
  let item: StoredItem | undefined;
  let requestCharge = 0;
  for (let start = 0; start < operations.length; start += MAX_PATCH_OPERATIONS) {
    const chunk = operations.slice(start, start + MAX_PATCH_OPERATIONS);
    try {
      const response = await guardContainer(container)
        .item(id, toPartitionKey(keys))
        .patch<StoredItem>(start === 0 && condition !== undefined ? { operations: chunk, condition } : chunk);
      item = response.resource;
      requestCharge += response.requestCharge;
    } catch (error) {
      if (statusOf(error) === 404) return { item: undefined, requestCharge: requestCharge + chargeOf(error) };
      throw error;
    }
  }
  return { item, requestCharge };
}

/** Deletes an item; a missing item is no error. Returns the charge. */
export async function deleteItem(
  container: Container,
  id: string,
  keys: readonly KeyValue[],
): Promise<number> {
  try {
    return (await guardContainer(container).item(id, toPartitionKey(keys)).delete()).requestCharge;
  } catch (error) {
    if (statusOf(error) === 404) return chargeOf(error);
    throw error;
  }
}

/**
 * The error of a transactional batch whose operations did not all succeed (none was applied), or
 * undefined when all did: the failed operation (not one that only failed with it, 424) gives the
 * code, `conflict` for a 409, `notFound`, `precondition`, `tooLarge`, else `batchFailed`.
 * @example batchError("create post p1", [{ statusCode: 409, requestCharge: 1 }])?.code // "conflict"
 */
export function batchError(
  operation: string,
  results: readonly OperationResponse[],
  context: Readonly<Record<string, unknown>> = {},
): DataAccessError | undefined {
  const failing = (result: OperationResponse): boolean => result.statusCode >= 400;
  const cause = results.findIndex((result) => failing(result) && result.statusCode !== 424);
  const index = cause >= 0 ? cause : results.findIndex(failing);
  const failed = results[index];
  if (failed === undefined) return undefined;
  const status = failed.statusCode;
  const code = codeOfStatus(status);
  const substatus = (failed as { subStatusCode?: unknown }).subStatusCode;
  return new DataAccessError(
    code === "requestFailed" || code === "transient" ? "batchFailed" : code,
    `transactional batch failed: operation ${index} answered ${status} (${operation}); none was applied`,
    {
      context: { ...context, index, statusCode: status },
      statusCode: status,
      ...(typeof substatus === "number" ? { substatus } : {}),
      requestCharge: results.reduce((sum, result) => sum + result.requestCharge, 0),
    },
  );
}

/** Page options from what a read function was given (absent values left out). */
export function pageOf(pageSize: number | undefined, continuationToken: string | undefined): PageOptions {
  return {
    ...(pageSize === undefined ? {} : { pageSize }),
    ...(continuationToken === undefined ? {} : { continuationToken }),
  };
}
