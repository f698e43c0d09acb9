/**
 * A record's identity in the runtime: the values of its entity's key attributes (one for a
 * single key, several for a composite key such as `[filmId, actorId]`). Two records are the same
 * record exactly when every key value is equal.
 */

/**
 * The record's key values, by attribute (a missing one left out).
 * @example keyFields(["filmId", "actorId"], { filmId: "f1", actorId: "a2", role: "x" }) // { filmId: "f1", actorId: "a2" }
 */
export function keyFields(
  key: readonly string[],
  record: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of key) if (record[name] !== undefined) out[name] = record[name];
  return out;
}

/**
 * One text for the record's identity: equal for two records exactly when every key value is.
 * @example keyIdentity(["filmId", "actorId"], { filmId: "f1", actorId: "a2" }) // '["f1","a2"]'
 */
export function keyIdentity(key: readonly string[], record: Readonly<Record<string, unknown>>): string {
  return JSON.stringify(key.map((name) => record[name] ?? null));
}

/** True when both records have the same value of every key attribute. */
export function sameKey(
  key: readonly string[],
  a: Readonly<Record<string, unknown>>,
  b: Readonly<Record<string, unknown>>,
): boolean {
  return keyIdentity(key, a) === keyIdentity(key, b);
}
