/**
 * Where the complete record of an entity is read by its key alone: an item type that stores the
 * entity's own records (no `source`, `select`, bucket or replicas) whose id and partition key
 * templates name only the entity's key (write shards picked by the key, or none). The generated
 * code reads a parent there for the copies of its attributes (src/render/code/model-data.ts,
 * copy sources), and the planner charges that read (src/planner/plan-copy-refresh.ts). Pure.
 */
import { coversKey, isKeyAttribute } from "../workload/keys.js";
import { templateAttributes, templateUses } from "./templates.js";
import type { Container, ItemType, Model } from "./types.js";

/**
 * The first item type of `model` holding `entity`'s complete records addressed by its key alone
 * (every key attribute, and nothing else, in its templates).
 */
export function keyedPlacement(
  model: Model,
  entity: { readonly name: string; readonly key: readonly string[] },
): { container: Container; item: ItemType } | undefined {
  for (const container of model.containers) {
    for (const item of container.items) {
      if (item.entity !== entity.name || item.source !== undefined || item.select !== undefined) continue;
      if (item.bucket !== undefined || item.replicas !== undefined) continue;
      const templates = [item.id, ...item.partitionKey];
      const named = templates.flatMap((t) => templateAttributes(t));
      const keyOnly = named.every((name) => isKeyAttribute(entity, name)) && coversKey(entity, named);
      const shardOk =
        item.shards === undefined || item.shardBy === undefined || isKeyAttribute(entity, item.shardBy);
      if (keyOnly && shardOk && !templates.some((t) => templateUses(t, "bucket"))) return { container, item };
    }
  }
  return undefined;
}
