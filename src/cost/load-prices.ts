/**
 * The loader of a user's price override file (YAML or JSON, any subset of the fields of
 * {@link Prices}), merged over Microsoft's list prices in `cosmos/prices.ts`.
 */
import { z } from "zod";
import { createIssueSink, type Result } from "../common/issues.js";
import { DEFAULT_PRICES, type Prices } from "../cosmos/prices.js";
import { parseSourceDocument } from "../source/parse-document.js";
import { parseWithSchema } from "../source/schema-issues.js";

/**
 * A price may be at most this many times Microsoft's US list price: regional prices differ from
 * the list by tens of percent, never by orders of magnitude, and a price of 1e300 would make
 * every bill overflow (issue 32).
 */
export const MAX_PRICE_FACTOR = 1000;

/** A price between 0 and {@link MAX_PRICE_FACTOR} times the list price of `field`. */
function rate(field: keyof Prices): z.ZodNumber {
  const listed = DEFAULT_PRICES[field] as number;
  const most = listed * MAX_PRICE_FACTOR;
  const range = `a price from 0 to ${most.toLocaleString("en-US")} USD (${MAX_PRICE_FACTOR.toLocaleString("en-US")} x the US list price of ${listed})`;
  return z.number().nonnegative(`expected ${range}`).max(most, `expected ${range}`);
}

/** Schema of a price override file: any subset of {@link Prices}, nothing else. */
const priceOverrideSchema = z
  .strictObject({
    region: z.string().min(1),
    currency: z.literal("USD"),
    checked: z.string().min(1),
    sources: z.array(z.string().min(1)),
    hoursPerMonth: z.number().positive().max(744),
    manualPer100RusHour: rate("manualPer100RusHour"),
    manualMultiRegionWritePer100RusHour: rate("manualMultiRegionWritePer100RusHour"),
    autoscalePer100RusHour: rate("autoscalePer100RusHour"),
    autoscaleMultiRegionWritePer100RusHour: rate("autoscaleMultiRegionWritePer100RusHour"),
    serverlessPerMillionRu: rate("serverlessPerMillionRu"),
    storagePerGBMonth: rate("storagePerGBMonth"),
    dedicatedGatewayD4sPerNodeHour: rate("dedicatedGatewayD4sPerNodeHour"),
    dedicatedGatewayD8sPerNodeHour: rate("dedicatedGatewayD8sPerNodeHour"),
    dedicatedGatewayD16sPerNodeHour: rate("dedicatedGatewayD16sPerNodeHour"),
  })
  .partial();

/** The fields a price file may set. */
const PRICE_FIELDS: readonly string[] = Object.keys(DEFAULT_PRICES);

/**
 * Reads a price override document (YAML or JSON) and merges it over {@link DEFAULT_PRICES}.
 * Every problem is reported with the file, line and field; unknown fields get a suggestion.
 * @example loadPrices("storagePerGBMonth: 0.3\n", "prices.yaml")
 */
export function loadPrices(text: string, file?: string): Result<Prices> {
  const parsed = parseSourceDocument(text, file);
  if (!parsed.ok) return { ok: false, issues: parsed.issues };
  const sink = createIssueSink({
    lineOf: (path) => parsed.document.lineOf(path) ?? (path.length === 0 ? 1 : undefined),
    ...(file === undefined ? {} : { file }),
  });
  const raw = parsed.document.value ?? {};
  if (typeof raw !== "object" || Array.isArray(raw)) {
    sink.error("prices.notAnObject", [], `a price file is a mapping of fields (${PRICE_FIELDS.join(", ")})`);
    return { ok: false, issues: sink.issues() };
  }
  const override = parseWithSchema(priceOverrideSchema, raw, [], sink, {
    codes: {
      unknownField: "prices.unknownField",
      missingField: "prices.invalidValue",
      invalidValue: "prices.invalidValue",
    },
  });
  if (override === undefined) return { ok: false, issues: sink.issues() };
  const given = Object.fromEntries(
    Object.entries(override).filter(([, value]) => value !== undefined),
  ) as Partial<Prices>;
  return { ok: true, value: { ...DEFAULT_PRICES, ...given }, issues: [] };
}
