/**
 * Loads a model file (docs/model-format.md): parse with positions, check the shape with the zod
 * schema, normalize, check the model on its own and, when a workload is given, against it.
 * Every problem is reported at once, with its field path, file, line and a suggestion.
 */
import { createIssueSink, hasErrors, type Result } from "../common/issues.js";
import type { Workload } from "../workload/types.js";
import type { Model } from "./types.js";
import { parseSourceDocument } from "../source/parse-document.js";
import { parseWithSchema, type SchemaCheckOptions } from "../source/schema-issues.js";
import { withSuggestionBudget } from "../source/suggest.js";
import { checkModel } from "./check-model.js";
import { modelFileSchema } from "./model-schema.js";
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
  const shape = parseWithSchema(modelFileSchema, value, [], collector, MODEL_SCHEMA);
  if (shape === undefined) return { ok: false, issues: collector.issues() };
  const model = normalizeModel(shape, collector);
  checkModel(model, collector);
  if (options.workload !== undefined) collectWorkloadIssues(model, options.workload, collector);
  const issues = collector.issues();
  return hasErrors(issues) ? { ok: false, issues } : { ok: true, value: model, issues };
}

/** The codes a model's structural problems are reported under. */
const MODEL_SCHEMA: SchemaCheckOptions = {
  codes: {
    unknownField: "model.unknownField",
    missingField: "model.missingField",
    invalidValue: "model.invalidValue",
  },
  // `indexing` is "automatic" or a policy: the one union of the format.
  unionExpectation: () =>
    'expected "automatic" or a policy { included: [...], excluded: [...], composite: [[...]] }',
};
