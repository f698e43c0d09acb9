/**
 * The integrated cache as a design move. A read that may be stale (`maxStalenessSeconds` above 0,
 * at session or eventual consistency) can be served through the integrated cache of a dedicated
 * gateway: a hit costs 0 RU, a miss the full charge, and the gateway is billed per node-hour. For
 * each such read, most expensive first, the design compares with their monthly cost:
 * - the model as searched (a plain query, or the copy the search made for it: a bounded set with
 *   replicas, a copy under another key);
 * - a plain query without the copy, when only this read uses it (no copy to keep from the
 *   change feed, the read on the source container);
 * - the integrated cache in front of either;
 * and keeps the best (fewest unsound models and hard-limit errors, then the cheapest: the same
 * order as every other decision, `isBetter`). One gateway serves every cached read.
 */
import { formatInteger, formatUsd } from "../common/format-number.js";
import {
  GATEWAY_SIZES,
  MIN_PRODUCTION_GATEWAY_NODES,
  type GatewaySize,
} from "../cosmos/dedicated-gateway.js";
import { DEFAULT_PRICES } from "../cosmos/prices.js";
import { planIntegratedCache } from "../cost/integrated-cache-evaluation.js";
import { gatewayCacheBytes, gatewayMonthlyCostUSD } from "../cost/integrated-cache.js";
import type { EvaluateOptions } from "../cost/evaluate.js";
import type { Container, Model } from "../model/types.js";
import type { ReadPlan } from "../planner/types.js";
import { cacheIneligibility } from "../workload/cacheable.js";
import type { ReadPattern, Workload } from "../workload/types.js";
import {
  dearerBecause,
  describeScore,
  isBetter,
  scoreModel,
  scoringWork,
  type Decision,
  type Scored,
} from "./search.js";

/**
 * The model with `patterns` cached (the smallest size whose cache holds their working set), or
 * undefined when no size holds it: least-recently-used evictions would add misses the evaluation
 * does not count, so such a cache is never offered.
 */
function withCachedPatterns(
  workload: Workload,
  model: Model,
  patterns: readonly string[],
  options: EvaluateOptions,
): Model | undefined {
  const { integratedCache: _dropped, ...rest } = model;
  if (patterns.length === 0) return rest;
  const prices = options.prices ?? DEFAULT_PRICES;
  const sizeFits = (size: GatewaySize): boolean => {
    const planned = planIntegratedCache(
      workload,
      { ...rest, integratedCache: { size, nodes: MIN_PRODUCTION_GATEWAY_NODES, patterns } },
      prices,
    );
    return planned === undefined || planned.cache.workingSetBytesPerNode <= gatewayCacheBytes(size);
  };
  const size = GATEWAY_SIZES.find(sizeFits);
  return size === undefined
    ? undefined
    : { ...rest, integratedCache: { size, nodes: MIN_PRODUCTION_GATEWAY_NODES, patterns } };
}

/** The item type the read's plan answers from, when it is a change-feed copy no other read uses. */
function ownCopyOf(scored: Scored, pattern: string): { container: string; itemType: string } | undefined {
  const plans = scored.evaluation.patterns.map((p) => p.plan);
  const own = plans.find((plan): plan is ReadPlan => plan.patternId === pattern && plan.type === "read");
  if (own === undefined) return undefined;
  const item = scored.model.containers
    .find((c) => c.name === own.container)
    ?.items.find((i) => i.type === own.itemType);
  if (item?.source === undefined) return undefined;
  const readByOthers = plans.some(
    (plan) =>
      plan.patternId !== pattern &&
      plan.operations.some(
        (step) =>
          "container" in step &&
          step.container === own.container &&
          "itemType" in step &&
          step.itemType === own.itemType,
      ),
  );
  const sourceOfOthers = scored.model.containers.some((c) =>
    c.items.some((i) => i.source?.container === own.container && i.source.type === own.itemType),
  );
  return readByOthers || sourceOfOthers ? undefined : { container: own.container, itemType: own.itemType };
}

/** The model without one item type (and without its container when nothing else is left in it). */
function withoutItemType(model: Model, copy: { container: string; itemType: string }): Model {
  const containers = model.containers.flatMap((container): Container[] => {
    if (container.name !== copy.container) return [container];
    const items = container.items.filter((i) => i.type !== copy.itemType);
    return items.length === 0 ? [] : [{ ...container, items }];
  });
  return { ...model, containers };
}

/** How the model as searched answers the read, in a few words. */
function asSearchedName(scored: Scored, copy: { container: string; itemType: string } | undefined): string {
  if (copy === undefined) return "plain query (as designed)";
  const item = scored.model.containers
    .find((c) => c.name === copy.container)
    ?.items.find((i) => i.type === copy.itemType);
  const what =
    item?.keepLatest === undefined
      ? `a copy in ${copy.container}`
      : `the newest ${formatInteger(item.keepLatest.count)} in ${copy.container}`;
  return (item?.replicas ?? 1) > 1
    ? `replicas (${what}, ${formatInteger(item?.replicas ?? 1)} copies kept from the change feed)`
    : `${what} kept from the change feed`;
}

/**
 * The work the decision may spend scoring models (`scoringWork`: each model's patterns and
 * containers), like the search's own budget: every candidate is a whole model. At 200 entities
 * (850 elements) its 14 candidates cost about 12,000; at 500 entities and 1,600 patterns each
 * costs about 2,600, and its 16 candidates took 9.7 s of a 30 s design (2026-11-29; it now scores
 * 10). The reads go dearest first, so those left when it is spent are the ones with the least to
 * save, and a decision names them.
 */
export const INTEGRATED_CACHE_WORK = 25_000;

/**
 * Decides, read by read, whether stale-tolerant reads go through the integrated cache (and
 * whether the copy made for them is still worth keeping), recording one decision per read.
 * @example chooseIntegratedCache(workload, designed, options, decisions).model.integratedCache
 */
export function chooseIntegratedCache(
  workload: Workload,
  designed: Scored,
  options: EvaluateOptions,
  decisions: Decision[],
  work: number = INTEGRATED_CACHE_WORK,
): Scored {
  const prices = options.prices ?? DEFAULT_PRICES;
  const eligible = workload.accessPatterns.filter(
    (p): p is ReadPattern => p.type === "read" && cacheIneligibility(workload, p) === undefined,
  );
  if (eligible.length === 0) return designed;
  const rusOf = (id: string): number => designed.evaluation.patterns.find((p) => p.id === id)?.rus.peak ?? 0;
  const ordered = [...eligible].sort((a, b) => rusOf(b.id) - rusOf(a.id));
  const cheapestGateway = gatewayMonthlyCostUSD(
    prices,
    "D4s",
    MIN_PRODUCTION_GATEWAY_NODES,
    workload.scale.regions,
  );
  let current = designed;
  let spent = 0;
  const unconsidered: string[] = [];
  for (const pattern of ordered) {
    const cached = current.model.integratedCache?.patterns ?? [];
    const copy = ownCopyOf(current, pattern.id);
    // Without a gateway yet, nor a copy to drop, the cache pays for itself only if the read
    // costs more than the gateway (its share of the bill, by RU/s at peak).
    const share =
      current.rusPeak > 0
        ? (current.evaluation.patterns.find((p) => p.id === pattern.id)?.rus.peak ?? 0) / current.rusPeak
        : 0;
    if (cached.length === 0 && copy === undefined && share * current.monthlyCostUSD < cheapestGateway)
      continue;
    // Only a read that would be scored is left untried (one the rule above passes over is not).
    if (spent >= work) {
      unconsidered.push(pattern.id);
      continue;
    }
    const plain = copy === undefined ? undefined : withoutItemType(current.model, copy);
    const staleness = `${formatInteger(pattern.maxStalenessSeconds ?? 0)} s`;
    const overCopy = withCachedPatterns(workload, current.model, [...cached, pattern.id], options);
    const overPlain =
      plain === undefined ? undefined : withCachedPatterns(workload, plain, [...cached, pattern.id], options);
    if (overCopy === undefined && overPlain === undefined) continue;
    const candidates: { name: string; model: Model; cached: boolean }[] = [
      { name: asSearchedName(current, copy), model: current.model, cached: false },
      ...(plain === undefined ? [] : [{ name: "plain query (no copy)", model: plain, cached: false }]),
      ...(overCopy === undefined
        ? []
        : [
            {
              name: `integrated cache (${staleness} staleness) over the ${copy === undefined ? "plain query" : "copy"}`,
              model: overCopy,
              cached: true,
            },
          ]),
      ...(overPlain === undefined
        ? []
        : [
            {
              name: `integrated cache (${staleness} staleness) over a plain query (no copy)`,
              model: overPlain,
              cached: true,
            },
          ]),
    ];
    const scored = candidates.map((candidate) => {
      if (candidate.model === current.model) return { ...candidate, scored: current };
      spent += scoringWork(workload, candidate.model);
      return { ...candidate, scored: scoreModel(workload, candidate.model, options) };
    });
    const first = scored[0];
    if (first === undefined) continue;
    const best = scored.reduce((a, b) => (isBetter(b.scored, a.scored) ? b : a), first);
    const gateway = best.scored.evaluation.integratedCache;
    const hit = gateway?.patterns.find((p) => p.id === pattern.id);
    // A cheaper variant passed over says why (never "costs more than it saves" beside it).
    const dearer = dearerBecause(best.scored, scored);
    const listed = scored.map((c) => `${c.name}: ${describeScore(c.scored)}`).join("; ");
    decisions.push({
      id: `integrated-cache-${pattern.id}`,
      subject: { kind: "integratedCache", pattern: pattern.id, cached: best.cached },
      title: `${pattern.id} through the integrated cache?`,
      chosen: best.name,
      alternatives: scored.map((c) => ({
        name: c.name,
        rusPeak: c.scored.rusPeak,
        monthlyCostUSD: c.scored.monthlyCostUSD,
        errors: c.scored.errors,
        unsound: c.scored.unsound,
      })),
      why:
        `${pattern.id} may be ${staleness} old at ${formatInteger(pattern.rps.peak)} requests/s at peak; ` +
        (gateway === undefined || hit === undefined
          ? dearer === ""
            ? `through the integrated cache it would still cost more than it saves: ${listed}`
            : `kept without the integrated cache: ${listed}${dearer}`
          : `through ${formatInteger(gateway.nodes)} ${gateway.size} gateway node(s) (${formatUsd(gateway.monthlyCostUSD)}/month: ${gateway.formula}) it misses ${hit.misses.peak.toFixed(2)} times/s at peak over ${formatInteger(hit.keys)} key(s) (hit ratio ${(hit.hitRatio.peak * 100).toFixed(2)}%), saving ${formatInteger(hit.rusSaved.peak)} RU/s at peak; ${listed}${dearer}`),
    });
    current = best.scored;
  }
  if (unconsidered.length > 0)
    decisions.push({
      id: "integrated-cache-budget",
      subject: {
        kind: "searchBudget",
        units: work,
        spent,
        skipped: unconsidered.length,
      },
      title: "Stale-tolerant reads not tried through the integrated cache",
      chosen: `${formatInteger(unconsidered.length)} read(s) kept as designed`,
      alternatives: [],
      why: `the integrated cache decision may score ${formatInteger(work)} evaluated elements (access patterns plus containers per model scored) and spent ${formatInteger(spent)} on the dearest reads first: ${unconsidered.join(", ")} were not tried through the cache, so a cheaper model may exist`,
    });
  return current;
}
