/**
 * The integrated cache of a model (`integratedCache`) as the evaluation sees it: for each read
 * served through it, the requests that reach the gateway and the misses that reach the database
 * (charged in full), the memory its keys need on each node, and the gateway's monthly bill. The
 * evaluation plans and prices the model against the workload with each cached read's rate
 * replaced by its misses (`servedWorkload`), so every figure downstream (RU/s, partitions, hot
 * keys, throughput) is that of the traffic the database serves.
 */
import type { EvaluationIssue } from "../common/issues.js";
import { formatInteger, formatUsd } from "../common/format-number.js";
import {
  GATEWAY_NODE_SIZES,
  MIN_PRODUCTION_GATEWAY_NODES,
  type GatewaySize,
} from "../cosmos/dedicated-gateway.js";
import { BYTES_PER_GB } from "../cosmos/limits.js";
import type { Prices } from "../cosmos/prices.js";
import type { Model } from "../model/types.js";
import { createPlanningContext } from "../planner/context.js";
import type { ReadPattern, Workload } from "../workload/types.js";
import {
  cacheMissesPerSecond,
  gatewayCacheBytes,
  gatewayMonthlyCostUSD,
  gatewayPricePerNodeHour,
  keysPerNodeWindow,
  type CacheTraffic,
} from "./integrated-cache.js";

export interface CacheRates {
  readonly avg: number;
  readonly peak: number;
}

/** One read served through the integrated cache. */
export interface CachedPatternEvaluation {
  readonly id: string;
  /** The request's `MaxIntegratedCacheStaleness`: the pattern's `maxStalenessSeconds`. */
  readonly stalenessSeconds: number;
  /** Distinct cache keys its requests spread over, and their Zipf skew. */
  readonly keys: number;
  readonly skew: number;
  /** Requests per second reaching the gateway (the workload's rate). */
  readonly requests: CacheRates;
  /** Of those, the misses per second the database serves at full charge. */
  readonly misses: CacheRates;
  /** `1 - misses / requests`. */
  readonly hitRatio: CacheRates;
  /** Bytes of one cached answer (items returned x the entity's average item size). */
  readonly answerBytes: number;
  /** Bytes one node's cache holds for it at peak: keys asked within a window x `answerBytes`. */
  readonly workingSetBytesPerNode: number;
  /** RU/s the cache saves: (requests - misses) x the RU of one request. Set once planned. */
  readonly rusSaved: CacheRates;
}

export interface IntegratedCacheEvaluation {
  readonly size: GatewaySize;
  /** Nodes per region, and the regions (an identical cluster in each). */
  readonly nodes: number;
  readonly regions: number;
  readonly cacheBytesPerNode: number;
  /** The cached reads' working sets together, per node at peak. */
  readonly workingSetBytesPerNode: number;
  /** The working set fits in one node's cache (else LRU evictions add misses the model omits). */
  readonly fits: boolean;
  readonly pricePerNodeHour: number;
  /** nodes x regions x price per node-hour x hours per month; part of `totals.monthlyCostUSD`. */
  readonly monthlyCostUSD: number;
  readonly formula: string;
  readonly patterns: readonly CachedPatternEvaluation[];
}

/** How the requests of a read spread over cache keys: its equality filters' distinct values. */
export function cacheKeysOf(
  workload: Workload,
  model: Model,
  pattern: ReadPattern,
): { readonly keys: number; readonly skew: number } {
  const context = createPlanningContext(workload, model);
  const entity = workload.entities.find((e) => e.name === pattern.entity);
  const items = Math.max(1, entity?.count ?? 1);
  let keys = 1;
  for (const predicate of pattern.where) {
    // An equality names one of the attribute's values; a range, list, substring or prefix has
    // parameters as varied as the items (each request its own key, as far as the model knows).
    keys *=
      predicate.op === "eq"
        ? Math.max(1, context.distinctValues(pattern.entity, predicate.attribute))
        : items;
  }
  const only = pattern.where.length === 1 ? pattern.where[0] : undefined;
  const skew =
    pattern.skew ??
    (only !== undefined && only.op === "eq" ? context.skewOf(pattern.entity, only.attribute) : 0);
  // A reader that picks one of several identical copies at random asks a key per copy.
  const replicas = Math.max(
    1,
    ...model.containers.flatMap((c) =>
      c.items.filter((i) => i.entity === pattern.entity).map((i) => i.replicas ?? 1),
    ),
  );
  return { keys: keys * replicas, skew: keys * replicas > 1 ? skew : 0 };
}

/** Bytes of one answer of `pattern`: the items it returns at the entity's average size. */
function answerBytesOf(workload: Workload, pattern: ReadPattern): number {
  const entity = workload.entities.find((e) => e.name === pattern.entity);
  const items = pattern.returns?.avg ?? pattern.limit ?? 1;
  return Math.max(1, items) * (entity?.avgBytes ?? 1);
}

/**
 * The cache's figures for `model` (undefined without `integratedCache`), with the workload the
 * database serves: every cached read's rate replaced by its misses. Patterns the cache cannot
 * serve are left out (the model's check reports them).
 */
export function planIntegratedCache(
  workload: Workload,
  model: Model,
  prices: Prices,
): { readonly cache: IntegratedCacheEvaluation; readonly served: Workload } | undefined {
  const spec = model.integratedCache;
  if (spec === undefined) return undefined;
  const patterns: CachedPatternEvaluation[] = [];
  const misses = new Map<string, CacheRates>();
  const regions = Math.max(1, workload.scale.regions);
  for (const id of spec.patterns) {
    const pattern = workload.accessPatterns.find((p) => p.id === id);
    if (
      pattern?.type !== "read" ||
      pattern.maxStalenessSeconds === undefined ||
      pattern.maxStalenessSeconds <= 0
    )
      continue;
    if (misses.has(id)) continue;
    const { keys, skew } = cacheKeysOf(workload, model, pattern);
    // Every region has its own cluster (and caches): the requests, spread over the regions' nodes,
    // miss once per key, window and node of every region.
    const traffic = (rate: number): CacheTraffic => ({
      rate,
      keys,
      skew,
      stalenessSeconds: pattern.maxStalenessSeconds ?? 0,
      nodes: spec.nodes * regions,
    });
    const missed = {
      avg: cacheMissesPerSecond(traffic(pattern.rps.avg)),
      peak: cacheMissesPerSecond(traffic(pattern.rps.peak)),
    };
    misses.set(id, missed);
    const answerBytes = answerBytesOf(workload, pattern);
    patterns.push({
      id,
      stalenessSeconds: pattern.maxStalenessSeconds,
      keys,
      skew,
      requests: { avg: pattern.rps.avg, peak: pattern.rps.peak },
      misses: missed,
      hitRatio: {
        avg: pattern.rps.avg > 0 ? 1 - missed.avg / pattern.rps.avg : 0,
        peak: pattern.rps.peak > 0 ? 1 - missed.peak / pattern.rps.peak : 0,
      },
      answerBytes,
      workingSetBytesPerNode: keysPerNodeWindow(traffic(pattern.rps.peak)) * answerBytes,
      rusSaved: { avg: 0, peak: 0 },
    });
  }
  const pricePerNodeHour = gatewayPricePerNodeHour(prices, spec.size);
  const monthlyCostUSD = gatewayMonthlyCostUSD(prices, spec.size, spec.nodes, regions);
  const cacheBytesPerNode = gatewayCacheBytes(spec.size);
  const workingSetBytesPerNode = patterns.reduce((sum, p) => sum + p.workingSetBytesPerNode, 0);
  const served: Workload = {
    ...workload,
    accessPatterns: workload.accessPatterns.map((p) => {
      const rate = misses.get(p.id);
      return rate === undefined ? p : { ...p, rps: { avg: rate.avg, peak: rate.peak } };
    }),
  };
  return {
    cache: {
      size: spec.size,
      nodes: spec.nodes,
      regions,
      cacheBytesPerNode,
      workingSetBytesPerNode,
      fits: workingSetBytesPerNode <= cacheBytesPerNode,
      pricePerNodeHour,
      monthlyCostUSD,
      formula: `${formatInteger(spec.nodes)} ${spec.size} node(s) x ${formatInteger(regions)} region(s) x ${formatUsd(pricePerNodeHour, true)} per node-hour x ${formatInteger(prices.hoursPerMonth)} hours = ${formatUsd(monthlyCostUSD, true)}`,
      patterns,
    },
    served,
  };
}

/** The cache's figures with each read's RU/s saved, from the RU of one of its requests. */
export function withSavings(
  cache: IntegratedCacheEvaluation,
  ruPerRequest: (pattern: string) => number,
): IntegratedCacheEvaluation {
  return {
    ...cache,
    patterns: cache.patterns.map((p) => {
      const ru = ruPerRequest(p.id);
      return {
        ...p,
        rusSaved: { avg: (p.requests.avg - p.misses.avg) * ru, peak: (p.requests.peak - p.misses.peak) * ru },
      };
    }),
  };
}

/** Findings about the gateway: a working set over its cache, fewer nodes than production needs. */
export function integratedCacheIssues(cache: IntegratedCacheEvaluation): EvaluationIssue[] {
  const issues: EvaluationIssue[] = [];
  const gb = (bytes: number): string => (bytes / BYTES_PER_GB).toFixed(2);
  if (!cache.fits)
    issues.push({
      code: "evaluate.integratedCacheTooSmall",
      severity: "warning",
      path: ["integratedCache", "size"],
      size: cache.size,
      workingSetGB: cache.workingSetBytesPerNode / BYTES_PER_GB,
      cacheGB: cache.cacheBytesPerNode / BYTES_PER_GB,
      message: `the cached reads need about ${gb(cache.workingSetBytesPerNode)} GB on each gateway node within their staleness windows, more than the ${gb(cache.cacheBytesPerNode)} GB a ${cache.size} node caches: least-recently-used evictions will add misses this evaluation does not count`,
      suggestion: `use a larger size (${Object.values(GATEWAY_NODE_SIZES)
        .map((s) => `${s.size}: ${s.cacheGB} GB`)
        .join(", ")}) or cache fewer reads`,
    });
  if (cache.nodes < MIN_PRODUCTION_GATEWAY_NODES)
    issues.push({
      code: "evaluate.integratedCacheFewNodes",
      severity: "warning",
      path: ["integratedCache", "nodes"],
      nodes: cache.nodes,
      message: `${cache.nodes} gateway node(s): Microsoft recommends ${MIN_PRODUCTION_GATEWAY_NODES} or more in production, so that the gateway keeps routing and serving cached data when a node is unavailable`,
      suggestion: `nodes: ${MIN_PRODUCTION_GATEWAY_NODES}`,
    });
  return issues;
}
