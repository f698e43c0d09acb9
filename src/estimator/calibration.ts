/**
 * Self-calibration of the request-charge model (issue 30): charges measured on a user's own
 * account (each request's `x-ms-request-charge` with the operation's features) in, the model's
 * coefficients fitted to them out, with the leave-one-out error against the defaults and each
 * coefficient's change, written as a coefficients file that `design`, `evaluate`, `render` and
 * `verify` accept (`--coefficients`).
 *
 * A recording is JSON lines, one measured operation per line: the estimator's input fields
 * (docs/json-output.md, `estimate-ru`), `measuredRU` (the mean charge the service returned),
 * `scenario`, `source` (where it was measured), and `endpoint`: `azure` or `emulator` (charges
 * of Cosmos DB) or `embedded` (the in-process test endpoint, whose charges are not Cosmos DB's:
 * such lines are refused, as is any line with `chargeBearing: false`). The public measurements
 * of `bench/data/ru-measurements.jsonl` read as a recording too.
 *
 * Pure: the caller reads and writes the files.
 */
import { z } from "zod";
import { createIssueSink, type Issue, type Result } from "../common/issues.js";
import type { CalibrationRow } from "./calibration-rows.js";
import { DEFAULT_RU_COEFFICIENTS, type RuCoefficients } from "./coefficients.js";
import {
  canCrossValidate,
  familyOf,
  fitCoefficients,
  FAMILIES,
  rowEstimate,
  type Family,
} from "./fit-coefficients.js";
import { validateOperation } from "./validate-operation.js";

/** Where a recording's charges were measured. */
export type RecordingEndpoint = "azure" | "emulator" | "embedded";

/** A recording read: its charge-bearing rows. */
export interface Recording {
  readonly file: string;
  readonly rows: readonly CalibrationRow[];
}

/**
 * Reads a recording, every problem at once (file, line, field): a line that is not an operation
 * the estimator knows, a charge that is not a positive number, or charges that are not Cosmos
 * DB's (`endpoint: embedded`, `chargeBearing: false`).
 */
export function parseRecording(text: string, file: string): Result<Recording> {
  const sink = createIssueSink({ file });
  const rows: CalibrationRow[] = [];
  text.split(/\r?\n/).forEach((content, index) => {
    const line = index + 1;
    if (content.trim() === "") return;
    const lineSink = createIssueSink({ file, lineOf: () => line });
    let raw: unknown;
    try {
      raw = JSON.parse(content);
    } catch (error) {
      lineSink.error(
        "calibration.invalidRow",
        [],
        `not a JSON object: ${error instanceof Error ? error.message : String(error)}`,
      );
      sink.add(...lineSink.issues());
      return;
    }
    const record = (typeof raw === "object" && raw !== null ? raw : {}) as Record<string, unknown>;
    const endpoint = record["endpoint"];
    if (endpoint === "embedded" || record["chargeBearing"] === false) {
      lineSink.error(
        "calibration.notChargeBearing",
        [endpoint === "embedded" ? "endpoint" : "chargeBearing"],
        "recorded on an endpoint whose request charges are not Cosmos DB's (the embedded endpoint): not charge-bearing, so it cannot calibrate the model",
        "measure the charges on an Azure Cosmos DB account or the emulator (endpoint: azure or emulator)",
      );
      sink.add(...lineSink.issues());
      return;
    }
    if (endpoint !== undefined && endpoint !== "azure" && endpoint !== "emulator")
      lineSink.error(
        "calibration.invalidRow",
        ["endpoint"],
        `expected azure, emulator or embedded, got ${JSON.stringify(endpoint)}`,
      );
    const measured = record["measuredRU"];
    if (typeof measured !== "number" || !Number.isFinite(measured) || measured <= 0)
      lineSink.error(
        "calibration.invalidRow",
        ["measuredRU"],
        `expected the measured charge, a number of RU more than 0, got ${JSON.stringify(measured)}`,
      );
    const source = record["source"];
    if (typeof source !== "string" || source.trim() === "")
      lineSink.error(
        "calibration.invalidRow",
        ["source"],
        "expected where the charge was measured (a non-empty text)",
      );
    const operation = validateOperation(raw);
    lineSink.add(...operation.issues.filter((issue) => issue.severity === "error"));
    if (!lineSink.hasErrors() && operation.ok && typeof measured === "number" && typeof source === "string") {
      rows.push({
        operation: operation.value,
        measuredRU: measured,
        scenario: typeof record["scenario"] === "string" ? record["scenario"] : `${file}:${line}`,
        source,
        evidence: "measured",
      });
    }
    sink.add(...lineSink.issues());
  });
  const issues = sink.issues();
  if (rows.length === 0 && issues.length === 0)
    return {
      ok: false,
      issues: [
        {
          code: "calibration.invalidRow",
          severity: "error",
          file,
          path: [],
          message: "the recording holds no measured operation",
        },
      ],
    };
  return issues.some((issue) => issue.severity === "error")
    ? { ok: false, issues }
    : { ok: true, value: { file, rows }, issues };
}

/** The numeric coefficients the fit may change, by family. */
const FITTED: readonly (keyof RuCoefficients)[] = [
  ...Object.values(FAMILIES).flat(),
  "queryPerScannedItem",
  "queryPerScannedKB",
  "scriptOverhead",
];

/** How the model does on a family of rows, before and after the fit. */
export interface FamilyAccuracy {
  readonly family: Family;
  readonly rows: number;
  /** Mean |estimate / measured - 1| with the default coefficients. */
  readonly defaultError: number;
  /** The same, leave-one-out with the fitted model (each row estimated by a fit without it). */
  readonly leaveOneOutError: number | undefined;
  /** Rows that could be cross-validated (enough other rows of their family). */
  readonly crossValidated: number;
}

/** A calibration: the coefficients, how well they do, and what changed. */
export interface Calibration {
  readonly coefficients: RuCoefficients;
  readonly rows: number;
  readonly sources: readonly string[];
  readonly families: readonly FamilyAccuracy[];
  /** Each fitted coefficient that moved: default, fitted, change. */
  readonly changes: readonly {
    readonly coefficient: keyof RuCoefficients;
    readonly from: number;
    readonly to: number;
  }[];
  /** Families without a row: their coefficients stay the defaults. */
  readonly unfitted: readonly Family[];
}

const relativeError = (estimate: number, measured: number): number => Math.abs(estimate / measured - 1);
const mean = (values: readonly number[]): number =>
  values.length === 0 ? Number.NaN : values.reduce((sum, value) => sum + value, 0) / values.length;

/**
 * Fits the coefficients to the recordings' rows, starting from `start` (default: the calibrated
 * defaults); cross-validates leave-one-out per family.
 * @example calibrate([recording]).coefficients.pointReadBase
 */
export function calibrate(
  recordings: readonly Recording[],
  start: RuCoefficients = DEFAULT_RU_COEFFICIENTS,
): Calibration {
  const rows = recordings.flatMap((recording) => recording.rows);
  const coefficients = fitCoefficients(rows, start);
  const families = [...new Set(rows.map(familyOf))];
  const accuracy = families.map((family): FamilyAccuracy => {
    const familyRows = rows.filter((row) => familyOf(row) === family);
    const defaultError = mean(
      familyRows.map((row) => relativeError(rowEstimate(row, start), row.measuredRU)),
    );
    const crossed = familyRows.flatMap((row) => {
      const others = rows.filter((other) => other !== row);
      if (!canCrossValidate(row, others)) return [];
      return [relativeError(rowEstimate(row, fitCoefficients(others, start)), row.measuredRU)];
    });
    return {
      family,
      rows: familyRows.length,
      defaultError,
      leaveOneOutError: crossed.length === 0 ? undefined : mean(crossed),
      crossValidated: crossed.length,
    };
  });
  const changes = FITTED.flatMap((coefficient) => {
    const from = start[coefficient];
    const to = coefficients[coefficient];
    return typeof from === "number" &&
      typeof to === "number" &&
      Math.abs(to - from) > 1e-9 * Math.max(1, Math.abs(from))
      ? [{ coefficient, from, to }]
      : [];
  });
  const allFamilies: readonly Family[] = [...(Object.keys(FAMILIES) as Family[]), "scan", "transaction"];
  return {
    coefficients,
    rows: rows.length,
    sources: [...new Set(rows.map((row) => row.source))],
    families: accuracy,
    changes,
    unfitted: allFamilies.filter((family) => !families.includes(family)),
  };
}

const positive = z.number().finite().positive();
const nonNegative = z.number().finite().nonnegative();
const band = z.strictObject({ low: positive, high: positive });
const coefficientsSchema = z.strictObject({
  pointReadMinimum: nonNegative,
  pointReadBase: nonNegative,
  pointReadPerKB: nonNegative,
  writeBase: nonNegative,
  writePerKB: nonNegative,
  writePerIndexedValue: nonNegative,
  replaceFactor: positive,
  indexTermsPerChangedValue: nonNegative,
  // Added 2026-11-29: files written before it get the documented default.
  patchPerChangedProperty: nonNegative.default(DEFAULT_RU_COEFFICIENTS.patchPerChangedProperty),
  queryPerPartition: nonNegative,
  queryPerReturnedItem: nonNegative,
  queryPerReturnedKB: nonNegative,
  queryPerScannedItem: nonNegative,
  queryPerScannedKB: nonNegative,
  scriptOverhead: nonNegative,
  bytesPerIndexedValue: positive,
  bytesPerIndexedValueRange: z.strictObject({ dense: positive, sparse: positive }),
  bands: z.strictObject({
    read: band,
    insert: band,
    uncalibratedWrite: band,
    query: band,
    transaction: band,
  }),
}) satisfies z.ZodType<RuCoefficients>;

const fileSchema = z.strictObject({
  version: z.literal(1),
  /** Where the coefficients come from, in words (shown wherever they are used). */
  fittedOn: z.string().min(1),
  coefficients: coefficientsSchema,
});

/** A coefficients file, read: the coefficients and where they come from. */
export interface CoefficientsFile {
  readonly coefficients: RuCoefficients;
  readonly fittedOn: string;
}

/** The coefficients file `calibrate` writes (JSON). */
export function serializeCoefficients(calibration: Calibration, files: readonly string[]): string {
  const fittedOn = `${calibration.rows} measured operation${calibration.rows === 1 ? "" : "s"} of ${files.join(", ")} (${calibration.sources.length} source${calibration.sources.length === 1 ? "" : "s"})`;
  return `${JSON.stringify({ version: 1, fittedOn, coefficients: calibration.coefficients }, null, 2)}\n`;
}

/** Reads a coefficients file, every problem at once. */
export function parseCoefficients(text: string, file: string): Result<CoefficientsFile> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      issues: [
        {
          code: "coefficients.invalid",
          severity: "error",
          file,
          path: [],
          message: `not JSON: ${error instanceof Error ? error.message : String(error)}`,
        },
      ],
    };
  }
  const parsed = fileSchema.safeParse(raw);
  if (!parsed.success)
    return {
      ok: false,
      issues: parsed.error.issues.map((issue): Issue => ({
        code: "coefficients.invalid",
        severity: "error",
        file,
        path: issue.path.filter((segment): segment is string | number => typeof segment !== "symbol"),
        message: `${issue.message} (a file written by calibrate)`,
      })),
    };
  return { ok: true, value: parsed.data, issues: [] };
}
