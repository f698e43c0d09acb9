/**
 * Azure Cosmos DB prices, in one dated table with its sources, and the loader of a user's
 * override file (YAML or JSON, any subset of the fields). Prices vary by region and change over
 * time: the Azure Retail Prices API is the machine-readable source to re-check them.
 */
import { z } from "zod";
import type { Issue, Result } from "../issues.js";
import { formatPath, parseSourceDocument } from "../source/parse-document.js";
import { didYouMean } from "../source/suggest.js";
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
  ],
  hoursPerMonth: HOURS_PER_MONTH,
  manualPer100RusHour: 0.008,
  manualMultiRegionWritePer100RusHour: 0.016,
  autoscalePer100RusHour: 0.012,
  autoscaleMultiRegionWritePer100RusHour: 0.016,
  serverlessPerMillionRu: 0.25,
  storagePerGBMonth: 0.25,
};

const rate = z.number().nonnegative().finite();

/** Schema of a price override file: any subset of {@link Prices}, nothing else. */
const priceOverrideSchema = z
  .strictObject({
    region: z.string().min(1),
    currency: z.literal("USD"),
    checked: z.string().min(1),
    sources: z.array(z.string().min(1)),
    hoursPerMonth: z.number().positive().max(744),
    manualPer100RusHour: rate,
    manualMultiRegionWritePer100RusHour: rate,
    autoscalePer100RusHour: rate,
    autoscaleMultiRegionWritePer100RusHour: rate,
    serverlessPerMillionRu: rate,
    storagePerGBMonth: rate,
  })
  .partial();

/** The fields a price file may set. */
export const PRICE_FIELDS: readonly string[] = Object.keys(DEFAULT_PRICES);

/**
 * Reads a price override document (YAML or JSON) and merges it over {@link DEFAULT_PRICES}.
 * Every problem is reported with the file, line and field; unknown fields get a suggestion.
 * @example loadPrices("storagePerGBMonth: 0.3\n", "prices.yaml")
 */
export function loadPrices(text: string, file?: string): Result<Prices> {
  const parsed = parseSourceDocument(text, file);
  if (!parsed.ok) return { ok: false, issues: parsed.issues };
  const where = file === undefined ? {} : { file };
  const raw = parsed.document.value ?? {};
  if (typeof raw !== "object" || Array.isArray(raw)) {
    return {
      ok: false,
      issues: [
        {
          code: "prices.notAnObject",
          severity: "error",
          path: "",
          message: `a price file is a mapping of fields (${PRICE_FIELDS.join(", ")})`,
          ...where,
          line: parsed.document.lineOf([]) ?? 1,
        },
      ],
    };
  }
  const result = priceOverrideSchema.safeParse(raw);
  if (result.success) {
    const override = Object.fromEntries(
      Object.entries(result.data).filter(([, value]) => value !== undefined),
    ) as Partial<Prices>;
    return { ok: true, value: { ...DEFAULT_PRICES, ...override }, issues: [] };
  }
  const issues: Issue[] = [];
  for (const zodIssue of result.error.issues) {
    const path = zodIssue.path.filter((segment) => typeof segment !== "symbol");
    if (zodIssue.code === "unrecognized_keys") {
      for (const key of zodIssue.keys) {
        const keyPath = [...path, key];
        const line = parsed.document.lineOf(keyPath);
        issues.push({
          code: "prices.unknownField",
          severity: "error",
          path: formatPath(keyPath),
          message: `unknown price field "${key}"`,
          suggestion: didYouMean(key, PRICE_FIELDS),
          ...where,
          ...(line === undefined ? {} : { line }),
        });
      }
      continue;
    }
    const line = parsed.document.lineOf(path);
    issues.push({
      code: "prices.invalidValue",
      severity: "error",
      path: formatPath(path),
      message: describeIssue(zodIssue),
      ...where,
      ...(line === undefined ? {} : { line }),
    });
  }
  return { ok: false, issues };
}

function describeIssue(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case "invalid_type":
      return `must be a ${issue.expected}`;
    case "too_small":
      return issue.minimum === 0 && issue.inclusive === true
        ? "must be a non-negative number"
        : `must be at least ${String(issue.minimum)}${issue.inclusive === true ? "" : " (exclusive)"}`;
    case "too_big":
      return `must be at most ${String(issue.maximum)}`;
    case "invalid_value":
      return `must be one of ${issue.values.map((value) => JSON.stringify(value)).join(", ")}`;
    default:
      return issue.message;
  }
}
