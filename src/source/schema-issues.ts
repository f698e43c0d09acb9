/**
 * The one translator from zod's issues to ours, for every document the tool reads (workloads,
 * models, price files, verify runs, session answers): a namespaced code, the field path, what
 * was expected and what the document holds ("expected a positive number, got -3"), "did you mean"
 * for unknown fields and misspelled values. A schema may carry its own expectation text
 * (`{ error: "expected a positive number" }`); otherwise the expectation is worded from the
 * issue (type, bound, allowed values).
 */
import { z } from "zod";
import type { IssuePath, IssuePayloads, IssueSink } from "../common/issues.js";
import { didYouMean, suggestName } from "./suggest.js";

/** Codes without a payload of their own, which a schema problem can be reported under. */
type PlainCode = {
  [K in keyof IssuePayloads]: IssuePayloads[K] extends Record<never, never>
    ? keyof IssuePayloads[K] extends never
      ? K
      : never
    : never;
}[keyof IssuePayloads];

/** The codes a document's schema problems are reported under. */
export interface SchemaIssueCodes {
  /** A field the schema does not list. */
  readonly unknownField: PlainCode;
  /** A required field that is absent. */
  readonly missingField: PlainCode;
  /** Any other problem: wrong type, out of range, not one of the allowed values. */
  readonly invalidValue: PlainCode;
}

export interface SchemaCheckOptions {
  readonly codes: SchemaIssueCodes;
  /** Suggestion added to every invalid value (e.g. which document was expected). */
  readonly suggestion?: string;
  /** Text of an unresolved union when the schema gives none ("expected a or b"). */
  readonly unionExpectation?: (path: IssuePath) => string | undefined;
}

/**
 * Checks `value` (found at `at` in its document) against `schema`, reports every problem to
 * `sink`, and returns the parsed value when there was none.
 * @example parseWithSchema(rawEntitySchema, raw, ["entities", "User"], sink, { codes: WORKLOAD_CODES })
 */
export function parseWithSchema<T>(
  schema: z.ZodType<T>,
  value: unknown,
  at: IssuePath,
  sink: IssueSink,
  options: SchemaCheckOptions,
): T | undefined {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  for (const issue of result.error.issues) report({ schema, value, at, sink, options }, issue, []);
  return undefined;
}

interface Check {
  readonly schema: z.ZodType;
  readonly value: unknown;
  readonly at: IssuePath;
  readonly sink: IssueSink;
  readonly options: SchemaCheckOptions;
}

function report(check: Check, issue: z.core.$ZodIssue, base: IssuePath): void {
  const { schema, value, at, sink, options } = check;
  const { codes } = options;
  const own = issue.path.filter((segment): segment is string | number => typeof segment !== "symbol");
  const relative = [...base, ...own];
  const path = [...at, ...relative];
  const actual = valueAt(value, relative);
  switch (issue.code) {
    case "unrecognized_keys": {
      const fields = fieldsOf(schema, relative);
      for (const key of issue.keys) {
        sink.error(
          codes.unknownField,
          [...path, key],
          // The path ends with the field's name: not again in the message.
          "unknown field",
          didYouMean(key, [...fields]),
        );
      }
      return;
    }
    case "invalid_type":
    case "invalid_value":
      if (actual === undefined && (relative.length > 0 || value === undefined)) {
        sink.error(codes.missingField, path, `required field is missing (${expectation(issue, actual)})`);
        return;
      }
      break;
    case "invalid_union": {
      // A required field of either form (`key: postId` or `key: [a, b]`) that is not there.
      if (actual === undefined && relative.length > 0) {
        const union = customMessage(issue, actual) ?? options.unionExpectation?.(relative);
        sink.error(
          codes.missingField,
          path,
          `required field is missing (${union ?? expectation(issue, actual)})`,
        );
        return;
      }
      // The branch whose shape the value has (a mapping for the long form, a number for a count)
      // explains the problem better than "expected A or B".
      const matching = issue.errors.filter(
        (branch) => !branch.some((inner) => inner.path.length === 0 && isShapeMismatch(inner)),
      );
      const [only] = matching;
      if (matching.length === 1 && only !== undefined) {
        for (const inner of only) report(check, inner, relative);
        return;
      }
      const union = customMessage(issue, actual) ?? options.unionExpectation?.(relative);
      if (union !== undefined) {
        sink.error(
          codes.invalidValue,
          path,
          `${union}, got ${describeValue(actual)}`,
          suggestion(issue, actual, options),
        );
        return;
      }
      break;
    }
    default:
      break;
  }
  sink.error(
    codes.invalidValue,
    path,
    `${expectation(issue, actual)}, got ${describeValue(actual)}`,
    suggestion(issue, actual, options),
  );
}

/** "did you mean" for a misspelled allowed value, else the caller's general suggestion. */
function suggestion(
  issue: z.core.$ZodIssue,
  actual: unknown,
  options: SchemaCheckOptions,
): string | undefined {
  const close = typeof actual === "string" ? suggestName(actual, allowedValues(issue)) : undefined;
  return close !== undefined && close !== actual ? `did you mean "${close}"?` : options.suggestion;
}

const ENGLISH = z.locales.en();

/**
 * The schema's own text for the issue, when it gave one: the message differs from zod's default
 * English text for the issue (which mentions the value it received, so it is given back).
 */
function customMessage(issue: z.core.$ZodIssue, actual: unknown): string | undefined {
  const standard = ENGLISH.localeError({ ...issue, input: actual } as never);
  const text = typeof standard === "string" ? standard : standard?.message;
  return issue.message === text ? undefined : issue.message;
}

/** What the value should have been, in our words. */
function expectation(issue: z.core.$ZodIssue, actual: unknown): string {
  const custom = customMessage(issue, actual);
  if (custom !== undefined) return custom;
  switch (issue.code) {
    case "invalid_type":
      return `expected ${typeName(issue.expected)}`;
    case "invalid_value":
      return `expected ${issue.values.map((allowed) => JSON.stringify(allowed)).join(" or ")}`;
    case "too_small":
      return `expected ${bound(issue.origin, "at least", issue.minimum, issue.inclusive)}`;
    case "too_big":
      return `expected ${bound(issue.origin, "at most", issue.maximum, issue.inclusive)}`;
    default:
      return issue.message;
  }
}

function typeName(expected: string): string {
  switch (expected) {
    case "int":
      return "a whole number";
    case "number":
      return "a number";
    case "string":
      return "text";
    case "boolean":
      return "true or false";
    case "array":
      return "a list";
    case "object":
      return "a mapping";
    default:
      return expected;
  }
}

function bound(origin: string, word: string, limit: number | bigint, inclusive: boolean | undefined): string {
  if (origin === "array") return `${word} ${String(limit)} entr${limit === 1 ? "y" : "ies"}`;
  if (origin === "string") return `${word} ${String(limit)} character(s)`;
  if (inclusive === false) return `a number ${word === "at least" ? ">" : "<"} ${String(limit)}`;
  return `a number ${word === "at least" ? ">=" : "<="} ${String(limit)}`;
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
  if (Array.isArray(value)) {
    if (value.length === 0) return "an empty list";
    return value.length === 1 ? "a list of 1 entry" : `a list of ${value.length} entries`;
  }
  if (typeof value === "object") return Object.keys(value).length === 0 ? "an empty mapping" : "a mapping";
  if (typeof value === "number" && !Number.isFinite(value))
    return Number.isNaN(value)
      ? "not a number (NaN)"
      : `${value} (YAML's ${value > 0 ? "" : "-"}.inf, or a number beyond ${value > 0 ? "" : "-"}1.8e308), not a finite number`;
  if (typeof value === "string") {
    const shown = value.length > 60 ? `${value.slice(0, 57)}...` : value;
    return JSON.stringify(shown);
  }
  return String(value);
}

interface SchemaDef {
  readonly type: string;
  readonly shape?: Record<string, z.ZodType>;
  readonly innerType?: z.ZodType;
  readonly in?: z.ZodType;
  readonly options?: readonly z.ZodType[];
  readonly valueType?: z.ZodType;
  readonly element?: z.ZodType;
}

/** The field names the object schema inside `schema` at `path` accepts (for "did you mean"). */
export function fieldsOf(schema: z.ZodType, path: readonly PropertyKey[]): readonly string[] {
  let current: z.ZodType | undefined = schema;
  const remaining = [...path];
  while (current !== undefined) {
    const def = current.def as unknown as SchemaDef;
    if (
      def.type === "optional" ||
      def.type === "default" ||
      def.type === "nullable" ||
      def.type === "prefault"
    ) {
      current = def.innerType;
    } else if (def.type === "pipe") {
      current = def.in;
    } else if (def.type === "union") {
      current = def.options?.find((option) => objectLike(option));
    } else if (remaining.length === 0) {
      return def.type === "object" && def.shape !== undefined ? Object.keys(def.shape) : [];
    } else {
      const segment = remaining.shift();
      if (def.type === "object") current = def.shape?.[String(segment)];
      else if (def.type === "record") current = def.valueType;
      else if (def.type === "array") current = def.element;
      else return [];
    }
  }
  return [];
}

/** An object schema, possibly wrapped (optional, default, pipe). */
function objectLike(schema: z.ZodType): boolean {
  let def = schema.def as unknown as SchemaDef;
  while (def.innerType !== undefined || (def.type === "pipe" && def.in !== undefined)) {
    const inner: z.ZodType | undefined = def.innerType ?? def.in;
    if (inner === undefined) break;
    def = inner.def as unknown as SchemaDef;
  }
  return def.type === "object";
}
