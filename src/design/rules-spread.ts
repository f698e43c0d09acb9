/**
 * Spreading a hot logical partition: write shards for a hot write key (`{key}-{shard}`, the
 * shard hashed from an attribute the reads give with the key), replicas for a hot read set kept
 * from the change feed (`{key}-{replica}`, the reader picks one); and for a logical partition
 * over 20 GB, shards or a hierarchical key that ends with the entity's own key. A hierarchical
 * key's first level is spread the same way (a hot tenant of `/tenantId, /id` gets replicas of
 * its prefix, `{tenantId}-{replica}`, each a prefix of its own), and replicas of a value whose
 * records approach 20 GB keep the record's own key as a lower level.
 * Primary item types and copies alike; an item type that shares its container moves to its own.
 */
import { keyAttributes, soleKey } from "../workload/keys.js";
import { MAX_LOGICAL_PARTITION_GB, MAX_PHYSICAL_PARTITION_RUS } from "../cosmos/limits.js";
import { patternLoadOn, type DetailedEvaluation } from "../cost/evaluate.js";
import { parseTemplate, templateAttributes } from "../model/templates.js";
import type { Container, ItemType, Model } from "../model/types.js";
import type { ReadPattern, Workload } from "../workload/types.js";
import {
  containerFor,
  containerNameOf,
  freshContainerName,
  moveItem,
  ownPartitionAttribute,
  removeItem,
  unspread,
} from "./model-edits.js";
import type { Candidate } from "./search.js";

/** Shard counts tried for a hot write key. */
export const SHARD_CHOICES = [4, 8, 16, 20, 32, 64, 128, 256] as const;
/** Replica counts tried for a hot read set. */
export const REPLICA_CHOICES = [2, 4, 8, 16, 32, 64] as const;

/**
 * How many counts to try: `all` that could be right (the hard-limit step: the estimate's count,
 * the one below and two above), or only the estimate's (a repair inside another move).
 */
export type SpreadChoices = "all" | "estimate";

function pick(list: readonly number[], needed: number, mode: SpreadChoices, above: number): number[] {
  const larger = list.filter((n) => n > above);
  const first = larger.findIndex((n) => n >= needed);
  if (mode === "all") {
    // The count the estimate asks for, the one below (the estimate may be pessimistic) and two
    // above (hot keys that share a physical partition need more): far fewer would not do, far
    // more only costs writes and evaluation time.
    const at = first === -1 ? larger.length - 1 : first;
    return larger.slice(Math.max(0, at - 1), at + 3);
  }
  // A repair tries the smallest count that should do; if it falls short, the next repair level
  // starts from it.
  return larger
    .filter((n) => n >= needed)
    .slice(0, 1)
    .concat(larger.every((n) => n < needed) ? larger.slice(-1) : []);
}

/** Shares (0..1) of a container's RU/s at peak that reads and writes (with their change feed) put on it. */
function loadShares(
  workload: Workload,
  evaluation: DetailedEvaluation,
  container: string,
): { reads: number; writes: number } {
  let reads = 0;
  let writes = 0;
  evaluation.patterns.forEach((evaluated, index) => {
    const pattern = workload.accessPatterns[index];
    if (pattern === undefined) return;
    const load = patternLoadOn(evaluated.plan, container) * pattern.rps.peak;
    if (pattern.type === "read") reads += load;
    else writes += load;
  });
  const total = reads + writes;
  return total <= 0 ? { reads: 0.5, writes: 0.5 } : { reads: reads / total, writes: writes / total };
}

/** A spread that answers less than this share of a container's load is not tried. */
const MIN_SHARE_SPREAD = 0.1;

/**
 * The key of an item type as its first level: that level's attribute (none for a constant) and
 * the templates of the levels below it (a hierarchical key's; none for a single path).
 */
function keyShape(
  item: ItemType,
): { attribute?: string; literal: boolean; lower: readonly string[] } | undefined {
  const parts = parseTemplate(item.partitionKey[0] ?? "");
  const attributes = parts.filter((p) => p.kind === "attribute");
  const lower = item.partitionKey.slice(1);
  if (attributes.length > 1 || parts.some((p) => p.kind === "bucket")) return undefined;
  const first = attributes[0];
  return first?.kind === "attribute"
    ? { attribute: first.name, literal: false, lower }
    : lower.length > 0
      ? undefined
      : { literal: true, lower };
}

/** Replaces `item` (in `container`) by `next`, in place when it is alone there, else in its own container. */
function placeItem(
  model: Model,
  container: Container,
  item: ItemType,
  next: ItemType,
  paths: readonly string[],
  wanted: string,
): { model: Model; moved?: string } {
  if (container.items.length === 1) {
    return {
      model: {
        ...model,
        containers: model.containers.map((c) =>
          c.name === container.name ? { ...c, partitionKey: paths, items: [next] } : c,
        ),
      },
    };
  }
  const target = freshContainerName(model, wanted);
  return {
    model: moveItem(
      model,
      { container: container.name, type: item.type },
      containerFor(target, next, paths),
      next,
    ),
    moved: target,
  };
}

/** An attribute reads of `entity` give together with `keyAttribute` (the shard stays computable). */
function shardAttribute(workload: Workload, entity: string, keyAttribute: string, fallback: string): string {
  const companions = workload.accessPatterns
    .filter(
      (p): p is ReadPattern =>
        p.type === "read" && p.entity === entity && p.where.some((w) => w.attribute === keyAttribute),
    )
    .flatMap((p) =>
      p.where.filter((w) => w.op === "eq" && w.attribute !== keyAttribute).map((w) => w.attribute),
    );
  return companions[0] ?? fallback;
}

/**
 * Candidates that spread the hottest logical partition of `containerName` (see the module note).
 * @example spreadCandidates(workload, model, evaluation, "reactions", "all").map((c) => c.name)
 */
export function spreadCandidates(
  workload: Workload,
  model: Model,
  evaluation: DetailedEvaluation,
  containerName: string,
  mode: SpreadChoices,
  purpose: "throughput" | "storage" = "throughput",
): Candidate[] {
  const container = model.containers.find((c) => c.name === containerName);
  const evaluated = evaluation.containers.find((c) => c.name === containerName);
  if (container === undefined || evaluated === undefined) return [];
  // A spread aims for the workload's target share of a partition's 10,000 RU/s, with the hottest
  // logical partition at the top of its RU range (the headroom `evaluate.noHeadroom` checks).
  const hottest = Math.max(
    evaluated.hottestLogicalPartition.rus,
    evaluated.limits.hottestLogicalPartitionRusHigh.value,
    evaluated.hottestPhysicalPartition.rus,
  );
  const factor = hottest / (MAX_PHYSICAL_PARTITION_RUS * workload.scale.targetUtilization);
  // Shards spread writes (a read of the key visits every shard); replicas spread reads (a write
  // goes to every replica): each is tried where its kind of load matters.
  const shares = loadShares(workload, evaluation, containerName);
  return container.items.flatMap((item) => {
    const shape = keyShape(item);
    const entity = workload.entities.find((e) => e.name === item.entity);
    if (shape === undefined || entity === undefined || item.bucket !== undefined) return [];
    const target: SpreadTarget = {
      workload,
      model,
      container,
      item,
      entity,
      attribute: shape.attribute,
      lower: shape.lower,
      factor,
      largestGB: evaluated.limits.largestLogicalPartitionGB.value,
    };
    return [
      ...shardCandidates(target, mode, shares),
      ...replicaCandidates(target, mode, shares),
      // Only in the last step: a copy made inside another move would take the reads that the
      // later steps' counters and copies (kept on the primary item) are for.
      ...(purpose === "throughput" && mode === "all" ? replicatedCopyCandidates(target, shares) : []),
      ...(purpose === "storage" ? hierarchicalKeyCandidates(target) : []),
    ];
  });
}

/** The item type a spread move changes, with what the moves need to know of it. */
interface SpreadTarget {
  readonly workload: Workload;
  readonly model: Model;
  readonly container: Model["containers"][number];
  readonly item: ItemType;
  readonly entity: Workload["entities"][number];
  /** The attribute of its key's first level (`keyShape`), undefined for a constant key. */
  readonly attribute: string | undefined;
  /** The templates of a hierarchical key's levels below the first (none for a single path). */
  readonly lower: readonly string[];
  /** The container's largest logical partition at the horizon, GB. */
  readonly largestGB: number;
  /** How many times the hottest partition is over its target (`scale.targetUtilization` of the limit). */
  readonly factor: number;
}

/** A move's name, with the move to another container it needs first when it does. */
function spreadName(item: ItemType, what: string, moved: string | undefined): string {
  return `${moved === undefined ? "" : `move ${item.type} to ${moved} and `}${what}`;
}

/** Write shards: a hot key value becomes `shards` logical partitions (a read of it visits every shard). */
function shardCandidates(
  target: SpreadTarget,
  mode: SpreadChoices,
  shares: { readonly writes: number },
): Candidate[] {
  const { workload, model, container, item, entity, attribute: a, factor } = target;
  const written = workload.accessPatterns.some((p) => p.type === "write" && p.entity === item.entity);
  if (
    a === undefined ||
    // A shard in a hierarchical key's first level: a read of the value could not be a prefix query.
    target.lower.length > 0 ||
    soleKey(entity) === a ||
    !written ||
    // Replicas of a primary item type are copies of their own (replicatedCopyCandidates).
    (item.replicas !== undefined && item.source === undefined) ||
    (mode !== "all" && shares.writes < MIN_SHARE_SPREAD)
  )
    return [];
  const current = item.shards ?? 1;
  const shardBy = item.shardBy ?? shardAttributeOf(target);
  const needed = Math.ceil(current * factor * Math.max(shares.writes, MIN_SHARE_SPREAD));
  // Replicas keep theirs: each write goes to its shard in every replica.
  const replicated = item.replicas !== undefined;
  const template = replicated ? `{${a}}-{shard}-{replica}` : `{${a}}-{shard}`;
  const path = replicated ? `/${a}ShardReplica` : `/${a}Shard`;
  return pick(SHARD_CHOICES, needed, mode, current).map((shards) => {
    const next: ItemType = { ...item, partitionKey: [template], shards, shardBy };
    const placed = placeItem(model, container, item, next, [path], containerNameOf(item.entity));
    return {
      name: spreadName(
        item,
        `shard ${item.type}: key ${template.replace(`{${a}}`, a)}, ${shards} shards picked by hash(${shardBy})`,
        placed.moved,
      ),
      model: placed.model,
    };
  });
}

/**
 * The attribute whose hash picks a record's write shard: one the reads give with the key, else
 * the record's own key (of a composite key, an attribute other than the one sharded: the items
 * of one order spread by their item id).
 */
function shardAttributeOf(target: SpreadTarget): string {
  const { workload, item, entity, attribute: a } = target;
  const own =
    keyAttributes(entity)
      .filter((name) => name !== a)
      .at(-1) ?? ownPartitionAttribute(entity, workload);
  return a === undefined ? own : shardAttribute(workload, item.entity, a, own);
}

/** Replicas of a copy: every change is written to each, each read picks one. */
function replicaCandidates(
  target: SpreadTarget,
  mode: SpreadChoices,
  shares: { readonly reads: number },
): Candidate[] {
  const { model, container, item, attribute: a, factor } = target;
  if (item.source === undefined || (mode !== "all" && shares.reads < MIN_SHARE_SPREAD)) return [];
  const current = item.replicas ?? 1;
  // A sharded copy keeps its shards: each read picks a replica and visits its shards.
  const template =
    item.replicas !== undefined
      ? (item.partitionKey[0] ?? "")
      : item.shards !== undefined
        ? `${item.partitionKey[0] ?? ""}-{replica}`
        : a === undefined
          ? `${item.type}-{replica}`
          : `{${a}}-{replica}`;
  const path =
    item.replicas !== undefined || a === undefined
      ? (container.partitionKey[0] ?? "/partition")
      : item.shards !== undefined
        ? `${container.partitionKey[0] ?? `/${a}Shard`}Replica`
        : `/${a}Replica`;
  // A hierarchical key keeps its lower levels: each replica of a value is a prefix of its own.
  const paths = [path, ...container.partitionKey.slice(1)];
  // Only reads need spreading: the writes stay on every replica.
  const needed = Math.ceil(current * factor * Math.max(shares.reads, MIN_SHARE_SPREAD));
  return pick(REPLICA_CHOICES, needed, mode, current).map((replicas) => {
    const next: ItemType = { ...item, partitionKey: [template, ...target.lower], replicas };
    const placed = placeItem(model, container, item, next, paths, `${container.name}-replicas`);
    return {
      name: spreadName(
        item,
        `keep ${replicas} replicas of ${item.type} (key ${[template, ...target.lower].join(", ")}; each read picks one)`,
        placed.moved,
      ),
      model: placed.model,
    };
  });
}

/**
 * Replicas of a primary item type's hot reads: a copy kept from its change feed in a container of
 * its own, `replicas` times under `{key}-{replica}` (each read picks one; the planner sends a
 * read to the most replicated of equally cheap item types). A primary item type cannot be
 * replicated in place: its writes would not be one transaction. The copy holds the record's own
 * attributes; what the item embeds, copies or counts stays with it. The copy of a sharded item
 * type follows its sharding; an item type whose hot key is both read and written besides gets
 * shards and a copy that follows them (`shardedCopyCandidates`).
 */
function replicatedCopyCandidates(
  target: SpreadTarget,
  shares: { readonly reads: number; readonly writes: number },
): Candidate[] {
  const { item, attribute: a } = target;
  if (
    item.source !== undefined ||
    item.replicas !== undefined ||
    item.bucket !== undefined ||
    a === undefined
  )
    return [];
  if (item.shards !== undefined)
    return target.lower.length > 0 ? [] : shardedCopyCandidates(target, shares, item.shards);
  const both =
    target.lower.length === 0 && shares.writes >= MIN_SHARE_SPREAD && shares.reads >= MIN_SHARE_SPREAD;
  return [...plainReplicatedCopies(target, shares), ...(both ? shardedCopyCandidates(target, shares) : [])];
}

/** Replicas of an unsharded primary item type (see `replicatedCopyCandidates`). */
function plainReplicatedCopies(target: SpreadTarget, shares: { readonly reads: number }): Candidate[] {
  const { workload, model, container, item, attribute: a, factor } = target;
  if (a === undefined) return [];
  // Each replica holds all of a value's records: where the value's records are near the 20 GB of a
  // logical partition (over the workload's target share), or the key is hierarchical already, the
  // replica is the first level of a hierarchical key whose lower levels end with the record's own
  // key, so that a value's records in one replica spread over logical partitions (and, past 50 GB,
  // over physical partitions) while a read of the value stays a query on one prefix.
  const lower =
    target.lower.length > 0
      ? target.lower.map((template, index) => ({
          template,
          path: container.partitionKey[index + 1] ?? `/${templateAttributes(template).join("")}`,
        }))
      : target.largestGB > workload.scale.targetUtilization * MAX_LOGICAL_PARTITION_GB
        ? ownLevels(target).map((name) => ({ template: `{${name}}`, path: `/${name}` }))
        : [];
  const templates = [`{${a}}-{replica}`, ...lower.map((level) => level.template)];
  const paths = [`/${a}Replica`, ...lower.map((level) => level.path)];
  const needed = Math.ceil(factor * Math.max(shares.reads, MIN_SHARE_SPREAD));
  return pick(REPLICA_CHOICES, needed, "all", 1).map((replicas) => {
    const name = freshContainerName(model, `${container.name}-replicas`);
    const copy: ItemType = {
      ...unspread(item),
      partitionKey: templates,
      replicas,
      source: { container: container.name, type: item.type },
      embeds: [],
      copies: [],
      counts: [],
    };
    const key =
      templates.length === 1 ? `key ${templates[0] ?? ""}` : `hierarchical key [${paths.join(", ")}]`;
    return {
      name: `copy ${item.type} into ${name} from the change feed and keep ${replicas} replicas of it (${key}; each read picks one)`,
      model: { ...model, containers: [...model.containers, containerFor(name, copy, paths)] },
    };
  });
}

/**
 * A hot key both written and read: write shards (`{key}-{shard}`) for the writes, and for the
 * reads a copy kept from the change feed that follows the same sharding, `replicas` times
 * (`{key}-{shard}-{replica}`, the same shards picked by the same attribute): each write goes to
 * its shard in the item type and in every replica, each read picks a replica and visits its
 * shards. `shards` given: the item type is sharded already and keeps its shards; otherwise the
 * counts the estimate asks for (and the next of each) are tried.
 */
function shardedCopyCandidates(
  target: SpreadTarget,
  shares: { readonly reads: number; readonly writes: number },
  shards?: number,
): Candidate[] {
  const { workload, model, container, item, entity, attribute: a, factor } = target;
  const written = workload.accessPatterns.some((p) => p.type === "write" && p.entity === item.entity);
  if (a === undefined || soleKey(entity) === a || !written) return [];
  const shardBy = item.shardBy ?? shardAttributeOf(target);
  // The smallest count that should do and the next: the hot key's reads and writes both weigh.
  const two = (list: readonly number[], needed: number): number[] => {
    const at = list.findIndex((n) => n >= needed);
    return at === -1 ? list.slice(-1) : list.slice(at, at + 2);
  };
  const shardCounts =
    shards === undefined
      ? two(SHARD_CHOICES, Math.ceil(factor * Math.max(shares.writes, MIN_SHARE_SPREAD)))
      : [shards];
  const replicaCounts = two(REPLICA_CHOICES, Math.ceil(factor * Math.max(shares.reads, MIN_SHARE_SPREAD)));
  return shardCounts.flatMap((count) => {
    const sharded: ItemType = { ...item, partitionKey: [`{${a}}-{shard}`], shards: count, shardBy };
    const placed =
      shards === undefined
        ? placeItem(model, container, item, sharded, [`/${a}Shard`], containerNameOf(item.entity))
        : { model, moved: undefined };
    const source = placed.moved ?? container.name;
    return replicaCounts.map((replicas) => {
      const name = freshContainerName(placed.model, `${container.name}-replicas`);
      const copy: ItemType = {
        ...sharded,
        partitionKey: [`{${a}}-{shard}-{replica}`],
        replicas,
        source: { container: source, type: item.type },
        embeds: [],
        copies: [],
        counts: [],
      };
      const shardMove =
        shards === undefined
          ? `shard ${item.type}: key ${a}-{shard}, ${count} shards picked by hash(${shardBy}), then `
          : "";
      return {
        name: spreadName(
          item,
          `${shardMove}copy ${item.type} into ${name} from the change feed with the same ${count} shards and keep ${replicas} replicas of it (key ${a}-{shard}-{replica}; each read picks one and visits its shards)`,
          placed.moved,
        ),
        model: {
          ...placed.model,
          containers: [...placed.model.containers, containerFor(name, copy, [`/${a}ShardReplica`])],
        },
      };
    });
  });
}

/**
 * The levels a hierarchical key adds below a value to spread its records: the record's own key
 * (the attributes of a composite key besides the value's), none when the record's key is the
 * value itself or has more than two other attributes.
 */
function ownLevels(target: SpreadTarget): readonly string[] {
  const { entity, attribute: a } = target;
  if (a === undefined || soleKey(entity) === a) return [];
  const own = keyAttributes(entity).filter((name) => name !== a);
  return own.length > 2 ? [] : own;
}

/**
 * A hierarchical key ending with the record's own key: a value's records are no longer one
 * logical partition, so it can pass 20 GB. Not for throughput: every item of a first-level value
 * stays in one physical partition until storage splits it ("all writes at ingestion are limited
 * to one physical partition until it reaches 50 GB",
 * https://learn.microsoft.com/azure/cosmos-db/hierarchical-partition-keys, checked 2026-11-24).
 */
function hierarchicalKeyCandidates(target: SpreadTarget): Candidate[] {
  const { model, container, item, attribute: a } = target;
  // The levels below `a`: the record's own key (the attributes of a composite key besides `a`).
  const own = ownLevels(target);
  if (
    a === undefined ||
    own.length === 0 ||
    item.shards !== undefined ||
    item.keepLatest !== undefined ||
    container.partitionKey.length !== 1
  )
    return [];
  // Replicas keep their first level (`{a}-{replica}`): each replica of a value becomes a prefix.
  const first =
    item.replicas === undefined
      ? { template: `{${a}}`, path: `/${a}` }
      : { template: item.partitionKey[0] ?? "", path: container.partitionKey[0] ?? `/${a}Replica` };
  const next: ItemType = {
    ...item,
    partitionKey: [first.template, ...own.map((name) => `{${name}}`)],
  };
  const paths = [first.path, ...own.map((name) => `/${name}`)];
  const placed = placeItem(
    model,
    container,
    item,
    next,
    paths,
    `${containerNameOf(item.entity)}-by-${a.toLowerCase()}`,
  );
  return [
    {
      name: spreadName(item, `key ${item.type} by the hierarchical key [${paths.join(", ")}]`, placed.moved),
      model: placed.model,
    },
  ];
}

/**
 * Moves that take a hot partition's load elsewhere instead of spreading it: drop a copy (the
 * reads it served fan out again, and the repairs of that fan-out may choose another copy or set
 * of its reads), or key a primary item type by its own key again (its hot reads then fan out,
 * and a copy keyed by their filter can take them with replicas). Each is scored after those
 * repairs; alone, each breaks a read.
 */
export function relieveCandidates(workload: Workload, model: Model, containerName: string): Candidate[] {
  const container = model.containers.find((c) => c.name === containerName);
  if (container === undefined) return [];
  const candidates: Candidate[] = [];
  for (const item of container.items) {
    const entity = workload.entities.find((e) => e.name === item.entity);
    if (entity === undefined) continue;
    if (item.source !== undefined) {
      candidates.push({
        name: `drop the copy ${container.name}/${item.type}`,
        model: removeItem(model, container.name, item.type),
      });
      continue;
    }
    const shape = keyShape(item);
    if (
      container.items.length === 1 &&
      shape?.attribute !== undefined &&
      shape.attribute !== ownPartitionAttribute(entity, workload) &&
      item.bucket === undefined
    ) {
      const { shards: _shards, shardBy: _shardBy, replicas: _replicas, ...plain } = item;
      const own = ownPartitionAttribute(entity, workload);
      candidates.push({
        name: `key ${item.type} by its own key ${own} again`,
        model: {
          ...model,
          containers: model.containers.map((c) =>
            c.name === container.name
              ? {
                  ...c,
                  partitionKey: [`/${own}`],
                  items: [{ ...plain, partitionKey: [`{${own}}`] }],
                }
              : c,
          ),
        },
      });
    }
  }
  return candidates;
}
