/**
 * Bulk-loads materialized items into deployed containers with `items.bulk` (the partition key on
 * every operation; at most 100 operations per call: @azure/cosmos 4.9.3 `Items.bulk` throws
 * "Cannot run bulk request with more than 100 operations per partition" above that, measured
 * 2026-11-22, and https://learn.microsoft.com/azure/cosmos-db/nosql/transactional-batch gives
 * 100 operations as the batch limit, checked 2026-11-22). Reports
 * progress, request charges and conflicts instead of stopping at the first one: a 409 means two
 * items of the model share an id within a logical partition (`findDuplicateItems` lists those
 * before loading), or, on the embedded endpoint, within the first level of a hierarchical key
 * (an artifact of that endpoint: a conflict `findDuplicateItems` does not list).
 */
import type { Container as CosmosContainer, JSONObject, OperationInput, PartitionKey } from "@azure/cosmos";
import { CosmosModelerError } from "../common/errors.js";
import type { KeyValue } from "../model/templates.js";
import { wrapCosmosError } from "./endpoint.js";
import type { ContainerItems, ItemChanges, ItemToLoad } from "../synthetic/materialize-dataset.js";

export interface LoadOptions {
  /** Operations per bulk call, 1 to 100. Default 100. */
  readonly chunkSize?: number;
  /** Called after every chunk with the items done so far and the total. */
  readonly onProgress?: (done: number, total: number) => void;
  /** Bulk calls in flight at once. Default 4. */
  readonly concurrency?: number;
}

/** An item the endpoint refused. */
export interface LoadFailure {
  readonly container: string;
  readonly itemType: string;
  readonly id: string;
  readonly partitionKey: readonly KeyValue[];
  readonly statusCode: number;
}

export interface LoadResult {
  readonly loaded: number;
  /** 409s: items whose id already existed in their logical partition. */
  readonly conflicts: readonly LoadFailure[];
  /** Sum of the request charges the endpoint reported (1 RU per item on the embedded endpoint). */
  readonly requestCharge: number;
  readonly elapsedMs: number;
  /** Items per second over the whole load. */
  readonly itemsPerSecond: number;
}

/** The SDK's partition key argument: a scalar for one path, an array for hierarchical keys. */
export function partitionKeyArgument(values: readonly KeyValue[]): PartitionKey {
  return values.length === 1 ? (values[0] as KeyValue) : [...values];
}

/**
 * Creates every item in its container. Throws `verify.loadFailed` (with status, activity id,
 * container and item id) on any failure other than a conflict; conflicts are returned.
 */
export async function loadItems(
  containers: ReadonlyMap<string, CosmosContainer>,
  items: readonly ContainerItems[],
  options: LoadOptions = {},
): Promise<LoadResult> {
  const chunkSize = Math.max(1, Math.min(100, options.chunkSize ?? 100));
  const concurrency = Math.max(1, options.concurrency ?? 4);
  const total = items.reduce((sum, container) => sum + container.items.length, 0);
  const chunks: { name: string; container: CosmosContainer; entries: readonly ItemToLoad[] }[] = [];
  for (const { container: name, items: containerItems } of items) {
    const container = containers.get(name);
    if (container === undefined) {
      throw new CosmosModelerError("verify.loadFailed", `container ${name} was not deployed`, {
        context: { container: name },
      });
    }
    for (let start = 0; start < containerItems.length; start += chunkSize) {
      chunks.push({ name, container, entries: containerItems.slice(start, start + chunkSize) });
    }
  }
  const started = performance.now();
  let done = 0;
  let loaded = 0;
  let requestCharge = 0;
  const conflicts: LoadFailure[] = [];
  options.onProgress?.(0, total);
  let next = 0;
  let failed: unknown;
  const worker = async (): Promise<void> => {
    while (failed === undefined && next < chunks.length) {
      const chunk = chunks[next++] as (typeof chunks)[number];
      try {
        const outcome = await loadChunk(chunk.name, chunk.container, chunk.entries);
        loaded += outcome.loaded;
        requestCharge += outcome.requestCharge;
        conflicts.push(...outcome.conflicts);
        done += chunk.entries.length;
        options.onProgress?.(done, total);
      } catch (error) {
        failed ??= error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, chunks.length) }, worker));
  if (failed !== undefined) throw failed;
  const elapsedMs = performance.now() - started;
  return {
    loaded,
    conflicts,
    requestCharge,
    elapsedMs,
    itemsPerSecond: elapsedMs === 0 ? 0 : (loaded * 1000) / elapsedMs,
  };
}

async function loadChunk(
  name: string,
  container: CosmosContainer,
  chunk: readonly ItemToLoad[],
): Promise<{ loaded: number; requestCharge: number; conflicts: LoadFailure[] }> {
  const operations: OperationInput[] = chunk.map((entry) => ({
    operationType: "Create",
    partitionKey: partitionKeyArgument(entry.partitionKey),
    resourceBody: entry.item as JSONObject,
  }));
  let responses;
  try {
    responses = await container.items.bulk(operations, { continueOnError: true });
  } catch (error) {
    throw wrapCosmosError(error, {
      code: "verify.loadFailed",
      action: `bulk-load ${chunk.length} items into container ${name}`,
      context: { container: name },
    });
  }
  let loaded = 0;
  let requestCharge = 0;
  const conflicts: LoadFailure[] = [];
  responses.forEach((response, position) => {
    const entry = chunk[position] as ItemToLoad;
    requestCharge += response.requestCharge;
    if (response.statusCode >= 200 && response.statusCode < 300) {
      loaded += 1;
      return;
    }
    const failure: LoadFailure = {
      container: name,
      itemType: entry.itemType,
      id: String(entry.item["id"]),
      partitionKey: entry.partitionKey,
      statusCode: response.statusCode,
    };
    if (response.statusCode === 409) {
      conflicts.push(failure);
      return;
    }
    throw new CosmosModelerError(
      "verify.loadFailed",
      `could not create ${entry.itemType} item ${failure.id} (partition key ${JSON.stringify(entry.partitionKey)}) in container ${name}: status ${response.statusCode}`,
      { context: { ...failure, requestCharge: response.requestCharge } },
    );
  });
  return { loaded, requestCharge, conflicts };
}

/** Charges and counts of applying item changes. */
export interface ChangesResult {
  readonly upserted: number;
  readonly deleted: number;
  readonly requestCharge: number;
  readonly elapsedMs: number;
}

/**
 * Writes item changes with bulk operations (upserts, then deletes; deleting an item already gone
 * is fine), e.g. to emulate the model's change-feed processors after a write when the endpoint's
 * change feed does not deliver changes. Throws `verify.requestFailed` on any other failure.
 */
export async function applyItemChanges(
  containers: ReadonlyMap<string, CosmosContainer>,
  changes: ItemChanges,
): Promise<ChangesResult> {
  const started = performance.now();
  let requestCharge = 0;
  const byContainer = new Map<string, { operation: OperationInput; label: string }[]>();
  const add = (container: string, operation: OperationInput, label: string): void => {
    const list = byContainer.get(container);
    if (list === undefined) byContainer.set(container, [{ operation, label }]);
    else list.push({ operation, label });
  };
  for (const entry of changes.upserts) {
    add(
      entry.container,
      {
        operationType: "Upsert",
        partitionKey: partitionKeyArgument(entry.partitionKey),
        resourceBody: entry.item as JSONObject,
      },
      `upsert ${entry.itemType} item ${String(entry.item["id"])}`,
    );
  }
  for (const entry of changes.deletes) {
    add(
      entry.container,
      { operationType: "Delete", id: entry.id, partitionKey: partitionKeyArgument(entry.partitionKey) },
      `delete ${entry.itemType} item ${entry.id}`,
    );
  }
  for (const [name, operations] of byContainer) {
    const container = containers.get(name);
    if (container === undefined) {
      throw new CosmosModelerError("verify.requestFailed", `container ${name} was not deployed`, {
        context: { container: name },
      });
    }
    for (let start = 0; start < operations.length; start += 100) {
      const chunk = operations.slice(start, start + 100);
      let responses;
      try {
        responses = await container.items.bulk(
          chunk.map((entry) => entry.operation),
          { continueOnError: true },
        );
      } catch (error) {
        throw wrapCosmosError(error, {
          code: "verify.requestFailed",
          action: `write ${chunk.length} changed items in container ${name}`,
          context: { container: name },
        });
      }
      responses.forEach((response, position) => {
        requestCharge += response.requestCharge;
        const entry = chunk[position];
        const isDelete = entry?.operation.operationType === "Delete";
        if (response.statusCode < 300 || (isDelete && response.statusCode === 404)) return;
        throw new CosmosModelerError(
          "verify.requestFailed",
          `could not ${entry?.label ?? "write an item"} in container ${name}: status ${response.statusCode}`,
          {
            context: {
              container: name,
              statusCode: response.statusCode,
              requestCharge: response.requestCharge,
            },
          },
        );
      });
    }
  }
  return {
    upserted: changes.upserts.length,
    deleted: changes.deletes.length,
    requestCharge,
    elapsedMs: performance.now() - started,
  };
}
