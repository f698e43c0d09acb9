/**
 * Key templates of item types: `{postId}`, `{postId}-{shard}`, `post-{replica}`,
 * `{deviceId}-{bucket}`, or a literal such as `post`. Text outside braces is literal; `{name}`
 * is an attribute of the entity, except the three reserved names `shard`, `replica` and `bucket`.
 *
 * One implementation: the data-access runtime's (`runtime/templates.ts`, shipped with generated
 * code); here its failures become `CosmosModelerError`s (`model.badTemplate`,
 * `model.missingTemplateValue`).
 */
import { CosmosModelerError } from "../common/errors.js";
import { DataAccessError } from "../runtime/errors.js";
import * as runtime from "../runtime/templates.js";

export type { KeyValue, TemplatePart, TemplateValues } from "../runtime/templates.js";
export { templateProblem } from "../runtime/templates.js";

/**
 * `fn` with the runtime's `DataAccessError`s turned into `CosmosModelerError`s of code
 * `model.<code>` (same message, the original as cause).
 */
export function withModelErrors<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
  return (...args) => {
    try {
      return fn(...args);
    } catch (error) {
      if (!(error instanceof DataAccessError)) throw error;
      throw new CosmosModelerError(`model.${error.code}`, error.message, {
        cause: error,
        context: error.context,
      });
    }
  };
}

/**
 * Splits a template into literal text and placeholders; `model.badTemplate` when malformed.
 * @example parseTemplate("{postId}-{shard}") // [{kind:"attribute",name:"postId"},{kind:"literal",text:"-"},{kind:"shard"}]
 */
export const parseTemplate = withModelErrors(runtime.parseTemplate);

/** The entity attributes a template uses, in order, without duplicates. */
export const templateAttributes = withModelErrors(runtime.templateAttributes);

/** True when the template uses the given placeholder kind (`shard`, `replica` or `bucket`). */
export const templateUses = withModelErrors(runtime.templateUses);

/** True when the template has no placeholder at all (a constant such as `post`). */
export const isLiteralTemplate = withModelErrors(runtime.isLiteralTemplate);

/**
 * Renders a template to a string; a missing or non-scalar value is `model.missingTemplateValue`.
 * @example renderTemplate("post-{replica}", { attributes: {}, replica: 3 }) // "post-3"
 */
export const renderTemplate = withModelErrors(runtime.renderTemplate);

/**
 * Renders a template as a key value: exactly one placeholder keeps the value's type.
 * @example renderKeyValue("{tenantId}", { attributes: { tenantId: 7 } }) // 7
 */
export const renderKeyValue = withModelErrors(runtime.renderKeyValue);
