/**
 * Turns zod's issues into ours: a namespaced code, the field path, what was expected and what
 * the file holds ("expected a positive number, got -3"), and "did you mean" for unknown fields
 * and misspelled values.
 */
import type { z } from "zod";
import { suggestName, didYouMean } from "../source/suggest.js";
import type { FieldPath, IssueSink } from "./issue-sink.js";
import { fieldsAt } from "./raw-schema.js";

/**
 * Checks `value` (found at `at` in the document) against `schema`, reports every problem to
 * `sink`, and returns the parsed value when there was none.
 */
export function parsePiece<T>(
  schema: z.ZodType<T>,
  value: unknown,
  at: FieldPath,
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
  at: FieldPath,
  issue: z.core.$ZodIssue,
  sink: IssueSink,
): void {
  const relative = issue.path.filter((segment): segment is string | number => typeof segment !== "symbol");
  const path = [...at, ...relative];
  const actual = valueAt(value, relative);
  switch (issue.code) {
    case "unrecognized_keys": {
      const fields = fieldsAt(schema, relative);
      for (const key of issue.keys) {
        sink.error(
          "workload.unknownField",
          [...path, key],
          `unknown field "${key}"`,
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
    case "invalid_value":
    case "invalid_union":
      if (typeof actual === "string") {
        const close = suggestName(actual, allowedValues(issue));
        sink.error(
          "workload.invalidValue",
          path,
          `${issue.message}, got ${describeValue(actual)}`,
          close === undefined || close === actual ? undefined : `did you mean "${close}"?`,
        );
        return;
      }
      break;
    default:
      break;
  }
  sink.error("workload.invalidValue", path, `${issue.message}, got ${describeValue(actual)}`);
}

function allowedValues(issue: z.core.$ZodIssue): string[] {
  if (issue.code === "invalid_value") return issue.values.map(String);
  if (issue.code === "invalid_union") return issue.errors.flat().flatMap((inner) => allowedValues(inner));
  return [];
}

function valueAt(value: unknown, path: FieldPath): unknown {
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
  if (typeof value === "string") {
    const shown = value.length > 60 ? `${value.slice(0, 57)}...` : value;
    return JSON.stringify(shown);
  }
  return String(value);
}
