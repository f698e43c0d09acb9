/**
 * The `@azure/cosmos` requests the data-access runtime makes, each returning its request charge:
 * point reads (a missing item is `undefined`), parameterized queries routed to a partition key,
 * patches (split into requests of at most 10 operations), deletes (a missing item is no error).
 */
import type { Container, JSONValue, PartitionKey, PatchOperation, SqlQuerySpec } from "@azure/cosmos";
import { chargeOf, statusOf } from "./errors.js";
import type { StoredItem } from "./items.js";
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
    const response = await container.item(id, toPartitionKey(keys)).read<StoredItem>();
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
  const response = await container.items
    .query<unknown>(
      querySpec(query, parameters),
      keys === undefined ? {} : { partitionKey: toPartitionKey(keys) },
    )
    .fetchAll();
  return { items: response.resources, requestCharge: response.requestCharge };
}

/** Patches an item (several requests when there are more than 10 operations); a missing item is undefined. */
export async function patchItem(
  container: Container,
  id: string,
  keys: readonly KeyValue[],
  operations: readonly PatchOperation[],
): Promise<{ item: StoredItem | undefined; requestCharge: number }> {
  let item: StoredItem | undefined;
  let requestCharge = 0;
  for (let start = 0; start < operations.length; start += MAX_PATCH_OPERATIONS) {
    try {
      const response = await container
        .item(id, toPartitionKey(keys))
        .patch<StoredItem>(operations.slice(start, start + MAX_PATCH_OPERATIONS));
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
    return (await container.item(id, toPartitionKey(keys)).delete()).requestCharge;
  } catch (error) {
    if (statusOf(error) === 404) return chargeOf(error);
    throw error;
  }
}
