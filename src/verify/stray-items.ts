/**
 * Items left where the data no longer puts them: after the writes and their maintenance, every
 * item of an item type must be one the model's materialization of the final data holds (same id,
 * same partition key). A copy left under an old key (a copy keyed by an attribute a write changed),
 * an item whose move left the old one behind, or a copy written for a record without the value it
 * is keyed by is a stray item. Bucket items (whose records move between buckets at run time) and
 * bounded sets (trimmed at run time; `overfullSets` checks them) are not compared, nor soft-delete
 * tombstones (a deleted item until its ttl expires).
 */
import type { Container as CosmosContainer } from "@azure/cosmos";
import { deletePropagationOf } from "../model/deletes.js";
import type { Model } from "../model/types.js";
import type { ContainerItems } from "../synthetic/materialize-dataset.js";
import { propertyRef } from "../runtime/sql.js";
import { wrapCosmosError } from "./endpoint.js";

/** The addresses (`[id, partition key values]` as JSON) the final data puts in one item type. */
export interface ExpectedAddresses {
  readonly container: string;
  readonly itemType: string;
  readonly addresses: readonly string[];
}

/** An item type holding items the final data does not hold. */
export interface StrayItems {
  readonly container: string;
  readonly itemType: string;
  readonly count: number;
  /** The first stray item: its id and partition key values. */
  readonly example: { readonly id: unknown; readonly partitionKey: readonly unknown[] };
}

function address(id: unknown, partitionKey: readonly unknown[]): string {
  return JSON.stringify([id, partitionKey]);
}

/**
 * The addresses the final data's items have, per item type (buckets and bounded sets left out).
 * @example expectedAddresses(model, materializeDataset(workload, model, finalDataset))
 */
export function expectedAddresses(model: Model, items: readonly ContainerItems[]): ExpectedAddresses[] {
  const out: ExpectedAddresses[] = [];
  for (const container of model.containers) {
    const loaded = items.find((entry) => entry.container === container.name)?.items ?? [];
    for (const itemType of container.items) {
      if (itemType.bucket !== undefined || itemType.keepLatest !== undefined) continue;
      out.push({
        container: container.name,
        itemType: itemType.type,
        addresses: loaded
          .filter((entry) => entry.itemType === itemType.type)
          .map((entry) => address(entry.item["id"], entry.partitionKey)),
      });
    }
  }
  return out;
}

/**
 * The properties that address an item (its id, the top-level property of each partition key
 * path) and its tombstone flag: what the check reads, not the whole item (an item may carry a
 * vector of thousands of numbers, which the embedded endpoint serializes slowly).
 */
export function addressProjection(partitionKey: readonly string[], tombstone?: string): string {
  const names = new Set(["id"]);
  for (const path of partitionKey) {
    const first = path.split("/").find((segment) => segment !== "");
    if (first !== undefined) names.add(first);
  }
  if (tombstone !== undefined) names.add(tombstone);
  return [...names].map((name) => propertyRef(name)).join(", ");
}

/** The value at a partition key path (`/a/b`) of an item. */
function valueAt(item: Readonly<Record<string, unknown>>, path: string): unknown {
  return path
    .split("/")
    .filter((segment) => segment !== "")
    .reduce<unknown>(
      (value, segment) =>
        typeof value === "object" && value !== null ? (value as Record<string, unknown>)[segment] : undefined,
      item,
    );
}

/** Every item type that holds items the final data does not (read with one query per item type). */
export async function findStrayItems(
  containers: ReadonlyMap<string, CosmosContainer>,
  model: Model,
  expected: readonly ExpectedAddresses[],
  skip: ReadonlySet<string> = new Set(),
): Promise<StrayItems[]> {
  const found: StrayItems[] = [];
  // Soft deletes leave tombstones until their ttl expires: a deleted item, not a stray one.
  const deletes = deletePropagationOf(model);
  const tombstone = deletes.mode === "softDelete" ? deletes.property : undefined;
  for (const entry of expected) {
    const container = model.containers.find((c) => c.name === entry.container);
    const cosmos = containers.get(entry.container);
    if (container === undefined || cosmos === undefined || skip.has(entry.container)) continue;
    let items: Record<string, unknown>[];
    try {
      ({ resources: items } = await cosmos.items
        .query<Record<string, unknown>>({
          query: `SELECT ${addressProjection(container.partitionKey, tombstone)} FROM c WHERE c.type = @type`,
          parameters: [{ name: "@type", value: entry.itemType }],
        })
        .fetchAll());
    } catch (error) {
      throw wrapCosmosError(error, {
        code: "verify.requestFailed",
        action: `read the ${entry.itemType} items of container ${entry.container}`,
      });
    }
    const allowed = new Set(entry.addresses);
    const strays = items
      .filter((item) => tombstone === undefined || item[tombstone] !== true)
      .map((item) => ({
        id: item["id"],
        partitionKey: container.partitionKey.map((path) => valueAt(item, path)),
      }))
      .filter((item) => !allowed.has(address(item.id, item.partitionKey)));
    const first = strays[0];
    if (first !== undefined) {
      found.push({
        container: entry.container,
        itemType: entry.itemType,
        count: strays.length,
        example: first,
      });
    }
  }
  return found;
}
