/**
 * Turns zod's issues into ours: a namespaced code, the field path, what was expected and what
 * the file holds ("expected a positive number, got -3"), and "did you mean" for unknown fields
 * and misspelled values.
 */
import type { z } from "zod";
import { suggestName, didYouMean } from "../source/suggest.js";
import type { IssuePath, IssueSink } from "../common/issues.js";
import { fieldsAt } from "./raw-schema.js";

/**
 * Checks `value` (found at `at` in the document) against `schema`, reports every problem to
 * `sink`, and returns the parsed value when there was none.
 */
export function parsePiece<T>(
  schema: z.ZodType<T>,
  value: unknown,
  at: IssuePath,
  sink: IssueSink,
): T | undefined {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  for (const issue of result.error.issues) reportSchemaIssue(schema, value, at, issue, sink);
  return undefined;
}

function reportSchemaIssue(
  schema: z.ZodType,
  value: unknown,
  at: IssuePath,
  issue: z.core.$ZodIssue,
  sink: IssueSink,
  base: IssuePath = [],
): void {
  const own = issue.path.filter((segment): segment is string | number => typeof segment !== "symbol");
  const relative = [...base, ...own];
  const path = [...at, ...relative];
  const actual = valueAt(value, relative);
  switch (issue.code) {
    case "unrecognized_keys": {
      const fields = fieldsAt(schema, relative);
      for (const key of issue.keys) {
        sink.error(
          "workload.unknownField",
          [...path, key],
          // The path ends with the field's name: not again in the message.
          "unknown field",
          didYouMean(key, [...fields]),
        );
      }
      return;
    }
    case "invalid_type":
      if (actual === undefined && relative.length > 0) {
        sink.error("workload.missingField", path, `required field is missing (${issue.message})`);
        return;
      }
      break;
    case "invalid_union": {
      // The branch whose shape the value has (a mapping for the long form, a number for a count)
      // explains the problem better than "expected A or B".
      const matching = issue.errors.filter(
        (branch) => !branch.some((inner) => inner.path.length === 0 && isShapeMismatch(inner)),
      );
      const [only] = matching;
      if (matching.length === 1 && only !== undefined) {
        for (const inner of only) reportSchemaIssue(schema, value, at, inner, sink, relative);
        return;
      }
      break;
    }
    default:
      break;
  }
  const close = typeof actual === "string" ? suggestName(actual, allowedValues(issue)) : undefined;
  sink.error(
    "workload.invalidValue",
    path,
    `${issue.message}, got ${describeValue(actual)}`,
    close === undefined || close === actual ? undefined : `did you mean "${close}"?`,
  );
}

function isShapeMismatch(issue: z.core.$ZodIssue): boolean {
  return issue.code === "invalid_type" || issue.code === "invalid_value";
}

function allowedValues(issue: z.core.$ZodIssue): string[] {
  if (issue.code === "invalid_value") return issue.values.map(String);
  if (issue.code === "invalid_union") return issue.errors.flat().flatMap((inner) => allowedValues(inner));
  return [];
}

function valueAt(value: unknown, path: IssuePath): unknown {
  let current = value;
  for (const segment of path) {
    if (typeof current !== "object" || current === null) return undefined;
    current = (current as Record<string | number, unknown>)[segment];
  }
  return current;
}

/** A short description of a value for messages: `-3`, `"abc"`, `a list`, `nothing`. */
export function describeValue(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null (an empty value)";
  if (Array.isArray(value)) return value.length === 0 ? "an empty list" : "a list";
  if (typeof value === "object") return Object.keys(value).length === 0 ? "an empty mapping" : "a mapping";
  if (typeof value === "number" && !Number.isFinite(value))
    return Number.isNaN(value) ? "not a number (NaN)" : `a number too large to represent (read as ${value})`;
  if (typeof value === "string") {
    const shown = value.length > 60 ? `${value.slice(0, 57)}...` : value;
    return JSON.stringify(shown);
  }
  return String(value);
}
