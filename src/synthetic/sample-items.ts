/**
 * Realistic sample items for the documents: a few stored items per item type of a model, built
 * from a small synthetic dataset through the same materialization that verify loads, so the
 * samples show exactly what the containers hold. Pure and deterministic.
 */
import type { KeyValue } from "../model/templates.js";
import type { Model } from "../model/types.js";
import type { Workload } from "../workload/types.js";
import { generateDataset } from "./generate-records.js";
import { materializeDataset } from "./materialize-dataset.js";

export interface SampleItemsOptions {
  /** Default 1. */
  readonly seed?: number;
  /** Items per item type, default 5. */
  readonly perItemType?: number;
  /** Records per entity in the dataset the samples come from, default 200. */
  readonly maxItemsPerEntity?: number;
  /** Cut strings longer than this many characters, marking the cut with "…" (display only). */
  readonly abbreviateStrings?: number;
}

export interface SampleItems {
  readonly container: string;
  readonly itemType: string;
  readonly items: readonly {
    readonly item: Readonly<Record<string, unknown>>;
    readonly partitionKey: readonly KeyValue[];
  }[];
}

/**
 * Up to `perItemType` items of every item type, preferring items whose derived data is not empty
 * (non-zero counters, non-empty embedded arrays), in container and item type order.
 * @example sampleItems(workload, model, { perItemType: 5 })[0] // { container: "users", itemType: "user", items: [...] }
 */
export function sampleItems(
  workload: Workload,
  model: Model,
  options: SampleItemsOptions = {},
): readonly SampleItems[] {
  const dataset = generateDataset(workload, {
    seed: options.seed ?? 1,
    maxItemsPerEntity: options.maxItemsPerEntity ?? 200,
  });
  const perItemType = options.perItemType ?? 5;
  // Replicas are identical but for their key: a sample never needs more than it shows.
  const byContainer = materializeDataset(workload, model, dataset, { maxReplicas: perItemType });
  const samples: SampleItems[] = [];
  for (const container of model.containers) {
    const items = byContainer.find((entry) => entry.container === container.name)?.items ?? [];
    for (const itemType of container.items) {
      const ofType = items.filter((entry) => entry.itemType === itemType.type);
      const derived = [
        ...itemType.counts.map((counter) => counter.as),
        ...itemType.embeds.map((embed) => embed.as),
      ];
      const richness = (item: Readonly<Record<string, unknown>>): number =>
        derived.filter((name) => {
          const value = item[name];
          return Array.isArray(value)
            ? value.length > 0
            : typeof value === "number"
              ? value > 0
              : value != null;
        }).length;
      const chosen = [...ofType]
        .map((entry, position) => ({ entry, position, score: richness(entry.item) }))
        .sort((a, b) => b.score - a.score || a.position - b.position)
        .slice(0, perItemType)
        .sort((a, b) => a.position - b.position)
        .map(({ entry }) => ({
          item:
            options.abbreviateStrings === undefined
              ? entry.item
              : (abbreviate(entry.item, options.abbreviateStrings) as Record<string, unknown>),
          partitionKey: entry.partitionKey,
        }));
      samples.push({ container: container.name, itemType: itemType.type, items: chosen });
    }
  }
  return samples;
}

function abbreviate(value: unknown, length: number): unknown {
  if (typeof value === "string") return value.length > length ? `${value.slice(0, length)}…` : value;
  if (Array.isArray(value)) return value.map((entry) => abbreviate(entry, length));
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, abbreviate(entry, length)]));
  }
  return value;
}
