/**
 * A short rendering of a value for the model loader's messages.
 */
/** A short rendering of a value for messages: `"abc"`, `3`, `a list`, `an object`. */
export function describeValue(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "an object";
  if (typeof value === "string")
    return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
  return String(value);
}
