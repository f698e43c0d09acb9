/**
 * The loader of a user's price override file (YAML or JSON, any subset of the fields of
 * {@link Prices}), merged over Microsoft's list prices in `cosmos/prices.ts`.
 */
import { z } from "zod";
import { createIssueSink, type Result } from "../common/issues.js";
import { DEFAULT_PRICES, type Prices } from "../cosmos/prices.js";
import { parseSourceDocument } from "../source/parse-document.js";
import { didYouMean } from "../source/suggest.js";

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
  const result = priceOverrideSchema.safeParse(raw);
  if (result.success) {
    const override = Object.fromEntries(
      Object.entries(result.data).filter(([, value]) => value !== undefined),
    ) as Partial<Prices>;
    return { ok: true, value: { ...DEFAULT_PRICES, ...override }, issues: [] };
  }
  for (const zodIssue of result.error.issues) {
    const path = zodIssue.path.filter((segment) => typeof segment !== "symbol");
    if (zodIssue.code === "unrecognized_keys") {
      for (const key of zodIssue.keys) {
        sink.error(
          "prices.unknownField",
          [...path, key],
          `unknown price field "${key}"`,
          didYouMean(key, PRICE_FIELDS),
        );
      }
      continue;
    }
    sink.error("prices.invalidValue", path, describeIssue(zodIssue));
  }
  return { ok: false, issues: sink.issues() };
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
