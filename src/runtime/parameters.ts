/**
 * Values of the query parameters of maintenance and write tasks: a constant, an attribute of the
 * record or changed item at hand, a key template rendered from it, or the limit.
 */
import type { QueryParameterValue } from "./requests.js";
import type { ParameterSource, TaskQueryParameter } from "./tasks.js";
import { renderKeyValue, type TemplateValues } from "./templates.js";

/** The value of one parameter source for the values at hand. */
export function parameterValue(source: ParameterSource, values: TemplateValues, limit: number): unknown {
  switch (source.kind) {
    case "literal":
      return source.value;
    case "fromResult":
      return values.attributes[source.attribute];
    case "template":
      return renderKeyValue(source.template, values);
    case "limit":
      return limit;
    default:
      return source satisfies never;
  }
}

/** Every parameter of a task's query bound to the values at hand. */
export function bindParameters(
  parameters: readonly TaskQueryParameter[],
  values: TemplateValues,
  limit: number,
): QueryParameterValue[] {
  return parameters.map((parameter) => ({
    name: parameter.name,
    value: parameterValue(parameter.source, values, limit),
  }));
}
