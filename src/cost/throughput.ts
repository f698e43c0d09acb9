/**
 * The throughput recommendation of one container and its monthly bill: manual, autoscale or
 * serverless, each priced with the dated price table on its own partition layout
 * (`layout.ts`), autoscale billed by the hour (`autoscale-billing.ts`), the cheapest allowed one
 * chosen, with the reason in numbers. The account decides between provisioned and serverless
 * for all its containers (`capacity-mode.ts`).
 */
import {
  AUTOSCALE_MAX_RUS_PER_GB,
  AUTOSCALE_MAX_RUS_STEP,
  AUTOSCALE_MIN_FRACTION_OF_MAX,
  AUTOSCALE_MIN_MAX_RUS,
  INITIAL_RUS_PER_PARTITION_AUTOSCALE,
  INITIAL_RUS_PER_PARTITION_MANUAL,
  LIMIT_SOURCES,
  MANUAL_MIN_RUS,
  MANUAL_MIN_RUS_PER_GB,
  MANUAL_RUS_STEP,
  MAX_PROVISIONED_RUS,
  SERVERLESS_MAX_CONTAINER_GB,
  SERVERLESS_MAX_PHYSICAL_PARTITION_RUS,
  SERVERLESS_MAX_REGIONS,
  physicalPartitionsFor,
} from "../cosmos/limits.js";
import type { Prices } from "../cosmos/prices.js";
import type { Throughput, ThroughputMode } from "../model/types.js";
import type { TrafficProfile } from "../workload/types.js";
import { formatFigure, formatInteger, formatUsd } from "../common/format-number.js";
import {
  COMPARISON_PEAK_HOURS_PER_DAY,
  HOURS_PER_DAY,
  autoscaleBilledRus,
  basisLabel,
  comparisonBasis,
  dayOf,
  describeBasis,
  described,
  type AutoscaleBasis,
  type DescribedBasis,
} from "./autoscale-billing.js";
import type { PartitionLayout } from "./layout.js";

export interface ThroughputInput {
  /** RU/s the container consumes at peak (the sum of its requests). */
  readonly peak: number;
  /** RU/s consumed on average. */
  readonly avg: number;
  readonly storageGB: number;
  readonly regions: number;
  readonly multiRegionWrites: boolean;
  /** The partition layout and RU/s of each mode (`layoutFor`). */
  readonly layouts: {
    readonly manual: PartitionLayout;
    readonly autoscale: PartitionLayout;
    readonly serverless: PartitionLayout;
  };
  /** The workload's daily traffic shape, when it gives one. */
  readonly trafficProfile?: TrafficProfile;
  /** The model's own choice, if it makes one. */
  readonly pinned?: Throughput;
}

/** Monthly cost of a mode under the other traffic assumptions (autoscale without a profile). */
export interface CostRange {
  readonly lowUSD: number;
  readonly highUSD: number;
  /** The lower bound's assumption (average-billed). */
  readonly low: DescribedBasis;
  /** The upper bound's assumption (peak-billed). */
  readonly high: DescribedBasis;
  /** Peak hours a day above which manual costs less than autoscale (absent: never / always). */
  readonly manualCheaperAbovePeakHours?: number;
}

export interface ThroughputOption {
  readonly mode: "manual" | "autoscale" | "serverless";
  readonly provisionedRus: number;
  readonly layout: PartitionLayout;
  readonly monthlyThroughputUSD: number;
  readonly formula: string;
  /** The traffic assumption the figure uses (the same for every mode of a workload). */
  readonly basis: DescribedBasis;
  readonly range?: CostRange;
  readonly allowed: boolean;
  readonly why: string;
}

export interface ThroughputChoice {
  readonly throughput: Throughput & { readonly provisionedRus: number; readonly reason: string };
  readonly chosen: ThroughputOption;
  readonly monthlyThroughputUSD: number;
  readonly monthlyStorageUSD: number;
  readonly formula: string;
  readonly options: readonly ThroughputOption[];
}

/** Dollars and cents with thousands separators, as the documents print them. */
const usd = (value: number): string => formatUsd(value, true);
/** Rates such as $0.012 per 100 RU/s-hour keep their digits. */
const rate = (value: number): string => `$${value}`;
const num = (value: number): string => formatInteger(value);

/**
 * The model's throughput setting of an evaluated container (without the figures and reason). A
 * figure no account can be set to (over MAX_PROVISIONED_RUS) is left out: the mode alone is
 * written, the evaluation computes the same figure from it and reports it over the maximum.
 */
export function modelThroughputOf(evaluated: ThroughputChoice["throughput"]): Throughput {
  const settable = (rus: number): boolean => rus <= MAX_PROVISIONED_RUS;
  switch (evaluated.mode) {
    case "manual": {
      const rus = evaluated.rus ?? evaluated.provisionedRus;
      return settable(rus) ? { mode: "manual", rus } : { mode: "manual" };
    }
    case "autoscale": {
      const maxRus = evaluated.maxRus ?? evaluated.provisionedRus;
      return settable(maxRus) ? { mode: "autoscale", maxRus } : { mode: "autoscale" };
    }
    case "serverless":
      return { mode: "serverless" };
    case "shared":
      return { mode: "shared" };
    default:
      return evaluated satisfies never;
  }
}

/** The RU/s a container needs at its peak: its consumption, or its busiest partition times the partitions. */
function neededAtPeak(peak: number, layout: PartitionLayout): number {
  return Math.max(peak, layout.hottest * layout.partitions);
}

/** Prices every throughput mode for a container. */
export function priceThroughputOptions(input: ThroughputInput, prices: Prices): ThroughputOption[] {
  const manual = manualOption(input, prices);
  return [manual, autoscaleOption(input, prices, manual), serverlessOption(input, prices)];
}

/** `options` with each mode in `own` replaced by its own fixed point's option. */
export function withOwnOptions(options: readonly ThroughputOption[], own: OwnOptions): ThroughputOption[] {
  return options.map((option) => (option.mode === "serverless" ? option : (own[option.mode] ?? option)));
}

/** Manual throughput: the RU/s of its layout, billed every hour of the month. */
function manualOption(input: ThroughputInput, prices: Prices): ThroughputOption {
  const hours = prices.hoursPerMonth;
  const regions = input.regions;
  const manualRate = input.multiRegionWrites
    ? prices.manualMultiRegionWritePer100RusHour
    : prices.manualPer100RusHour;
  const { manual } = input.layouts;
  const manualRus = manual.provisionedRus;
  const manualCost = (manualRus / 100) * manualRate * hours * regions;
  return {
    mode: "manual",
    provisionedRus: manualRus,
    layout: manual,
    monthlyThroughputUSD: manualCost,
    formula: `${num(manualRus)} RU/s / 100 x ${rate(manualRate)} x ${hours} h x ${regions} region(s) = ${usd(manualCost)}`,
    basis: described({ kind: "provisionedForPeak" }),
    allowed: !manual.overCreationShare,
    why: manual.overCreationShare
      ? `its busiest physical partition needs ${num(manual.hottest)} RU/s at peak, more than the ${num(INITIAL_RUS_PER_PARTITION_MANUAL)} RU/s per partition a container created with manual throughput gets (create it with autoscale, or raise manual RU/s after creation)`
      : `provisioned for the peak of ${num(neededAtPeak(input.peak, manual))} RU/s all month`,
  };
}

/**
 * Autoscale: each hour billed at its highest RU/s (at least 10% of the maximum), on the
 * workload's traffic profile, else at `COMPARISON_PEAK_HOURS_PER_DAY` peak hours a day (the
 * basis the modes are compared on) with the range from average-billed to peak-billed and the peak
 * hours a day above which `manual` is cheaper.
 */
function autoscaleOption(input: ThroughputInput, prices: Prices, manual: ThroughputOption): ThroughputOption {
  const hours = prices.hoursPerMonth;
  const regions = input.regions;
  const autoscaleRate = input.multiRegionWrites
    ? prices.autoscaleMultiRegionWritePer100RusHour
    : prices.autoscalePer100RusHour;
  const { autoscale } = input.layouts;
  const maxRus = autoscale.provisionedRus;
  const needed = neededAtPeak(input.peak, autoscale);
  const averageShare = input.peak > 0 ? Math.min(1, input.avg / input.peak) : 0;
  const billedOn = (basis: AutoscaleBasis): number =>
    autoscaleBilledRus(needed, maxRus, dayOf(basis, averageShare));
  const costOn = (basis: AutoscaleBasis): number => (billedOn(basis) / 100) * autoscaleRate * hours * regions;
  const basis = comparisonBasis(input.trafficProfile);
  const autoscaleCost = costOn(basis);
  const range = input.trafficProfile === undefined ? autoscaleRange(costOn, manual) : undefined;
  const rangeText =
    range === undefined
      ? ""
      : `; ${usd(range.lowUSD)} average-billed to ${usd(range.highUSD)} peak-billed${range.manualCheaperAbovePeakHours === undefined ? "" : `, manual is cheaper if the peak lasts over ${formatFigure(range.manualCheaperAbovePeakHours)} hours a day`}`;
  return {
    mode: "autoscale",
    provisionedRus: maxRus,
    layout: autoscale,
    monthlyThroughputUSD: autoscaleCost,
    formula: `${num(billedOn(basis))} RU/s billed per hour on average (each hour's highest of ${num(needed)} RU/s x its share of the peak, at least 10% x ${num(maxRus)}; ${basisLabel(basis)}) / 100 x ${rate(autoscaleRate)} x ${hours} h x ${regions} region(s) = ${usd(autoscaleCost)}`,
    basis: described(basis),
    ...(range === undefined ? {} : { range }),
    allowed: true,
    why: `scales to ${num(maxRus)} RU/s at peak and bills each hour's highest (${basisLabel(basis)})${rangeText}`,
  };
}

/**
 * Autoscale's cost without a profile, from average-billed to peak-billed, and the peak hours a
 * day from which manual costs less: N peak hours (the others at the average) cost linearly
 * between the two bounds.
 */
function autoscaleRange(costOn: (basis: AutoscaleBasis) => number, manual: ThroughputOption): CostRange {
  const low = costOn({ kind: "average" });
  const high = costOn({ kind: "peak" });
  const breakEven =
    high > low && manual.allowed
      ? (HOURS_PER_DAY * (manual.monthlyThroughputUSD - low)) / (high - low)
      : undefined;
  return {
    lowUSD: low,
    highUSD: high,
    low: described({ kind: "average" }),
    high: described({ kind: "peak" }),
    ...(breakEven !== undefined && breakEven > 0 && breakEven < HOURS_PER_DAY
      ? { manualCheaperAbovePeakHours: breakEven }
      : {}),
  };
}

/** Serverless: the RU consumed at the average rate; allowed within its region, partition and storage limits. */
function serverlessOption(input: ThroughputInput, prices: Prices): ThroughputOption {
  const hours = prices.hoursPerMonth;
  const regions = input.regions;
  const { serverless } = input.layouts;
  const serverlessRu = input.avg * 3600 * hours;
  const serverlessCost = (serverlessRu / 1_000_000) * prices.serverlessPerMillionRu;
  const serverlessProblems: string[] = [];
  if (regions > SERVERLESS_MAX_REGIONS)
    serverlessProblems.push(
      `serverless runs in ${SERVERLESS_MAX_REGIONS} region, the workload has ${regions}`,
    );
  if (serverless.overPartitionLimit) {
    serverlessProblems.push(
      `its busiest physical partition needs ${num(serverless.hottest)} RU/s at peak, over serverless's ${num(SERVERLESS_MAX_PHYSICAL_PARTITION_RUS)}`,
    );
  }
  if (input.storageGB > SERVERLESS_MAX_CONTAINER_GB) {
    serverlessProblems.push(
      `it stores ${num(input.storageGB)} GB, over the ${num(SERVERLESS_MAX_CONTAINER_GB)} GB of a serverless container`,
    );
  }
  return {
    mode: "serverless",
    provisionedRus: 0,
    layout: serverless,
    monthlyThroughputUSD: serverlessCost,
    formula: `${num(input.avg)} RU/s x 3,600 s x ${hours} h / 1,000,000 x ${rate(prices.serverlessPerMillionRu)} = ${usd(serverlessCost)}`,
    basis: described({ kind: "consumedAtAverage" }),
    allowed: serverlessProblems.length === 0,
    why:
      serverlessProblems.length === 0 ? "billed per RU consumed, no minimum" : serverlessProblems.join("; "),
  };
}

/** Options priced elsewhere that replace a mode's (each provisioned mode at its own partition fixed point). */
export type OwnOptions = Partial<Record<"manual" | "autoscale", ThroughputOption>>;

/**
 * Chooses the throughput mode (the model's, or the cheapest allowed among `modes`) and prices
 * the month. `modes` is what the account allows: serverless alone, or manual and autoscale.
 * `own` replaces a mode's option by the one priced at that mode's own partition count.
 */
export function chooseThroughput(
  input: ThroughputInput,
  prices: Prices,
  modes: readonly ThroughputOption["mode"][] = ["manual", "autoscale", "serverless"],
  own: OwnOptions = {},
): ThroughputChoice {
  const options = withOwnOptions(priceThroughputOptions(input, prices), own);
  const storageGBBilled = Math.max(1, input.storageGB);
  const monthlyStorageUSD = storageGBBilled * prices.storagePerGBMonth * input.regions;
  const storageFormula = `${formatFigure(storageGBBilled)} GB x ${rate(prices.storagePerGBMonth)} x ${input.regions} region(s) = ${usd(monthlyStorageUSD)}`;
  const pinnedMode: ThroughputMode | undefined =
    input.pinned?.mode === "shared" ? "manual" : input.pinned?.mode;
  const candidates = options.filter((o) => modes.includes(o.mode));
  const allowed = candidates.filter((o) => o.allowed);
  const pool = allowed.length > 0 ? allowed : candidates.length > 0 ? candidates : options;
  const cheapest = pool.reduce((a, b) => (b.monthlyThroughputUSD < a.monthlyThroughputUSD ? b : a));
  const chosen =
    pinnedMode === undefined ? cheapest : (options.find((o) => o.mode === pinnedMode) ?? cheapest);
  const others = options
    .filter((o) => o !== chosen)
    .map((o) => `${o.mode} ${o.allowed ? usd(o.monthlyThroughputUSD) : `not possible (${o.why})`}`)
    .join(", ");
  const ratio = input.avg > 0 ? input.peak / input.avg : Infinity;
  const layout = chosen.layout;
  const split =
    layout.evenSplitRus === undefined || chosen.mode === "serverless"
      ? ""
      : layout.overPartitionLimit
        ? `; its busiest physical partition needs ${num(layout.hottest)} RU/s at peak, over the ${num(layout.partitionLimit)} RU/s a partition serves: no amount of RU/s fixes that (an error); priced at ${num(layout.evenSplitRus)} RU/s, what ${num(layout.partitions)} partitions x ${num(layout.hottest)} RU/s would cost if a partition could serve it, only to compare alternatives (not a figure to deploy: ${num(layout.evenSplitRus)} RU/s would create ${num(physicalPartitionsFor({ rus: layout.evenSplitRus, mode: layout.mode === "manual" ? "manual" : "autoscale", storageGB: input.storageGB }))} physical partitions, not the ${num(layout.partitions)} it is planned on)`
        : `; the busiest of its ${num(layout.partitions)} physical partitions needs ${num(layout.hottest)} RU/s at peak and provisioned throughput is split evenly among them, so ${num(layout.evenSplitRus)} RU/s are needed for a ${num(input.peak)} RU/s peak (spreading the hot keys, or redistributing throughput across partitions, would lower it)`;
  const separated = layout.splitForBusiest
    ? `; ${num(layout.partitions)} physical partitions, more than its peak alone would create, so that its busiest partition fits in ${num(layout.partitionLimit)} RU/s (hot keys on different partitions, a smaller share of the rest on each)`
    : "";
  const raised = layout.raisedForPartitions
    ? `; ${num(layout.provisionedRus)} RU/s so that it is created with the ${num(layout.partitions)} physical partitions its access patterns are planned on`
    : "";
  const reason =
    (pinnedMode !== undefined
      ? `${input.pinned?.mode} as the model sets it (${usd(chosen.monthlyThroughputUSD)}/month; ${others})`
      : `${chosen.mode} is the cheapest${modes.length < 3 ? ` the account's capacity mode allows` : ""}: ${usd(chosen.monthlyThroughputUSD)}/month vs ${others} (autoscale priced at ${basisLabel(comparisonBasis(input.trafficProfile))}); peak/average ${Number.isFinite(ratio) ? formatFigure(ratio) : "n/a"}x; ${chosen.why}`) +
    split +
    separated +
    raised;
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
    chosen,
    monthlyThroughputUSD: chosen.monthlyThroughputUSD,
    monthlyStorageUSD,
    formula: `throughput: ${chosen.formula}; storage: ${storageFormula}`,
    options,
  };
}

/** One billing rule the cost model applies, with where it comes from (for documents to list). */
export interface BillingRule {
  readonly subject:
    "manual" | "autoscale" | "serverless" | "storage" | "trafficProfile" | "month" | "account";
  readonly rule: string;
  readonly source: string;
}

/**
 * The rules `priceThroughputOptions`, `chooseThroughput` and `chooseAccountCapacity` bill with,
 * in words and with the prices given: what a document lists as its assumptions. Kept beside the
 * code that applies them so that a change of billing changes both.
 * @example billingRules(DEFAULT_PRICES, workload.scale.trafficProfile).map((r) => r.rule)
 */
export function billingRules(prices: Prices, trafficProfile?: TrafficProfile): readonly BillingRule[] {
  const floor = `${Math.round(AUTOSCALE_MIN_FRACTION_OF_MAX * 100)}%`;
  return [
    {
      subject: "month",
      rule: `a month is ${num(prices.hoursPerMonth)} hours`,
      source: LIMIT_SOURCES.understandYourBill,
    },
    {
      subject: "account",
      rule: "capacity mode (provisioned or serverless) is one per account: serverless only when every container can run serverless and it costs less than provisioning them all",
      source: LIMIT_SOURCES.serverless,
    },
    {
      subject: "manual",
      rule: `manual throughput is provisioned for the peak (in steps of ${num(MANUAL_RUS_STEP)} RU/s, at least ${num(MANUAL_MIN_RUS)} RU/s or ${MANUAL_MIN_RUS_PER_GB} RU/s per GB stored; created with RU/s / ${num(INITIAL_RUS_PER_PARTITION_MANUAL)} physical partitions) and billed every hour at ${rate(prices.manualPer100RusHour)} per 100 RU/s (${rate(prices.manualMultiRegionWritePer100RusHour)} with multi-region writes), per region`,
      source: LIMIT_SOURCES.understandYourBill,
    },
    {
      subject: "autoscale",
      rule: `autoscale sets a maximum (steps of ${num(AUTOSCALE_MAX_RUS_STEP)} RU/s, at least ${num(AUTOSCALE_MIN_MAX_RUS)} RU/s or ${AUTOSCALE_MAX_RUS_PER_GB} RU/s per GB stored; created with maximum / ${num(INITIAL_RUS_PER_PARTITION_AUTOSCALE)} physical partitions) and bills each hour's highest RU/s, at least ${floor} of the maximum, at ${rate(prices.autoscalePer100RusHour)} per 100 RU/s (${rate(prices.autoscaleMultiRegionWritePer100RusHour)} with multi-region writes), per region`,
      source: LIMIT_SOURCES.autoscaleFaq,
    },
    {
      subject: "trafficProfile",
      rule:
        trafficProfile === undefined
          ? `the workload gives no daily traffic profile (scale.trafficProfile): autoscale is priced at ${COMPARISON_PEAK_HOURS_PER_DAY} peak hours a day and the others at the average RU/s, the middle of its range from average-billed (every hour at the average, the lower bound) to peak-billed (every hour at the peak, the upper bound), both shown beside it with the peak hours a day above which manual costs less; every mode is compared on that figure (manual is provisioned for the peak and serverless bills the RU consumed whatever the shape), which keeps the most a wrong choice can overpay smallest`
          : `${describeBasis({ kind: "profile", profile: trafficProfile })}: each hour is billed at its share of the RU/s the container needs at peak`,
      source: LIMIT_SOURCES.autoscaleFaq,
    },
    {
      subject: "serverless",
      rule: `serverless bills the RU consumed, ${rate(prices.serverlessPerMillionRu)} per million, and is possible only in ${SERVERLESS_MAX_REGIONS} region, with at most ${num(SERVERLESS_MAX_PHYSICAL_PARTITION_RUS)} RU/s per physical partition and ${num(SERVERLESS_MAX_CONTAINER_GB)} GB per container`,
      source: LIMIT_SOURCES.serverless,
    },
    {
      subject: "storage",
      rule: `storage is billed at ${rate(prices.storagePerGBMonth)} per GB-month per region, at least 1 GB per container`,
      source: LIMIT_SOURCES.howPricingWorks,
    },
  ];
}
