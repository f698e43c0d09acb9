/**
 * The throughput recommendation of one container and its monthly bill: manual, autoscale or
 * serverless, each priced with the dated price table, the cheapest allowed one chosen, with the
 * reason in numbers.
 */
import {
  AUTOSCALE_MAX_RUS_PER_GB,
  AUTOSCALE_MAX_RUS_STEP,
  AUTOSCALE_MIN_FRACTION_OF_MAX,
  AUTOSCALE_MIN_MAX_RUS,
  LIMIT_SOURCES,
  MANUAL_MIN_RUS,
  MANUAL_MIN_RUS_PER_GB,
  MANUAL_RUS_STEP,
  SERVERLESS_MAX_PHYSICAL_PARTITION_RUS,
  SERVERLESS_MAX_REGIONS,
  minimumAutoscaleMaxRus,
  minimumManualRus,
} from "../cosmos/limits.js";
import type { Prices } from "../cosmos/prices.js";
import type { Throughput, ThroughputMode } from "../model/types.js";
import { formatInteger } from "../common/format-number.js";

export interface ThroughputInput {
  /** RU/s the container must be able to serve at peak (incl. uneven spread over partitions). */
  readonly requiredPeak: number;
  /** RU/s the container consumes at peak (the sum of its requests). */
  readonly peak: number;
  /** RU/s consumed on average. */
  readonly avg: number;
  readonly storageGB: number;
  readonly physicalPartitions: number;
  /** RU/s at peak on the busiest physical partition. */
  readonly hottestPhysical: number;
  readonly regions: number;
  readonly multiRegionWrites: boolean;
  /** The model's own choice, if it makes one. */
  readonly pinned?: Throughput;
}

export interface ThroughputOption {
  readonly mode: ThroughputMode;
  readonly provisionedRus: number;
  readonly monthlyThroughputUSD: number;
  readonly formula: string;
  readonly allowed: boolean;
  readonly why: string;
}

export interface ThroughputChoice {
  readonly throughput: Throughput & { readonly provisionedRus: number; readonly reason: string };
  readonly monthlyThroughputUSD: number;
  readonly monthlyStorageUSD: number;
  readonly formula: string;
  readonly options: readonly ThroughputOption[];
}

const roundUp = (value: number, step: number): number => Math.ceil(value / step) * step;
const usd = (value: number): string => `$${value.toFixed(2)}`;
/** Rates such as $0.012 per 100 RU/s-hour keep their digits. */
const rate = (value: number): string => `$${value}`;
const num = (value: number): string => formatInteger(value);

/** The model's throughput setting of an evaluated container (without the figures and reason). */
export function modelThroughputOf(evaluated: ThroughputChoice["throughput"]): Throughput {
  switch (evaluated.mode) {
    case "manual":
      return { mode: "manual", rus: evaluated.rus ?? evaluated.provisionedRus };
    case "autoscale":
      return { mode: "autoscale", maxRus: evaluated.maxRus ?? evaluated.provisionedRus };
    case "serverless":
      return { mode: "serverless" };
    case "shared":
      return { mode: "shared" };
    default:
      return evaluated satisfies never;
  }
}

/** Prices every throughput mode for a container. */
export function priceThroughputOptions(input: ThroughputInput, prices: Prices): ThroughputOption[] {
  const hours = prices.hoursPerMonth;
  const regions = input.regions;
  const manualRate = input.multiRegionWrites
    ? prices.manualMultiRegionWritePer100RusHour
    : prices.manualPer100RusHour;
  const autoscaleRate = input.multiRegionWrites
    ? prices.autoscaleMultiRegionWritePer100RusHour
    : prices.autoscalePer100RusHour;
  const pinnedManual = input.pinned?.mode === "manual" ? input.pinned.rus : undefined;
  const manualRus =
    pinnedManual ?? roundUp(Math.max(input.requiredPeak, minimumManualRus(input.storageGB)), MANUAL_RUS_STEP);
  const manualCost = (manualRus / 100) * manualRate * hours * regions;
  const pinnedMax = input.pinned?.mode === "autoscale" ? input.pinned.maxRus : undefined;
  const maxRus =
    pinnedMax ??
    roundUp(Math.max(input.requiredPeak, minimumAutoscaleMaxRus(input.storageGB)), AUTOSCALE_MAX_RUS_STEP);
  // Each hour is billed on its highest RU/s, at least 10% of the maximum. The hourly highest of
  // an average hour is taken as the average RU/s (the workload gives no hourly profile).
  const billedAutoscale = Math.min(maxRus, Math.max(maxRus * AUTOSCALE_MIN_FRACTION_OF_MAX, input.avg));
  const autoscaleCost = (billedAutoscale / 100) * autoscaleRate * hours * regions;
  const serverlessRu = input.avg * 3600 * hours;
  const serverlessCost = (serverlessRu / 1_000_000) * prices.serverlessPerMillionRu;
  const serverlessProblems: string[] = [];
  if (regions > SERVERLESS_MAX_REGIONS)
    serverlessProblems.push(
      `serverless runs in ${SERVERLESS_MAX_REGIONS} region, the workload has ${regions}`,
    );
  if (input.hottestPhysical > SERVERLESS_MAX_PHYSICAL_PARTITION_RUS) {
    serverlessProblems.push(
      `its busiest physical partition needs ${num(input.hottestPhysical)} RU/s at peak, over serverless's ${num(SERVERLESS_MAX_PHYSICAL_PARTITION_RUS)}`,
    );
  }
  return [
    {
      mode: "manual",
      provisionedRus: manualRus,
      monthlyThroughputUSD: manualCost,
      formula: `${num(manualRus)} RU/s / 100 x ${rate(manualRate)} x ${hours} h x ${regions} region(s) = ${usd(manualCost)}`,
      allowed: true,
      why: `provisioned for the peak of ${num(input.requiredPeak)} RU/s all month`,
    },
    {
      mode: "autoscale",
      provisionedRus: maxRus,
      monthlyThroughputUSD: autoscaleCost,
      formula: `max(10% x ${num(maxRus)}, ${num(input.avg)} avg) RU/s / 100 x ${rate(autoscaleRate)} x ${hours} h x ${regions} region(s) = ${usd(autoscaleCost)}`,
      allowed: true,
      why: `scales to ${num(maxRus)} RU/s at peak and is billed near the ${num(input.avg)} RU/s average`,
    },
    {
      mode: "serverless",
      provisionedRus: 0,
      monthlyThroughputUSD: serverlessCost,
      formula: `${num(input.avg)} RU/s x 3,600 s x ${hours} h / 1,000,000 x ${rate(prices.serverlessPerMillionRu)} = ${usd(serverlessCost)}`,
      allowed: serverlessProblems.length === 0,
      why:
        serverlessProblems.length === 0
          ? "billed per RU consumed, no minimum"
          : serverlessProblems.join("; "),
    },
  ];
}

/** Chooses the throughput mode (the model's, or the cheapest allowed) and prices the month. */
export function chooseThroughput(input: ThroughputInput, prices: Prices): ThroughputChoice {
  const options = priceThroughputOptions(input, prices);
  const storageGBBilled = Math.max(1, input.storageGB);
  const monthlyStorageUSD = storageGBBilled * prices.storagePerGBMonth * input.regions;
  const storageFormula = `${storageGBBilled.toFixed(1)} GB x ${rate(prices.storagePerGBMonth)} x ${input.regions} region(s) = ${usd(monthlyStorageUSD)}`;
  const pinnedMode = input.pinned?.mode === "shared" ? "manual" : input.pinned?.mode;
  const allowed = options.filter((o) => o.allowed);
  const cheapest = allowed.reduce((a, b) => (b.monthlyThroughputUSD < a.monthlyThroughputUSD ? b : a));
  const chosen =
    pinnedMode === undefined ? cheapest : (options.find((o) => o.mode === pinnedMode) ?? cheapest);
  const others = options
    .filter((o) => o !== chosen)
    .map((o) => `${o.mode} ${o.allowed ? usd(o.monthlyThroughputUSD) : `not possible (${o.why})`}`)
    .join(", ");
  const ratio = input.avg > 0 ? input.requiredPeak / input.avg : Infinity;
  const uneven =
    input.requiredPeak > input.peak * 1.01
      ? `; the busiest of its ${num(input.physicalPartitions)} physical partitions needs ${num(input.hottestPhysical)} RU/s at peak and provisioned throughput is split evenly among them, so ${num(input.requiredPeak)} RU/s are needed for a ${num(input.peak)} RU/s peak (throughput redistribution across partitions, or spreading the hot keys, would lower it)`
      : "";
  const reason =
    (pinnedMode !== undefined
      ? `${input.pinned?.mode} as the model sets it (${usd(chosen.monthlyThroughputUSD)}/month; ${others})`
      : `${chosen.mode} is the cheapest: ${usd(chosen.monthlyThroughputUSD)}/month vs ${others}; peak/average ${Number.isFinite(ratio) ? ratio.toFixed(1) : "n/a"}x; ${chosen.why}`) +
    uneven;
  const throughput: Throughput =
    input.pinned?.mode === "shared"
      ? { mode: "shared" }
      : chosen.mode === "manual"
        ? { mode: "manual", rus: chosen.provisionedRus }
        : chosen.mode === "autoscale"
          ? { mode: "autoscale", maxRus: chosen.provisionedRus }
          : { mode: "serverless" };
  return {
    throughput: { ...throughput, provisionedRus: chosen.provisionedRus, reason },
    monthlyThroughputUSD: chosen.monthlyThroughputUSD,
    monthlyStorageUSD,
    formula: `throughput: ${chosen.formula}; storage: ${storageFormula}`,
    options,
  };
}

/** One billing rule the cost model applies, with where it comes from (for documents to list). */
export interface BillingRule {
  readonly subject: "manual" | "autoscale" | "serverless" | "storage" | "trafficProfile" | "month";
  readonly rule: string;
  readonly source: string;
}

/**
 * The rules `priceThroughputOptions` and `chooseThroughput` bill with, in words and with the
 * prices given: what a document lists as its assumptions. Kept beside the code that applies them
 * so that a change of billing changes both.
 * @example billingRules(DEFAULT_PRICES).map((r) => r.rule)
 */
export function billingRules(prices: Prices): readonly BillingRule[] {
  const floor = `${Math.round(AUTOSCALE_MIN_FRACTION_OF_MAX * 100)}%`;
  return [
    {
      subject: "month",
      rule: `a month is ${num(prices.hoursPerMonth)} hours`,
      source: LIMIT_SOURCES.understandYourBill,
    },
    {
      subject: "manual",
      rule: `manual throughput is provisioned for the peak (in steps of ${num(MANUAL_RUS_STEP)} RU/s, at least ${num(MANUAL_MIN_RUS)} RU/s or ${MANUAL_MIN_RUS_PER_GB} RU/s per GB stored) and billed every hour at ${rate(prices.manualPer100RusHour)} per 100 RU/s (${rate(prices.manualMultiRegionWritePer100RusHour)} with multi-region writes), per region`,
      source: LIMIT_SOURCES.understandYourBill,
    },
    {
      subject: "autoscale",
      rule: `autoscale sets a maximum (steps of ${num(AUTOSCALE_MAX_RUS_STEP)} RU/s, at least ${num(AUTOSCALE_MIN_MAX_RUS)} RU/s or ${AUTOSCALE_MAX_RUS_PER_GB} RU/s per GB stored) and bills each hour's highest RU/s, at least ${floor} of the maximum, at ${rate(prices.autoscalePer100RusHour)} per 100 RU/s (${rate(prices.autoscaleMultiRegionWritePer100RusHour)} with multi-region writes), per region`,
      source: LIMIT_SOURCES.autoscaleFaq,
    },
    {
      subject: "trafficProfile",
      rule: "the workload gives average and peak request rates, no hourly profile: each hour of autoscale is billed at the average RU/s (at least the floor), the peak sizes manual throughput and the autoscale maximum",
      source: LIMIT_SOURCES.autoscaleFaq,
    },
    {
      subject: "serverless",
      rule: `serverless bills the RU consumed, ${rate(prices.serverlessPerMillionRu)} per million, and is possible only in ${SERVERLESS_MAX_REGIONS} region with at most ${num(SERVERLESS_MAX_PHYSICAL_PARTITION_RUS)} RU/s per physical partition`,
      source: LIMIT_SOURCES.serverless,
    },
    {
      subject: "storage",
      rule: `storage is billed at ${rate(prices.storagePerGBMonth)} per GB-month per region, at least 1 GB per container`,
      source: LIMIT_SOURCES.howPricingWorks,
    },
  ];
}
