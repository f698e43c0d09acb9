/**
 * Loads a model file (docs/model-format.md): parse with positions, check the shape with the zod
 * schema, normalize, check the model on its own and, when a workload is given, against it.
 * Every problem is reported at once, with its field path, file, line and a suggestion.
 */
import type { z } from "zod";
import { createIssueSink, hasErrors, type IssuePath, type IssueSink, type Result } from "../common/issues.js";
import type { Workload } from "../workload/types.js";
import { formatInteger } from "../common/format-number.js";
import { LIMIT_SOURCES, MAX_EXACT_NUMBER } from "../cosmos/limits.js";
import type { Model } from "./types.js";
import { parseSourceDocument } from "../source/parse-document.js";
import { didYouMean, withSuggestionBudget } from "../source/suggest.js";
import { checkModel } from "./check-model.js";
import { describeValue } from "./model-issues.js";
import { fieldsAt, modelFileSchema } from "./model-schema.js";
import { normalizeModel } from "./normalize-model.js";
import { collectWorkloadIssues } from "./validate-model.js";

export interface LoadModelOptions {
  /** File name used in issues. */
  readonly file?: string;
  /** When given, the model is also checked against this workload. */
  readonly workload?: Workload;
}

/**
 * Reads a model from YAML or JSON text.
 * @example loadModel(text, { file: "model.yaml", workload }) // { ok: true, value: Model, issues: [warnings] }
 */
export function loadModel(text: string, options: LoadModelOptions = {}): Result<Model> {
  // One "did you mean" budget for the whole document (source/suggest.ts).
  return withSuggestionBudget(() => loadModelText(text, options));
}

function loadModelText(text: string, options: LoadModelOptions): Result<Model> {
  const parsed = parseSourceDocument(text, options.file);
  if (!parsed.ok) return { ok: false, issues: parsed.issues };
  const { value, lineOf } = parsed.document;
  const collector = createIssueSink({
    lineOf,
    ...(options.file === undefined ? {} : { file: options.file }),
  });
  const shape = modelFileSchema.safeParse(value);
  if (!shape.success) {
    reportSchemaIssues(shape.error.issues, value, [], collector);
    return { ok: false, issues: collector.issues() };
  }
  const model = normalizeModel(shape.data, collector);
  checkModel(model, collector);
  if (options.workload !== undefined) collectWorkloadIssues(model, options.workload, collector);
  const issues = collector.issues();
  return hasErrors(issues) ? { ok: false, issues } : { ok: true, value: model, issues };
}

type ZodIssue = z.core.$ZodIssue;

function reportSchemaIssues(
  issues: readonly ZodIssue[],
  root: unknown,
  prefix: IssuePath,
  collector: IssueSink,
): void {
  for (const issue of issues) {
    const path: IssuePath = [
      ...prefix,
      ...issue.path.map((segment) => (typeof segment === "number" ? segment : String(segment))),
    ];
    const value = valueAt(root, path);
    switch (issue.code) {
      case "unrecognized_keys":
        for (const key of issue.keys) {
          const fields = fieldsAt(path);
          collector.error(
            "model.unknownField",
            [...path, key],
            // The path ends with the field's name: not again in the message.
            "unknown field",
            didYouMean(key, fields),
          );
        }
        break;
      case "invalid_union":
        reportUnion(issue, value, root, path, collector);
        break;
      case "invalid_type":
        collector.error(
          value === undefined ? "model.missingField" : "model.invalidValue",
          path,
          value === undefined
            ? `required field missing: expected ${typeName(issue.expected)}`
            : `expected ${typeName(issue.expected)}, got ${describeValue(value)}`,
        );
        break;
      case "invalid_value":
        collector.error(
          value === undefined ? "model.missingField" : "model.invalidValue",
          path,
          `expected ${issue.values.map((allowed) => JSON.stringify(allowed)).join(" or ")}, got ${describeValue(value)}`,
          typeof value === "string" ? didYouMean(value, issue.values.map(String)) : undefined,
        );
        break;
      case "too_small":
        collector.error(
          "model.invalidValue",
          path,
          `expected ${bound(issue.origin, "at least", issue.minimum, issue.inclusive)}, got ${describeSize(value)}`,
        );
        break;
      case "too_big":
        collector.error(
          "model.invalidValue",
          path,
          issue.origin === "number" && issue.maximum === MAX_EXACT_NUMBER
            ? `expected a number at most ${formatInteger(MAX_EXACT_NUMBER)} (2^53 - 1, the largest whole number Cosmos DB holds exactly: its numbers are IEEE 754 doubles, ${LIMIT_SOURCES.queryConstants}), got ${describeSize(value)}`
            : `expected ${bound(issue.origin, "at most", issue.maximum, issue.inclusive)}, got ${describeSize(value)}`,
        );
        break;
      default:
        collector.error("model.invalidValue", path, `${issue.message}, got ${describeValue(value)}`);
    }
  }
}

/** `indexing` is "automatic" or a policy: report against the branch the value was meant for. */
function reportUnion(
  issue: ZodIssue & { code: "invalid_union" },
  value: unknown,
  root: unknown,
  path: IssuePath,
  collector: IssueSink,
): void {
  const objectBranch = issue.errors.find(
    (branch) => !branch.some((nested) => nested.code === "invalid_type" && nested.path.length === 0),
  );
  if (typeof value === "object" && value !== null && !Array.isArray(value) && objectBranch !== undefined) {
    reportSchemaIssues(objectBranch, root, path, collector);
    return;
  }
  collector.error(
    "model.invalidValue",
    path,
    `expected "automatic" or a policy { included: [...], excluded: [...], composite: [[...]] }, got ${describeValue(value)}`,
    typeof value === "string" ? didYouMean(value, ["automatic"]) : undefined,
  );
}

function typeName(expected: string): string {
  switch (expected) {
    case "int":
      return "an integer";
    case "number":
      return "a number";
    case "string":
      return "a string";
    case "array":
      return "a list";
    case "object":
      return "an object (a map of fields)";
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

function describeSize(value: unknown): string {
  if (Array.isArray(value)) return `${value.length} entr${value.length === 1 ? "y" : "ies"}`;
  return describeValue(value);
}

function valueAt(root: unknown, path: IssuePath): unknown {
  let value = root;
  for (const segment of path) {
    if (typeof value !== "object" || value === null) return undefined;
    value = (value as Record<string | number, unknown>)[segment];
  }
  return value;
}
