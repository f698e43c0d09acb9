/**
 * The arithmetic of the integrated cache of a dedicated gateway: how many of a read's requests
 * miss the cache (and are charged in full by the database), how much memory the keys it keeps
 * need on each node, and what the gateway costs per month. Pure functions over numbers; the
 * facts they use are in `cosmos/dedicated-gateway.ts`, the prices in `cosmos/prices.ts`.
 */
import { GATEWAY_NODE_SIZES, type GatewaySize } from "../cosmos/dedicated-gateway.js";
import { BYTES_PER_GB } from "../cosmos/limits.js";
import type { Prices } from "../cosmos/prices.js";
import { harmonic } from "./zipf.js";

/** The requests of one read pattern as the cache sees them. */
export interface CacheTraffic {
  /** Requests per second reaching the gateway (all nodes together). */
  readonly rate: number;
  /** Distinct cache keys the requests spread over (query text and parameters, or item). */
  readonly keys: number;
  /** Zipf exponent of how the requests spread over the keys (0 = every key alike). */
  readonly skew: number;
  /** How old a cached answer may be: the request's `MaxIntegratedCacheStaleness`, seconds. */
  readonly stalenessSeconds: number;
  /** Gateway nodes, each with its own cache; requests spread evenly over them. */
  readonly nodes: number;
}

/** Ranks summed one by one before the tail is integrated (as `zipf.ts` does for H(n, s)). */
const EXACT_RANKS = 10_000;
/** Slices of the tail's integral (log-spaced midpoints; error far below 0.1% of the total). */
const TAIL_SLICES = 4_000;

/**
 * Sum over the keys (Zipf ranks 1..n with exponent s, each key's share of `rate` its rate
 * `lambda`) of `f(lambda)`: exact for the first 10,000 ranks, then the integral over the rest
 * (log-spaced midpoint rule); closed form when every key is alike.
 */
function sumOverKeys(
  what: "misses" | "keysPerWindow",
  traffic: CacheTraffic,
  f: (lambda: number) => number,
): number {
  // The same traffic is summed for every model a design scores: each sum is made once per
  // quantity and traffic (`f` is a function of the traffic alone; the memo starts over past
  // MAX_SUMS).
  const key = `${what}|${traffic.rate}|${traffic.keys}|${traffic.skew}|${traffic.stalenessSeconds}|${traffic.nodes}`;
  let sum = sums.get(key);
  if (sum === undefined) {
    if (sums.size >= MAX_SUMS) sums.clear();
    sum = newSumOverKeys(traffic, f);
    sums.set(key, sum);
  }
  return sum;
}

/** Sums remembered before the memo starts over. */
const MAX_SUMS = 10_000;
const sums = new Map<string, number>();

function newSumOverKeys(traffic: CacheTraffic, f: (lambda: number) => number): number {
  const n = Math.max(1, Math.floor(traffic.keys));
  if (traffic.skew <= 0) return n * f(traffic.rate / n);
  const s = traffic.skew;
  const h = harmonic(n, s);
  const exact = Math.min(n, EXACT_RANKS);
  let sum = 0;
  for (let k = 1; k <= exact; k++) sum += f((traffic.rate * k ** -s) / h);
  if (n <= EXACT_RANKS) return sum;
  // The ranks EXACT_RANKS + 1 .. n as the integral from EXACT_RANKS + 0.5 to n + 0.5.
  const from = Math.log(EXACT_RANKS + 0.5);
  const to = Math.log(n + 0.5);
  const step = (to - from) / TAIL_SLICES;
  for (let i = 0; i < TAIL_SLICES; i++) {
    const x = Math.exp(from + (i + 0.5) * step);
    // dx = x d(log x)
    sum += f((traffic.rate * x ** -s) / h) * x * step;
  }
  return sum;
}

/**
 * Requests per second that miss the cache and reach the database. A cached answer serves every
 * request of its key on its node until it is older than the staleness window T; the next request
 * after that misses and caches it again. With requests of a key arriving at random (Poisson, rate
 * lambda per node), a key misses once per cycle of T plus the wait for the next request (mean
 * 1 / lambda): lambda / (1 + lambda T) misses per second, the hit ratio of a TTL cache of
 * Jung, Berger and Balakrishnan, "Modeling TTL-based Internet caches" (IEEE INFOCOM 2003, eq. 1).
 * Each of the N nodes gets 1/N of a key's requests (any node routes any request, each has its own
 * cache: dedicated-gateway, checked 2026-11-28), so a key of rate lambda misses
 * N (lambda/N) / (1 + lambda T / N) = lambda / (1 + lambda T / N) times per second in all. Summed
 * over the keys this never exceeds min(rate, keys x N / T): a key misses at most once per window
 * per node. Assumes the cache holds every key asked for within a window (`keysPerNodeWindow`
 * against the node's cache size: LRU evictions would add misses).
 * @example cacheMissesPerSecond({ rate: 2000, keys: 1, skew: 0, stalenessSeconds: 5, nodes: 3 }) // 2000 / (1 + 2000 x 5 / 3) = 0.59982
 */
export function cacheMissesPerSecond(traffic: CacheTraffic): number {
  if (traffic.rate <= 0) return 0;
  const window = traffic.stalenessSeconds;
  const nodes = Math.max(1, traffic.nodes);
  if (window <= 0) return traffic.rate;
  return Math.min(
    traffic.rate,
    sumOverKeys("misses", traffic, (lambda) => lambda / (1 + (lambda * window) / nodes)),
  );
}

/**
 * Distinct keys one node is asked for within one staleness window: what its cache must hold so
 * that the least recently used entries it evicts are never ones still fresh. A key of rate lambda
 * is asked on a node within T seconds with probability 1 - exp(-lambda T / N).
 * @example keysPerNodeWindow({ rate: 10, keys: 1000, skew: 0, stalenessSeconds: 60, nodes: 3 }) // 1000 x (1 - exp(-0.2)) = 181.27
 */
export function keysPerNodeWindow(traffic: CacheTraffic): number {
  const nodes = Math.max(1, traffic.nodes);
  const window = Math.max(0, traffic.stalenessSeconds);
  return sumOverKeys("keysPerWindow", traffic, (lambda) => 1 - Math.exp(-(lambda * window) / nodes));
}

/** USD per node-hour of a gateway size, from the price table. */
export function gatewayPricePerNodeHour(prices: Prices, size: GatewaySize): number {
  switch (size) {
    case "D4s":
      return prices.dedicatedGatewayD4sPerNodeHour;
    case "D8s":
      return prices.dedicatedGatewayD8sPerNodeHour;
    case "D16s":
      return prices.dedicatedGatewayD16sPerNodeHour;
    default:
      return size satisfies never;
  }
}

/**
 * The gateway's monthly bill: nodes x regions (an identical cluster in every region of the
 * account) x price per node-hour x hours per month.
 * @example gatewayMonthlyCostUSD(DEFAULT_PRICES, "D4s", 3, 1) // 3 x 0.38 x 730 = 832.2
 */
export function gatewayMonthlyCostUSD(
  prices: Prices,
  size: GatewaySize,
  nodes: number,
  regions: number,
): number {
  return nodes * Math.max(1, regions) * gatewayPricePerNodeHour(prices, size) * prices.hoursPerMonth;
}

/** Bytes of cache one node has in `size`. */
export function gatewayCacheBytes(size: GatewaySize): number {
  return GATEWAY_NODE_SIZES[size].cacheGB * BYTES_PER_GB;
}
