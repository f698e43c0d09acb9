/**
 * The partition layout of a container under its load (`layout.ts`) with the hash placement of
 * its heavy keys (`hash-partitions.ts`), remembered per load: the fixed point, the layout rounds,
 * the capacity modes and the next models of a design ask the same load again.
 */
import type { PartitionKeyHashing } from "../cosmos/partition-key-hash.js";
import type { Container, Throughput } from "../model/types.js";
import { partitionKeyHashingOf } from "../planner/container-definition.js";
import { placeHeavyKeys, type PlacedKeys } from "./hash-partitions.js";
import { layoutFor, type LayoutMode, type PartitionLayout } from "./layout.js";
import type { ContainerLoad } from "./loads.js";

/**
 * Each load's heavy keys hashed once per hashing (a load is complete, never changed, once the
 * layouts read it): the layouts of every mode, round and fixed-point iteration ask the same load
 * at many partition counts.
 */
const placedKeys = new WeakMap<ContainerLoad, Map<string, PlacedKeys>>();

function placedKeysOf(load: ContainerLoad, hashing: PartitionKeyHashing): PlacedKeys {
  let byHashing = placedKeys.get(load);
  if (byHashing === undefined) {
    byHashing = new Map();
    placedKeys.set(load, byHashing);
  }
  const key = `${hashing.kind}${hashing.version}`;
  let placed = byHashing.get(key);
  if (placed === undefined) {
    placed = placeHeavyKeys(heavyKeysOf(load), hashing);
    byHashing.set(key, placed);
  }
  return placed;
}

/** Load of the busiest physical partition when the container has `partitions` of them. */
function hottestAt(load: ContainerLoad, partitions: number, hashing: PartitionKeyHashing): number {
  return placedKeysOf(load, hashing).hottestAt(load.spreadPeak, partitions);
}

/** The load's named keys as heavy keys to place (components and RU/s at peak). */
export function heavyKeysOf(load: ContainerLoad) {
  return [...load.keys.values()].map((key) => ({ components: key.components, load: key.peak }));
}

/** The load of a container no plan touches. */
export const EMPTY_LOAD: ContainerLoad = {
  avg: 0,
  peak: 0,
  keys: new Map(),
  spreadPeak: 0,
  fanOutPerPartition: new Map(),
  aggregated: new Map(),
};

/** The layout mode a container's settings imply (shared database throughput splits like autoscale). */
export function layoutModeOf(throughput: Throughput | undefined, hint: LayoutMode): LayoutMode {
  switch (throughput?.mode) {
    case undefined:
      return hint;
    case "manual":
    case "autoscale":
    case "serverless":
      return throughput.mode;
    case "shared":
      return "autoscale";
    default:
      return throughput satisfies never;
  }
}

/**
 * Layouts already found, per load (a load is never changed once read): every fixed-point
 * iteration, layout round and capacity mode asks again, and so do the next models of a design
 * that leave the container's load as it was.
 */
const layouts = new WeakMap<ContainerLoad, Map<string, PartitionLayout>>();

/** The layout of `container` in `mode` under `load` (pinned partitions and RU/s respected). */
export function containerLayout(
  container: Container,
  mode: LayoutMode,
  load: ContainerLoad,
  storageGB: number,
  planned?: { readonly partitions: number; readonly fixed: boolean },
): PartitionLayout {
  const hashing = partitionKeyHashingOf(container);
  const pinned = container.throughput;
  const pinnedRus =
    pinned?.mode === "manual" && mode === "manual"
      ? pinned.rus
      : pinned?.mode === "autoscale" && mode === "autoscale"
        ? pinned.maxRus
        : undefined;
  // Everything the layout reads besides the load.
  const key = [
    mode,
    hashing.kind,
    hashing.version,
    storageGB,
    container.physicalPartitions,
    pinnedRus,
    planned?.partitions,
    planned?.fixed,
  ].join("|");
  let known = layouts.get(load);
  if (known === undefined) {
    known = new Map();
    layouts.set(load, known);
  }
  let layout = known.get(key);
  if (layout === undefined) {
    layout = newContainerLayout(container, mode, load, storageGB, hashing, pinnedRus, planned);
    known.set(key, layout);
  }
  return layout;
}

function newContainerLayout(
  container: Container,
  mode: LayoutMode,
  load: ContainerLoad,
  storageGB: number,
  hashing: PartitionKeyHashing,
  pinnedRus: number | undefined,
  planned?: { readonly partitions: number; readonly fixed: boolean },
): PartitionLayout {
  return layoutFor(mode, {
    peak: load.peak,
    storageGB,
    hottestAt: (partitions) => hottestAt(load, partitions, hashing),
    // The busiest partition holds at least the largest key and its share of the spread load.
    hottestLowerBound: (partitions) => load.spreadPeak / partitions + placedKeysOf(load, hashing).largest,
    heavyKeys: load.keys.size,
    ...(container.physicalPartitions !== undefined
      ? { pinnedPartitions: container.physicalPartitions }
      : planned?.fixed === true
        ? { pinnedPartitions: planned.partitions }
        : planned === undefined || mode === "serverless"
          ? {}
          : { minPartitions: planned.partitions }),
    ...(pinnedRus === undefined ? {} : { pinnedRus }),
  });
}
