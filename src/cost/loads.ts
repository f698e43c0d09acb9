/**
 * Where the request units of a set of plans land: RU/s per container at average and peak, and
 * per logical partition key, from each step's rate, charge and the skew of the attribute that
 * picks its partition key. Fan-out queries spread over every physical partition; point requests
 * and single-partition queries concentrate on the key their attribute values pick.
 */
import { keyViaPairs } from "../workload/keys.js";
import type { Placement } from "../planner/context.js";
import type { PlanEnvironment } from "../planner/environment.js";
import { partitionKeyAttributes } from "../planner/routing.js";
import type { Plan, PlanStep } from "../planner/types.js";
import type { AccessPattern } from "../workload/types.js";
import { parseTemplate, renderTemplate, templateAttributes } from "../model/templates.js";
import { zipfShare } from "./zipf.js";
import { BYTES_PER_GB, MAX_PHYSICAL_PARTITION_GB } from "../cosmos/limits.js";

/** Top values of a skewed key tracked by name for the physical-partition simulation. */
const TRACKED_VALUES = 8;
/** Most named keys tracked per contribution (replicas x shards x top values). */
const MAX_NAMED_KEYS = 256;

export interface KeyLoad {
  readonly key: string;
  /** RU/s at peak. */
  readonly peak: number;
  readonly avg: number;
}

/** A logical key's RU/s at peak at the top of its requests' RU ranges (`RuEstimate.high`). */
export interface KeyLoadHigh {
  readonly key: string;
  readonly high: number;
}

/** Load on one named logical key, with the key's values (one per partition key path). */
export interface NamedKeyLoad {
  peak: number;
  avg: number;
  /** RU/s at peak with every request at the top of its RU range (`RuEstimate.high`). */
  high: number;
  readonly components: readonly string[];
  /**
   * The load of a hierarchical key's first-level value beyond its named full keys: many small
   * logical partitions that one physical partition holds together (placed by the first level),
   * never one logical partition. Absent on logical keys.
   */
  readonly prefix?: true;
}

export interface ContainerLoad {
  avg: number;
  peak: number;
  /** RU/s at peak on named logical keys (hot values, literal keys, replicas, shards). */
  readonly keys: Map<string, NamedKeyLoad>;
  /** RU/s at peak spread evenly over all physical partitions (many small keys, fan-out). */
  spreadPeak: number;
  /** Fan-out RU/s at peak per physical partition, per pattern (for the divergence check). */
  readonly fanOutPerPartition: Map<string, number>;
  /**
   * Per pattern, the change-feed RU/s that never reach this container because a batch's changes
   * are summed per parent (counters): what separates the patterns' RU/s from the container's.
   */
  readonly aggregated: Map<string, { peak: number; avg: number }>;
}

interface Concentration {
  /** Names and shares (of the step's load) of the hottest keys (and first-level prefixes). */
  readonly keys: readonly {
    readonly components: readonly string[];
    readonly share: number;
    readonly prefix?: true;
  }[];
  /** Share of the load not on named keys, spread evenly. */
  readonly rest: number;
}

/** The attribute in the pattern's entity whose values pick the key of `attribute` in `placement`. */
function drivingAttribute(
  env: PlanEnvironment,
  pattern: AccessPattern,
  placement: Placement,
  attribute: string,
) {
  const { context } = env;
  const entity = placement.item.entity;
  if (entity === pattern.entity) return { entity, attribute };
  // The placement's entity is the pattern's parent: its key attribute is held by the via.
  const parent = context.relationship(entity, pattern.entity);
  const toVia = parent === undefined ? undefined : keyViaPairs(context.entity(entity), parent);
  const via = toVia?.find(([key]) => key === attribute)?.[1];
  if (via !== undefined) return { entity: pattern.entity, attribute: via };
  // The placement's entity is the pattern's child: its via holds the pattern entity's key.
  const child = context.relationship(pattern.entity, entity);
  const fromVia = child === undefined ? undefined : keyViaPairs(context.entity(pattern.entity), child);
  const key = fromVia?.find(([, holder]) => holder === attribute)?.[0];
  if (key !== undefined) return { entity: pattern.entity, attribute: key };
  return { entity, attribute };
}

/** The least concentrated of `attributes`' hottest values: a key is at most as hot as it. */
function hottestValueOf(
  env: PlanEnvironment,
  pattern: AccessPattern,
  placement: Placement,
  attributes: readonly string[],
): ZipfValues {
  let hottest = { n: Number.POSITIVE_INFINITY, s: 0, share: 1 };
  for (const attribute of attributes) {
    const driver = drivingAttribute(env, pattern, placement, attribute);
    const n = env.context.distinctValues(driver.entity, driver.attribute);
    const s = env.context.skewOf(driver.entity, driver.attribute);
    const share = zipfShare(n, s);
    if (share < hottest.share || hottest.n === Number.POSITIVE_INFINITY) hottest = { n, s, share };
  }
  return hottest;
}

/** A Zipf distribution of `n` values with skew `s`, and the hottest value's share. */
interface ZipfValues {
  readonly n: number;
  readonly s: number;
  readonly share: number;
}

type NamedKey = Concentration["keys"][number];

/** How one step's load divides among logical partition keys. */
function concentrationOf(env: PlanEnvironment, pattern: AccessPattern, placement: Placement): Concentration {
  const { item } = placement;
  const copies = (item.replicas ?? 1) * (item.shards ?? 1);
  const attributes = partitionKeyAttributes(item);
  // Key values as the service would hash them: rendered templates, with the k-th hottest value
  // of an attribute standing in for its real value.
  const render = (rank: number, replica: number, shard: number): string[] =>
    item.partitionKey.map((template) =>
      renderTemplate(template, {
        attributes: Object.fromEntries(attributes.map((a) => [a, `${a}#${rank}`])),
        replica,
        shard,
        bucket: "b",
      }),
    );
  // Every copy (replica x shard) of a value is its own logical key with an equal share. Beyond
  // MAX_NAMED_KEYS copies only an evenly spaced sample of them is named and placed by hash; the
  // other copies' load is counted as spread (that many keys fill every partition about evenly).
  const named = Math.min(copies, MAX_NAMED_KEYS);
  const split = (rank: number, share: number): NamedKey[] => {
    const out: NamedKey[] = [];
    const shards = item.shards ?? 1;
    for (let sample = 0; sample < named; sample++) {
      const copy = Math.floor((sample * copies) / named);
      out.push({ components: render(rank, Math.floor(copy / shards), copy % shards), share: share / copies });
    }
    return out;
  };
  const unnamedCopies = 1 - named / copies;
  if (attributes.length === 0) return { keys: split(1, 1), rest: unnamedCopies };
  const hottest = hottestValueOf(env, pattern, placement, attributes);
  const tracked = Math.max(
    1,
    Math.min(TRACKED_VALUES, Math.floor(MAX_NAMED_KEYS / copies), Math.floor(hottest.n)),
  );
  const keys: NamedKey[] = [];
  let namedShare = 0;
  for (let k = 1; k <= tracked; k++) {
    const share = zipfShare(hottest.n, hottest.s, k);
    namedShare += share * (1 - unnamedCopies);
    keys.push(...split(k, share));
  }
  const prefixes = firstLevelKeys(env, pattern, placement, hottest, tracked);
  for (const prefix of prefixes) namedShare += prefix.share;
  return { keys: [...keys, ...prefixes], rest: Math.max(0, 1 - namedShare) };
}

/**
 * A hierarchical key is placed by its first level: every item of a first-level value sits in
 * one physical partition until storage splits it ("all writes at ingestion are limited to one
 * physical partition until it reaches 50 GB",
 * https://learn.microsoft.com/azure/cosmos-db/hierarchical-partition-keys, checked 2026-11-24).
 * A first level more concentrated than the whole key puts the rest of its value's load there:
 * one named prefix key per tracked first-level value, with the load beyond the whole key's. A
 * first level that names the replica or the shard (`{tenantId}-{replica}`) makes each copy of a
 * value its own prefix, with an equal share of the value's load and data.
 */
function firstLevelKeys(
  env: PlanEnvironment,
  pattern: AccessPattern,
  placement: Placement,
  hottest: ZipfValues,
  tracked: number,
): NamedKey[] {
  const { item } = placement;
  const first = item.partitionKey.length > 1 ? (item.partitionKey[0] ?? "") : "";
  const firstLevel = templateAttributes(first);
  if (firstLevel.length === 0) return [];
  const prefix = hottestValueOf(env, pattern, placement, firstLevel);
  if (prefix.share <= hottest.share) return [];
  const parts = parseTemplate(first);
  const replicas = parts.some((part) => part.kind === "replica") ? (item.replicas ?? 1) : 1;
  const shards = parts.some((part) => part.kind === "shard") ? (item.shards ?? 1) : 1;
  const copies = replicas * shards;
  // Storage splits do cut inside a value that outgrows a partition: a value holding S GB
  // spans about S / 50 GB physical partitions, and its load spreads over them.
  // The value's data: every item type of the container whose first level uses the same
  // attributes shares its range (the copies of a value divide it).
  const sharing = placement.container.items.flatMap((other) => {
    const found = env.context.placement(placement.container.name, other.type);
    const attributes = templateAttributes(other.partitionKey[0] ?? "");
    return found !== undefined && attributes.join() === firstLevel.join() ? [found] : [];
  });
  const stored = (k: number): number =>
    sharing.reduce(
      (sum, other) =>
        sum +
        Math.min(
          ...firstLevel.map((attribute) =>
            zipfShare(
              env.context.distinctValues(other.item.entity, attribute),
              env.context.skewOf(other.item.entity, attribute),
              k,
            ),
          ),
        ) *
          env.itemCount(other) *
          env.shape(other).avgBytes,
      0,
    ) / copies;
  const values = Math.max(
    1,
    Math.min(TRACKED_VALUES, Math.floor(prefix.n), Math.floor(MAX_NAMED_KEYS / copies)),
  );
  const keys: NamedKey[] = [];
  for (let k = 1; k <= values; k++) {
    const beyond = zipfShare(prefix.n, prefix.s, k) - (k <= tracked ? zipfShare(hottest.n, hottest.s, k) : 0);
    if (beyond <= 0) continue;
    const spans = Math.max(1, Math.floor(stored(k) / (MAX_PHYSICAL_PARTITION_GB * BYTES_PER_GB)));
    for (let replica = 0; replica < replicas; replica++)
      for (let shard = 0; shard < shards; shard++)
        keys.push({
          components: [
            renderTemplate(first, {
              attributes: Object.fromEntries(firstLevel.map((a) => [a, `${a}#${k}`])),
              replica,
              shard,
              bucket: "b",
            }),
          ],
          share: beyond / copies / spans,
          prefix: true,
        });
  }
  return keys;
}

export interface LoadOptions {
  /** Change-feed counter updates are summed per parent per batch: at most this many patches/s per parent. */
  readonly counterPatchesPerSecondPerParent: (sourceContainer: string, sourceItemType: string) => number;
}

/**
 * One change a plan makes to a container's load, with the operands as computed: replaying the
 * changes of every plan in the workload's order gives the accumulation's figures to the last bit.
 */
export type LoadChange =
  /** The step's RU/s at average and peak. */
  | { readonly kind: "rate"; readonly avg: number; readonly peak: number }
  /** A fan-out query: spread over every partition, and its share per partition. */
  | {
      readonly kind: "fanOut";
      readonly pattern: string;
      readonly spread: number;
      readonly perPartition: number;
    }
  /** Counter updates summed per parent that never reach the database. */
  | { readonly kind: "aggregated"; readonly pattern: string; readonly peak: number; readonly avg: number }
  /** RU/s on one named logical key (or on a first-level prefix of a hierarchical key). */
  | {
      readonly kind: "key";
      readonly name: string;
      readonly components: readonly string[];
      readonly peak: number;
      readonly avg: number;
      /** `peak` with the step's charge at the top of its range. */
      readonly high: number;
      readonly prefix?: true;
    }
  /** RU/s spread over all partitions (the load not on named keys). */
  | { readonly kind: "spread"; readonly peak: number };

/** What one plan adds to the loads: per container, its changes in order. */
export interface LoadContribution {
  readonly changes: ReadonlyMap<string, readonly LoadChange[]>;
}

function emptyLoad(): ContainerLoad {
  return {
    avg: 0,
    peak: 0,
    keys: new Map(),
    spreadPeak: 0,
    fanOutPerPartition: new Map(),
    aggregated: new Map(),
  };
}

/** The changes one plan makes to the load of each container its steps touch. */
export function loadContribution(
  env: PlanEnvironment,
  plan: Plan,
  pattern: AccessPattern,
  options: LoadOptions,
): LoadContribution {
  const changes = new Map<string, LoadChange[]>();
  const changesOf = (container: string): LoadChange[] => {
    let list = changes.get(container);
    if (list === undefined) {
      list = [];
      changes.set(container, list);
    }
    return list;
  };
  const visit = (step: PlanStep, cap?: number): void => {
    if (step.kind === "changeFeed") {
      const perParent =
        step.reason === "counter"
          ? options.counterPatchesPerSecondPerParent(step.from.container, step.from.itemType)
          : undefined;
      // Only the counter's increment is summed per parent; each child's flag is its own write.
      for (const inner of step.steps)
        visit(inner, inner.kind === "write" && inner.increments !== undefined ? perParent : undefined);
      return;
    }
    const placement = env.context.placement(step.container, step.itemType);
    if (placement === undefined) return;
    const perRequest = step.ru.estimate * step.times;
    const out = changesOf(step.container);
    out.push({ kind: "rate", avg: perRequest * pattern.rps.avg, peak: perRequest * pattern.rps.peak });
    if (step.kind === "query" && step.scope === "fanOut") {
      out.push({
        kind: "fanOut",
        pattern: pattern.id,
        spread: perRequest * pattern.rps.peak,
        perPartition: (perRequest * pattern.rps.peak) / Math.max(1, step.partitions),
      });
      return;
    }
    const concentration = concentrationOf(env, pattern, placement);
    for (const key of concentration.keys) {
      let peakRate = pattern.rps.peak * step.times * key.share;
      let avgRate = pattern.rps.avg * step.times * key.share;
      if (cap !== undefined) {
        // Changes summed per parent per batch: the load above the cap never reaches the database.
        out.push({
          kind: "aggregated",
          pattern: pattern.id,
          peak: Math.max(0, peakRate - cap) * step.ru.estimate,
          avg: Math.max(0, avgRate - cap) * step.ru.estimate,
        });
        peakRate = Math.min(peakRate, cap);
        avgRate = Math.min(avgRate, cap);
      }
      out.push({
        kind: "key",
        name: key.prefix === true ? `${key.components.join("|")}|*` : key.components.join("|"),
        components: key.components,
        peak: peakRate * step.ru.estimate,
        avg: avgRate * step.ru.estimate,
        high: peakRate * step.ru.high,
        ...(key.prefix === true ? { prefix: true as const } : {}),
      });
    }
    out.push({ kind: "spread", peak: perRequest * pattern.rps.peak * concentration.rest });
  };
  for (const step of plan.operations) visit(step);
  if (plan.type === "write") for (const step of plan.async) visit(step);
  return { changes };
}

/** Applies one container's changes to its load, in order. */
function applyChanges(load: ContainerLoad, changes: readonly LoadChange[]): void {
  for (const change of changes) {
    switch (change.kind) {
      case "rate":
        load.avg += change.avg;
        load.peak += change.peak;
        break;
      case "fanOut":
        load.spreadPeak += change.spread;
        load.fanOutPerPartition.set(
          change.pattern,
          (load.fanOutPerPartition.get(change.pattern) ?? 0) + change.perPartition,
        );
        break;
      case "aggregated": {
        load.peak -= change.peak;
        load.avg -= change.avg;
        const total = load.aggregated.get(change.pattern) ?? { peak: 0, avg: 0 };
        total.peak += change.peak;
        total.avg += change.avg;
        load.aggregated.set(change.pattern, total);
        break;
      }
      case "key": {
        const entry =
          load.keys.get(change.name) ??
          (change.prefix === true
            ? { peak: 0, avg: 0, high: 0, components: change.components, prefix: true as const }
            : { peak: 0, avg: 0, high: 0, components: change.components });
        entry.peak += change.peak;
        entry.avg += change.avg;
        entry.high += change.high;
        load.keys.set(change.name, entry);
        break;
      }
      case "spread":
        load.spreadPeak += change.peak;
        break;
      default:
        change satisfies never;
    }
  }
}

/**
 * The load of `container` from the contributions of the plans, in the workload's order (the
 * order the figures are summed in).
 */
export function containerLoadOf(contributions: Iterable<LoadContribution>, container: string): ContainerLoad {
  const load = emptyLoad();
  for (const contribution of contributions) {
    const changes = contribution.changes.get(container);
    if (changes !== undefined) applyChanges(load, changes);
  }
  return load;
}

/** Accumulates the load of every plan's steps onto its containers. */
export function accumulateLoads(
  env: PlanEnvironment,
  plans: readonly Plan[],
  options: LoadOptions,
): Map<string, ContainerLoad> {
  const patterns = new Map(env.context.workload.accessPatterns.map((p) => [p.id, p]));
  const contributions = plans.flatMap((plan) => {
    const pattern = patterns.get(plan.patternId);
    return pattern === undefined ? [] : [loadContribution(env, plan, pattern, options)];
  });
  const loads = new Map<string, ContainerLoad>();
  for (const container of env.context.model.containers)
    loads.set(container.name, containerLoadOf(contributions, container.name));
  return loads;
}

/** The hottest named logical key of a container (RU/s at peak and average; prefixes are not one). */
export function hottestKey(load: ContainerLoad): KeyLoad {
  let best: KeyLoad = { key: "", peak: 0, avg: 0 };
  for (const [key, value] of load.keys)
    if (value.prefix !== true && value.peak > best.peak) best = { key, peak: value.peak, avg: value.avg };
  return best;
}

/**
 * The named logical key with the most RU/s at peak when every request it takes costs the top of
 * its RU range (the key may differ from `hottestKey`'s when their mixes of operations differ).
 */
export function hottestKeyAtHigh(load: ContainerLoad): KeyLoadHigh {
  let best: KeyLoadHigh = { key: "", high: 0 };
  for (const [key, value] of load.keys)
    if (value.prefix !== true && value.high > best.high) best = { key, high: value.high };
  return best;
}
