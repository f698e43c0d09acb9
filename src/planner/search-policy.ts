/**
 * A container's vector embedding policy, vector indexes and full-text policy: the model's own
 * (`search:` of the container), or derived from the workload when the model leaves them out
 * (every vector and full-text attribute the container's items store, each vector path with the
 * index type `chooseVectorIndex` picks). The rule reads structure and numbers only: dimensions,
 * the recall the searches need, the vectors in each search's scope and index, the request rates.
 */
import {
  DEFAULT_VECTOR_SEARCH_FACTS,
  VECTOR_INDEX_TYPES,
  type VectorIndexType,
  type VectorSearchFacts,
} from "../cosmos/vector-search.js";
import { vectorSearchTerm, searchWriteTerm, type VectorQueryScope } from "../estimator/search-charge.js";
import type {
  Container,
  ContainerSearch,
  FullTextPath,
  ItemType,
  Model,
  VectorPath,
} from "../model/types.js";
import type { Attribute, ReadPattern, Workload } from "../workload/types.js";
import type { PlanEnvironment } from "./environment.js";
import type { Placement } from "./context.js";
import { routeRequest } from "./routing.js";
import { keyAttributes } from "../workload/keys.js";

/** One candidate vector index of a path, with why it is or is not allowed and what it costs. */
export interface VectorIndexOption {
  readonly index: VectorIndexType | "none";
  readonly allowed: boolean;
  /** Why not allowed, or what it gives (recall, documented limits). */
  readonly why: string;
  /** The recall this index type gives, lowest to highest (`cosmos/vector-search.ts`). */
  readonly recall: { readonly low: number; readonly high: number };
  /** RU/s the path's searches spend comparing vectors, plus its writes' index upkeep, at the average rates. */
  readonly rus: number;
  /** The same at the peak rates. */
  readonly rusPeak: number;
}

export interface VectorIndexChoice {
  readonly chosen: VectorIndexType | "none";
  readonly shardKey?: readonly string[];
  readonly options: readonly VectorIndexOption[];
  /** The highest recall the path's searches need. */
  readonly recallNeeded: number;
}

/** Whether an item type stores an attribute of its entity (no projection, or one that keeps it). */
function stores(item: ItemType, attribute: string): boolean {
  return item.select === undefined || item.select.includes(attribute);
}

/** The vector and full-text attributes the container's own item types store, path by path. */
function searchAttributes(
  env: PlanEnvironment,
  container: Container,
): { readonly vectors: (readonly [string, Attribute])[]; readonly texts: (readonly [string, Attribute])[] } {
  const vectors = new Map<string, Attribute>();
  const texts = new Map<string, Attribute>();
  for (const item of container.items) {
    for (const attribute of env.context.entity(item.entity).attributes) {
      if (!stores(item, attribute.name)) continue;
      const path = `/${attribute.name}`;
      if (attribute.vector !== undefined && !vectors.has(path)) vectors.set(path, attribute);
      if (attribute.fullText !== undefined && !texts.has(path)) texts.set(path, attribute);
    }
  }
  return { vectors: [...vectors], texts: [...texts] };
}

/** Records of the pattern's entity that its filters match (what a search compares), before k. */
export function searchScopeMatches(env: PlanEnvironment, pattern: ReadPattern): number {
  const { context } = env;
  const entity = context.entity(pattern.entity);
  const equal = new Set(
    pattern.where.filter((p) => p.op === "eq" || p.op === "contains").map((p) => p.attribute),
  );
  if (keyAttributes(entity).every((a) => equal.has(a))) return 1;
  let matches = context.countAtHorizon(pattern.entity);
  for (const predicate of pattern.where) {
    if (predicate.op === "eq" || predicate.op === "contains")
      matches /= context.distinctValues(pattern.entity, predicate.attribute);
    else if (predicate.op === "in") matches = Math.min(matches, 10);
    // range / prefix: 1% as for any read (docs/workload-format.md#read-patterns)
    else matches *= 0.01;
  }
  return Math.max(1, matches);
}

/** The search reads of `placement`'s entity that search `attribute` by vector. */
function vectorReads(env: PlanEnvironment, entity: string, attribute: string): readonly ReadPattern[] {
  return env.context.workload.accessPatterns.filter(
    (p): p is ReadPattern =>
      p.type === "read" &&
      p.entity === entity &&
      p.search !== undefined &&
      p.search.kind !== "fullText" &&
      p.search.vector === attribute,
  );
}

/**
 * A vector index shard key for a path: the container's first partition key path when every
 * search of it filters that attribute by equality (a tenant's search walks the tenant's own
 * index, `vectorIndexShardKey`); absent otherwise.
 */
function shardKeyFor(placement: Placement, reads: readonly ReadPattern[]): readonly string[] | undefined {
  const first = placement.container.partitionKey[0];
  const template = placement.item.partitionKey[0];
  if (first === undefined || template === undefined || reads.length === 0) return undefined;
  const match = /^\{([^{}]+)\}$/.exec(template);
  const attribute = match?.[1];
  if (attribute === undefined) return undefined;
  return reads.every((read) => read.where.some((p) => p.op === "eq" && p.attribute === attribute))
    ? [first]
    : undefined;
}

/** What one search of `pattern` on `placement` compares, for an index type. */
export function vectorQueryScope(
  env: PlanEnvironment,
  pattern: ReadPattern,
  placement: Placement,
  index: VectorIndexType | "none",
  dimensions: number,
  shardKey: readonly string[] | undefined,
): VectorQueryScope {
  const known = new Set(pattern.where.filter((p) => p.op === "eq").map((p) => p.attribute));
  const routing = routeRequest(placement.item, known);
  const physical = env.partitions(placement.container.name);
  const visited = routing.scope === "single" || routing.scope === "prefix" ? 1 : physical;
  const matched = searchScopeMatches(env, pattern);
  const stored = env.context.countAtHorizon(placement.item.entity);
  // One index per physical partition (DiskANN per partition, devblog part 2), or one per shard
  // key value when the search names it.
  const sharded = shardKey !== undefined;
  return {
    index,
    dimensions,
    vectorsMatched: matched,
    vectorsPerIndex: sharded ? matched : Math.max(1, stored / physical),
    indexesSearched: sharded ? 1 : visited,
  };
}

/**
 * The index type of a vector path: every type whose documented dimension limit holds the
 * vectors and whose recall (its low figure) meets the highest recall the path's searches need,
 * and at most one diskANN per container; among those, the fewest RU/s (searches at their
 * average rates plus the writes' index upkeep), then the higher recall. `none` (no index:
 * VectorDistance scans, exact) is always allowed.
 */
export function chooseVectorIndex(
  env: PlanEnvironment,
  placement: Placement,
  attribute: Attribute,
  diskAnnTaken: boolean,
  facts: VectorSearchFacts = DEFAULT_VECTOR_SEARCH_FACTS,
): VectorIndexChoice {
  const vector = attribute.vector;
  const dimensions = vector?.dimensions ?? 0;
  const reads = vectorReads(env, placement.item.entity, attribute.name);
  const recallNeeded = Math.max(
    0,
    ...reads.map((read) =>
      read.search !== undefined && read.search.kind !== "fullText" ? read.search.recall : 0,
    ),
  );
  const shardKey = shardKeyFor(placement, reads);
  const writers = env.context
    .writesOf(placement.item.entity)
    .filter((w) => w.type === "write" && w.operation !== "delete" && w.operation !== "patch");
  const rusOf = (index: VectorIndexType | "none", rate: "avg" | "peak"): number => {
    const queries = reads.reduce((sum, read) => {
      const scope = vectorQueryScope(
        env,
        read,
        placement,
        index,
        dimensions,
        index === "none" ? undefined : shardKey,
      );
      return sum + read.rps[rate] * vectorSearchTerm(scope, facts).ru.estimate;
    }, 0);
    const writes = writers.reduce((sum, w) => sum + w.rps[rate] * (w.type === "write" ? w.batch : 1), 0);
    return queries + writes * searchWriteTerm([index], 0, facts).ru.estimate;
  };
  const options: VectorIndexOption[] = [
    {
      index: "none",
      allowed: true,
      why: "no vector index: every search scans the vectors in its scope (exact)",
      recall: { low: 1, high: 1 },
      rus: rusOf("none", "avg"),
      rusPeak: rusOf("none", "peak"),
    },
    ...VECTOR_INDEX_TYPES.map((index): VectorIndexOption => {
      const figures = facts.indexes[index];
      const recall = { low: figures.recall.low, high: figures.recall.high };
      const problem =
        dimensions > figures.maxDimensions
          ? `${index} holds at most ${figures.maxDimensions.toLocaleString("en-US")} dimensions (documented), these vectors have ${dimensions.toLocaleString("en-US")}`
          : figures.recall.low < recallNeeded
            ? `${index} gives a recall of ${figures.recall.low} at least (${figures.recall.basis}), the searches need ${recallNeeded}`
            : index === "diskANN" && diskAnnTaken
              ? "a container holds at most one diskANN index (documented), and another path of this container has it"
              : undefined;
      return {
        index,
        allowed: problem === undefined,
        why: problem ?? `recall ${recall.low} to ${recall.high} (${figures.recall.basis})`,
        recall,
        rus: rusOf(index, "avg"),
        rusPeak: rusOf(index, "peak"),
      };
    }),
  ];
  const allowed = options.filter((o) => o.allowed);
  const best = allowed.reduce((a, b) =>
    b.rus < a.rus - 1e-12 || (Math.abs(b.rus - a.rus) <= 1e-12 && b.recall.low > a.recall.low) ? b : a,
  );
  return {
    chosen: best.index,
    ...(best.index === "none" || best.index === "flat" || shardKey === undefined ? {} : { shardKey }),
    options,
    recallNeeded,
  };
}

/** Whether a workload has any vector or full-text attribute (computed once per workload). */
const searching = new WeakMap<Workload, boolean>();

export function workloadSearches(workload: Workload): boolean {
  let found = searching.get(workload);
  if (found === undefined) {
    found = workload.entities.some((e) =>
      e.attributes.some((a) => a.vector !== undefined || a.fullText !== undefined),
    );
    searching.set(workload, found);
  }
  return found;
}

/**
 * The container's search policies: the model's, or derived from the workload (undefined when
 * its items store no vector and no full-text attribute).
 */
export function searchPolicyOf(env: PlanEnvironment, container: Container): ContainerSearch | undefined {
  if (container.search !== undefined) return container.search;
  if (!workloadSearches(env.context.workload)) return undefined;
  const { vectors, texts } = searchAttributes(env, container);
  if (vectors.length === 0 && texts.length === 0) return undefined;
  let diskAnnTaken = false;
  const vectorPaths = vectors.map(([path, attribute]): VectorPath => {
    const item = container.items.find(
      (i) => i.source === undefined && env.context.attribute(i.entity, attribute.name) === attribute,
    );
    const placement = item === undefined ? undefined : { container, item };
    const choice =
      placement === undefined ? undefined : chooseVectorIndex(env, placement, attribute, diskAnnTaken);
    const index = choice?.chosen ?? "none";
    if (index === "diskANN") diskAnnTaken = true;
    return {
      path,
      dataType: attribute.vector?.dataType ?? "float32",
      dimensions: attribute.vector?.dimensions ?? 1,
      distance: attribute.vector?.distance ?? "cosine",
      index,
      ...(choice?.shardKey === undefined ? {} : { shardKey: choice.shardKey }),
    };
  });
  const fullText = texts.map(([path, attribute]): FullTextPath => ({
    path,
    language: attribute.fullText?.language ?? "en-US",
  }));
  return { vectors: vectorPaths, fullText };
}

/**
 * The model with every container's search policies written out: a container without `search`
 * gets the derived one (when its items store vector or full-text attributes), so the model file,
 * the documents and the infrastructure say what is deployed.
 */
export function withSearchPolicies(env: PlanEnvironment, model: Model): Model {
  let changed = false;
  const containers = model.containers.map((container) => {
    if (container.search !== undefined) return container;
    const search = searchPolicyOf(env, container);
    if (search === undefined) return container;
    changed = true;
    return { ...container, search };
  });
  return changed ? { ...model, containers } : model;
}
