/**
 * Design rules driven by how the current candidate serves the access patterns: denormalized
 * copies, counters and embedded newest children for `with` data; materialized copies keyed by a
 * frequent filter and bounded top-N sets (with replicas when one partition cannot serve them) for
 * patterns that fan out; write sharding for a hot write key.
 */
import type { DetailedEvaluation } from "../cost/evaluate.js";
import { effectiveItemType } from "../model/materialize-item.js";
import type { Model } from "../model/types.js";
import type { ReadPattern, Workload } from "../workload/types.js";
import {
  addItem,
  containerFor,
  containerNameOf,
  editItem,
  findPrimary,
  freshContainerName,
  freshItemType,
  moveItem,
  propertyNameOf,
} from "./model-edits.js";
import type { Candidate } from "./search.js";

/** Replica counts tried for a bounded set. */
const REPLICA_CHOICES = [1, 2, 4, 8, 16, 32] as const;

/** True when a relationship with `via` (not many-to-many) leads from `parent` to `child`. */
function followsVia(workload: Workload, parent: string, child: string): boolean {
  return workload.relationships.some(
    (r) => r.parent === parent && r.child === child && r.kind !== "many-to-many" && r.via !== undefined,
  );
}

/** Copies, counters and embedded newest children that would answer a read's `with` data in place. */
export function denormalizationCandidates(
  workload: Workload,
  model: Model,
  evaluation: DetailedEvaluation,
  pattern: ReadPattern,
): Candidate[] {
  const plan = evaluation.patterns.find((p) => p.id === pattern.id)?.plan;
  if (plan === undefined || plan.type !== "read" || plan.container === "") return [];
  const container = model.containers.find((c) => c.name === plan.container);
  const stored = container?.items.find((i) => i.type === plan.itemType);
  if (container === undefined || stored === undefined) return [];
  // What the answering item holds, including what a copy inherits from its source.
  const item = effectiveItemType(stored, model);
  // A copy is maintained from its source: denormalize on the source item.
  const target =
    stored.source === undefined ? { container: container.name, type: stored.type } : stored.source;
  const candidates: Candidate[] = [];
  for (const entry of pattern.with) {
    switch (entry.kind) {
      case "attribute": {
        if (
          entry.entity === pattern.entity ||
          item.copies.some((c) => c.from.entity === entry.entity && c.from.attribute === entry.attribute)
        )
          break;
        // A copy is kept up to date through the relationship's `via` (the holders are found by
        // it, a new holder finds its source by it): none across a many-to-many relationship.
        if (!followsVia(workload, entry.entity, pattern.entity)) break;
        const as = `${propertyNameOf(entry.entity, false)}${entry.attribute.charAt(0).toUpperCase()}${entry.attribute.slice(1)}`;
        candidates.push({
          name: `copy ${entry.entity}.${entry.attribute} into ${target.type} items as ${as}`,
          model: editItem(model, target.container, target.type, (i) => ({
            ...i,
            copies: [...i.copies, { from: { entity: entry.entity, attribute: entry.attribute }, as }],
          })),
        });
        break;
      }
      case "count": {
        if (item.counts.some((c) => c.of === entry.entity)) break;
        const as = `${propertyNameOf(entry.entity, false)}Count`;
        candidates.push({
          name: `keep a count of ${entry.entity} in ${target.type} items as ${as}`,
          model: editItem(model, target.container, target.type, (i) => ({
            ...i,
            counts: [...i.counts, { of: entry.entity, as }],
          })),
        });
        break;
      }
      case "latest": {
        if (item.embeds.some((e) => e.entity === entry.entity)) break;
        const as = `recent${entry.entity}`;
        candidates.push({
          name: `embed the newest ${entry.n} ${entry.entity} in ${target.type} items (subset pattern)`,
          model: editItem(model, target.container, target.type, (i) => ({
            ...i,
            embeds: [...i.embeds, { entity: entry.entity, as, latest: entry.n }],
          })),
        });
        break;
      }
      case "aggregate":
      case "all":
        break;
      default:
        return entry satisfies never;
    }
  }
  return candidates;
}

/** For a read that fans out: a copy keyed by its filter, or a bounded set of its newest items. */
export function fanOutCandidates(
  workload: Workload,
  model: Model,
  evaluation: DetailedEvaluation,
  pattern: ReadPattern,
): Candidate[] {
  const evaluated = evaluation.patterns.find((p) => p.id === pattern.id);
  // Its own query visits every partition (even when the container has one today: the fan-out
  // grows with the data, and a diverging fan-out keeps the partition count from growing).
  const first = evaluated?.plan.operations[0];
  if (evaluated === undefined || first?.kind !== "query" || first.scope !== "fanOut") return [];
  const home = findPrimary(model, pattern.entity);
  if (home === undefined) return [];
  const candidates: Candidate[] = [];
  const filter = pattern.where.find((w) => w.op === "eq");
  const projection = {
    ...(pattern.select === undefined
      ? {}
      : { select: [...new Set([...pattern.select, home.item.id.replace(/[{}]/g, "")])] }),
    truncate: pattern.truncate,
  };
  if (filter !== undefined) {
    // Reuse a container already keyed by the filter (the case study's V3 move), or add one.
    const keyed = model.containers.find(
      (c) => c.partitionKey.length === 1 && c.partitionKey[0] === `/${filter.attribute}`,
    );
    const name =
      keyed?.name ?? freshContainerName(model, `${home.container.name}-by-${filter.attribute.toLowerCase()}`);
    const container = keyed ?? containerFor(name, home.item, [`/${filter.attribute}`]);
    candidates.push({
      name: `copy ${pattern.entity} into ${name} (partitioned by ${filter.attribute}) from the change feed`,
      model: addItem(model, container, {
        ...home.item,
        type: freshItemType(keyed, home.item.type),
        partitionKey: [`{${filter.attribute}}`],
        source: { container: home.container.name, type: home.item.type },
        embeds: [],
        copies: [],
        counts: [],
        ...projection,
      }),
    });
  }
  const newest = pattern.orderBy[0];
  if (pattern.where.length === 0 && newest?.direction === "desc" && pattern.limit !== undefined) {
    const name = freshContainerName(model, `${home.container.name}-latest`);
    // Identical copies spread the reads; the evaluation picks how many (more copies, more writes).
    for (const replicas of REPLICA_CHOICES) {
      const key = replicas > 1 ? `${home.item.type}-{replica}` : home.item.type;
      candidates.push({
        name: `keep the newest ${pattern.limit} ${pattern.entity} in ${name}${replicas > 1 ? ` (${replicas} replicas)` : ""}, trimmed from the change feed`,
        model: addItem(model, containerFor(name, home.item, ["/partition"]), {
          ...home.item,
          partitionKey: [key],
          source: { container: home.container.name, type: home.item.type },
          keepLatest: { count: pattern.limit, by: newest.attribute },
          ...(replicas > 1 ? { replicas } : {}),
          embeds: [],
          copies: [],
          counts: [],
          ...projection,
        }),
      });
    }
  }
  return candidates;
}

/** Shard counts tried for a hot write key. */
const SHARD_CHOICES = [4, 8, 16, 20, 32, 64] as const;

/**
 * Write sharding for a container whose hottest logical partition is over the limit: each item
 * type written there gets a `{key}-{shard}` key (in its own container when it shares one), the
 * shard picked by hashing an attribute that reads give with the key, so they stay targeted.
 */
export function shardingCandidates(
  workload: Workload,
  model: Model,
  evaluation: DetailedEvaluation,
  containerName: string,
): Candidate[] {
  const container = model.containers.find((c) => c.name === containerName);
  if (
    container === undefined ||
    container.partitionKey.length !== 1 ||
    evaluation.containers.every((c) => c.name !== containerName)
  )
    return [];
  const candidates: Candidate[] = [];
  for (const item of container.items) {
    const keyAttribute = /^\{(\w+)\}$/.exec(item.partitionKey[0] ?? "")?.[1];
    const entity = workload.entities.find((e) => e.name === item.entity);
    const written = workload.accessPatterns.some((p) => p.type === "write" && p.entity === item.entity);
    if (
      keyAttribute === undefined ||
      entity === undefined ||
      !written ||
      item.source !== undefined ||
      item.replicas !== undefined
    )
      continue;
    if (keyAttribute === entity.key) continue; // one item per key: sharding cannot spread it
    const companions = workload.accessPatterns
      .filter(
        (p): p is ReadPattern =>
          p.type === "read" && p.entity === item.entity && p.where.some((w) => w.attribute === keyAttribute),
      )
      .flatMap((p) =>
        p.where.filter((w) => w.op === "eq" && w.attribute !== keyAttribute).map((w) => w.attribute),
      );
    const shardBy = companions[0] ?? entity.key;
    const path = `/${keyAttribute}Shard`;
    const alone = container.items.length === 1;
    const target = alone ? container.name : freshContainerName(model, containerNameOf(item.entity));
    for (const shards of SHARD_CHOICES) {
      const sharded = { ...item, partitionKey: [`{${keyAttribute}}-{shard}`], shards, shardBy };
      candidates.push({
        name: `${alone ? "" : `move ${item.type} to ${target} and `}shard it: key ${keyAttribute}-{shard}, ${shards} shards picked by hash(${shardBy})`,
        model: alone
          ? {
              ...model,
              containers: model.containers.map((c) =>
                c.name === containerName ? { ...c, partitionKey: [path], items: [sharded] } : c,
              ),
            }
          : moveItem(
              model,
              { container: container.name, type: item.type },
              containerFor(target, sharded, [path]),
              sharded,
            ),
      });
    }
  }
  return candidates;
}
