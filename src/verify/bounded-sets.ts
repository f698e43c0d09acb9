/**
 * Bounded sets (`keepLatest`) after a verify run's writes: the fullest logical partition of each,
 * read back from the endpoint, so that a set the change feed did not trim shows.
 */
import type { Model } from "../model/types.js";
import type { Deployment } from "./deploy.js";
import { wrapCosmosError } from "./endpoint.js";
import { addressProjection } from "./stray-items.js";

/** A bounded set (keepLatest) holding more items than its count in one logical partition. */
export interface OverfullSet {
  readonly container: string;
  readonly itemType: string;
  readonly partitionKey: readonly unknown[];
  readonly size: number;
  readonly count: number;
}

/** The fullest logical partition of every bounded set that holds more than its count. */
export async function overfullSets(deployment: Deployment, model: Model): Promise<OverfullSet[]> {
  const found: OverfullSet[] = [];
  for (const container of model.containers) {
    const cosmos = deployment.containers.get(container.name);
    if (cosmos === undefined) continue;
    const paths = container.partitionKey.map((path) => path.split("/").filter((part) => part !== ""));
    for (const itemType of container.items) {
      if (itemType.keepLatest === undefined) continue;
      let items: Record<string, unknown>[];
      try {
        ({ resources: items } = await cosmos.items
          .query<Record<string, unknown>>({
            query: `SELECT ${addressProjection(container.partitionKey)} FROM c WHERE c.type = @type`,
            parameters: [{ name: "@type", value: itemType.type }],
          })
          .fetchAll());
      } catch (error) {
        throw wrapCosmosError(error, {
          code: "verify.requestFailed",
          action: `read the ${itemType.type} items of container ${container.name}`,
        });
      }
      const sizes = new Map<string, { key: unknown[]; size: number }>();
      for (const item of items) {
        const key = paths.map((segments) =>
          segments.reduce<unknown>(
            (value, segment) =>
              typeof value === "object" && value !== null
                ? (value as Record<string, unknown>)[segment]
                : undefined,
            item,
          ),
        );
        const text = JSON.stringify(key);
        const entry = sizes.get(text) ?? { key, size: 0 };
        sizes.set(text, { key, size: entry.size + 1 });
      }
      const fullest = [...sizes.values()].sort((a, b) => b.size - a.size)[0];
      if (fullest !== undefined && fullest.size > itemType.keepLatest.count) {
        found.push({
          container: container.name,
          itemType: itemType.type,
          partitionKey: fullest.key,
          size: fullest.size,
          count: itemType.keepLatest.count,
        });
      }
    }
  }
  return found;
}
