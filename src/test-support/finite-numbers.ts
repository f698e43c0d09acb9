/**
 * Test support for issue 14 (extreme inputs): the paths of every number in a result that is not
 * finite (NaN, Infinity), so a test can assert that an evaluation or a design printed none.
 */

/**
 * Paths (`containers[2].rus.peak`) of the non-finite numbers in `value`, depth first.
 * @example nonFiniteNumbers({ a: [1, NaN] }) // ["a[1]"]
 */
export function nonFiniteNumbers(value: unknown, path = "", seen = new Set<object>()): string[] {
  if (typeof value === "number") return Number.isFinite(value) ? [] : [path === "" ? "(root)" : path];
  if (typeof value !== "object" || value === null || seen.has(value)) return [];
  seen.add(value);
  if (Array.isArray(value))
    return value.flatMap((entry, index) => nonFiniteNumbers(entry, `${path}[${index}]`, seen));
  if (value instanceof Map)
    return [...value].flatMap(([key, entry]) => nonFiniteNumbers(entry, `${path}.${String(key)}`, seen));
  return Object.entries(value).flatMap(([key, entry]) =>
    nonFiniteNumbers(entry, path === "" ? key : `${path}.${key}`, seen),
  );
}
