/**
 * Bulk-loads materialized items into deployed containers with `items.bulk` (the partition key on
 * every operation; at most 100 operations per call, the SDK's limit per partition). Reports
 * progress, request charges and conflicts instead of stopping at the first one: a 409 means two
 * items of the model share an id within a logical partition (or, on the embedded endpoint, within
 * the first level of a hierarchical key), which verify reports as a finding.
 */
import type { Container as CosmosContainer, JSONObject, OperationInput, PartitionKey } from "@azure/cosmos";
import { CosmosModelerError } from "../errors.js";
import type { KeyValue } from "../model/templates.js";
import { wrapCosmosError } from "./endpoint.js";
import type { ContainerItems, ItemToLoad } from "../synthetic/materialize-dataset.js";

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
