/**
 * Azure Cosmos DB prices, in one dated table with its sources. Prices vary by region and change
 * over time: the Azure Retail Prices API is the machine-readable source to re-check them. A user's
 * override file is read by `cost/load-prices.ts`.
 */
import { HOURS_PER_MONTH } from "./limits.js";

/** The prices the monthly bill is computed with. Throughput rates are per 100 RU/s per hour. */
export interface Prices {
  readonly region: string;
  readonly currency: "USD";
  /** Date the prices were checked (ISO date). */
  readonly checked: string;
  readonly sources: readonly string[];
  readonly hoursPerMonth: number;
  /** Manual (standard) provisioned throughput, single write region: USD per 100 RU/s per hour. */
  readonly manualPer100RusHour: number;
  /** Manual throughput with multi-region writes: USD per 100 RU/s per hour, per region. */
  readonly manualMultiRegionWritePer100RusHour: number;
  /** Autoscale, single write region: USD per 100 RU/s per hour, on each hour's highest RU/s. */
  readonly autoscalePer100RusHour: number;
  /** Autoscale with multi-region writes: USD per 100 RU/s per hour, per region. */
  readonly autoscaleMultiRegionWritePer100RusHour: number;
  /** Serverless: USD per million RU consumed. */
  readonly serverlessPerMillionRu: number;
  /** Transactional storage: USD per GB-month, per region. */
  readonly storagePerGBMonth: number;
  /** Dedicated gateway (integrated cache), one D4s node: USD per node-hour, per region. */
  readonly dedicatedGatewayD4sPerNodeHour: number;
  /** Dedicated gateway, one D8s node: USD per node-hour, per region. */
  readonly dedicatedGatewayD8sPerNodeHour: number;
  /** Dedicated gateway, one D16s node: USD per node-hour, per region. */
  readonly dedicatedGatewayD16sPerNodeHour: number;
}

/**
 * US-region list prices as used in Microsoft's worked examples (400 RU/s manual = $0.032/hour =
 * $23.36 per 730-hour month). Checked 2026-11-22 against the pages in `sources`.
 */
export const DEFAULT_PRICES: Prices = {
  region: "US regions (list price in Microsoft's examples)",
  currency: "USD",
  checked: "2026-11-22",
  sources: [
    // $0.008 manual and $0.016 multi-region-write per 100 RU/s-hour; $0.25 per million RU
    // serverless; $0.25 per GB-month storage (ms.date 2022-03-31).
    "https://learn.microsoft.com/azure/cosmos-db/understand-your-bill",
    // Autoscale $0.012 per 100 RU/s-hour (1.5x manual), single write region (ms.date 2024-07-26).
    "https://learn.microsoft.com/azure/cosmos-db/how-to-choose-offer",
    // Autoscale with multi-region writes is billed at the manual multi-region-write rate (2024-07-26).
    "https://learn.microsoft.com/azure/cosmos-db/autoscale-faq",
    // Serverless $0.25 per million RU (ms.date 2021-10-08).
    "https://learn.microsoft.com/azure/cosmos-db/plan-manage-costs",
    // Storage per GB-month per region, at least 1 GB per non-empty container (ms.date 2025-06-25).
    "https://learn.microsoft.com/azure/cosmos-db/how-pricing-works",
    // The dedicated gateway "is billed hourly" per node (ms.date 2024-10-08); the rates per node
    // size are on https://azure.microsoft.com/pricing/details/cosmos-db/, which could not be
    // read on 2026-11-28 (no network, and no copy in the stored pages): the three figures below
    // are an assumption (about $0.38 per D4s node-hour, doubling with each size as vCPU and
    // memory do), not a checked price. Override them with --prices for a real estimate.
    "https://learn.microsoft.com/azure/cosmos-db/dedicated-gateway",
  ],
  hoursPerMonth: HOURS_PER_MONTH,
  manualPer100RusHour: 0.008,
  manualMultiRegionWritePer100RusHour: 0.016,
  autoscalePer100RusHour: 0.012,
  autoscaleMultiRegionWritePer100RusHour: 0.016,
  serverlessPerMillionRu: 0.25,
  storagePerGBMonth: 0.25,
  dedicatedGatewayD4sPerNodeHour: 0.38,
  dedicatedGatewayD8sPerNodeHour: 0.76,
  dedicatedGatewayD16sPerNodeHour: 1.52,
};
