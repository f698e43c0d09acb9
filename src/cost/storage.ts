/**
 * Storage of a container at the end of the planning horizon, and of its largest logical
 * partition: from entity counts and growth (or the steady state under TTL), item sizes plus
 * system properties, relationship maxima for keys that group children under a parent, and the
 * growth rate of a skewed key at the peak write rate.
 */
import { soleKey, soleVia } from "../workload/keys.js";
import { BYTES_PER_GB, MAX_LOGICAL_PARTITION_GB, SYSTEM_PROPERTIES_BYTES } from "../cosmos/limits.js";
import type { Container } from "../model/types.js";
import type { PlanEnvironment } from "../planner/environment.js";
import { partitionKeyAttributes } from "../planner/routing.js";
import { zipfShare } from "./zipf.js";

export interface ContainerStorage {
  readonly totalGB: number;
  /** Largest logical partition (all item types sharing its key). */
  readonly hottestKeyGB: number;
  /** Item types whose key is skewed: how fast the hottest key grows at the peak write rate. */
  readonly growth: readonly {
    readonly itemType: string;
    readonly gbPerHour: number;
    readonly hoursTo20GB: number;
  }[];
}

/** Storage figures of one container. */
export function storageOf(env: PlanEnvironment, container: Container): ContainerStorage {
  const { context } = env;
  let totalGB = 0;
  const bySignature = new Map<string, number>();
  const growth: { itemType: string; gbPerHour: number; hoursTo20GB: number }[] = [];
  for (const stored of container.items) {
    const placement = context.placement(container.name, stored.type);
    if (placement === undefined) continue;
    const { item } = placement;
    const shape = env.shape(placement);
    const itemBytes = shape.avgBytes + SYSTEM_PROPERTIES_BYTES;
    const count = env.itemCount(placement);
    totalGB += (count * itemBytes) / BYTES_PER_GB;
    const attributes = partitionKeyAttributes(item);
    const spread = (item.shards ?? 1) * (item.replicas ?? 1);
    let perKey: number;
    if (item.keepLatest !== undefined) {
      perKey = item.keepLatest.count;
    } else if (attributes.length === 0) {
      perKey = count / spread;
    } else {
      // The largest key is at most as large as its least concentrated attribute allows: a
      // bounded parent (relationship max), a skewed plain attribute (Zipf share of all items),
      // or an even spread.
      const bounded = attributes
        .map((attribute) => context.parentsOf(item.entity).find((r) => soleVia(r) === attribute))
        .find((r) => r?.max !== undefined);
      const even = count / env.logicalKeys(placement);
      const perAttribute = attributes.map((attribute) => {
        const relationship = context.parentsOf(item.entity).find((r) => soleVia(r) === attribute);
        if (relationship?.max !== undefined)
          return relationship.max / env.recordsPerBucket(item) / (item.shards ?? 1);
        const skew = context.skewOf(item.entity, attribute);
        const entity = context.entity(item.entity);
        const unique =
          soleKey(entity) === attribute || entity.attributes.some((a) => a.name === attribute && a.unique);
        if (relationship === undefined && skew > 0 && !unique) {
          const share = zipfShare(context.distinctValues(item.entity, attribute), skew);
          return (share * count) / ((item.shards ?? 1) * (item.replicas ?? 1));
        }
        return even;
      });
      perKey =
        attributes.length === 1 ? (perAttribute[0] ?? even) : Math.min(...perAttribute, Math.max(even, 1));
      const skewed = attributes
        .filter((attribute) => context.parentsOf(item.entity).some((r) => soleVia(r) === attribute))
        .map((attribute) => ({ attribute, skew: context.skewOf(item.entity, attribute) }))
        // A skewed entity key is one item per value: it does not grow.
        .find((a) => a.skew > 0 && soleKey(context.entity(item.entity)) !== a.attribute);
      if (skewed !== undefined && bounded === undefined) {
        const writes = context
          .writesOf(item.entity)
          .reduce(
            (sum, p) =>
              sum +
              (p.type === "write" &&
              p.operation !== "delete" &&
              p.operation !== "patch" &&
              p.operation !== "replace"
                ? p.rps.peak * p.batch
                : 0),
            0,
          );
        const share =
          zipfShare(context.distinctValues(item.entity, skewed.attribute), skewed.skew) / (item.shards ?? 1);
        const gbPerHour = (writes * share * (itemBytes / env.recordsPerBucket(item)) * 3600) / BYTES_PER_GB;
        if (gbPerHour > 0) {
          growth.push({
            itemType: item.type,
            gbPerHour,
            hoursTo20GB:
              Math.max(0, MAX_LOGICAL_PARTITION_GB - (perKey * itemBytes) / BYTES_PER_GB) / gbPerHour,
          });
        }
      }
    }
    const signature = item.partitionKey.join("|");
    bySignature.set(signature, (bySignature.get(signature) ?? 0) + (perKey * itemBytes) / BYTES_PER_GB);
  }
  return { totalGB, hottestKeyGB: Math.max(0, ...bySignature.values()), growth };
}
