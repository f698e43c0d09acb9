/**
 * An entity's key: the attributes whose values together identify one record (one attribute for
 * `key: postId`, several for a link such as `key: [filmId, actorId]`), and a relationship's via:
 * the child's attributes holding the parent's key, position by position. Every place that needs a
 * record's identity, or the template of an id that identifies it, derives it here instead of
 * reading one attribute. Pure.
 */
import type { Entity, Relationship } from "./types.js";

/** What carries a key: an entity, or anything with its `key` list. */
export type Keyed = Pick<Entity, "key">;

/**
 * The key attributes of `entity`, in the order the file lists them (one for a single key).
 * @example keyAttributes({ key: ["filmId", "actorId"] }) // ["filmId", "actorId"]
 */
export function keyAttributes(entity: Keyed): readonly string[] {
  return entity.key;
}

/**
 * True when `attribute` is one of the key attributes of `entity`.
 * @example isKeyAttribute({ key: ["filmId", "actorId"] }, "actorId") // true
 */
export function isKeyAttribute(entity: Keyed, attribute: string): boolean {
  return entity.key.includes(attribute);
}

/**
 * The key attribute of an entity with a single key; undefined for a composite key (none of its
 * attributes identifies a record alone).
 * @example soleKey({ key: ["postId"] }) // "postId"
 */
export function soleKey(entity: Keyed): string | undefined {
  return entity.key.length === 1 ? entity.key[0] : undefined;
}

/** True when the key has more than one attribute (`key: [filmId, actorId]`). */
export function isCompositeKey(entity: Keyed): boolean {
  return entity.key.length > 1;
}

/**
 * True when `attributes` hold every key attribute of `entity` (so they identify one record).
 * @example coversKey({ key: ["filmId", "actorId"] }, ["filmId"]) // false
 */
export function coversKey(entity: Keyed, attributes: Iterable<string>): boolean {
  const names = new Set(attributes);
  return entity.key.every((attribute) => names.has(attribute));
}

/**
 * The template of an id that identifies a record by its key: the key attributes in order,
 * separated by `-`.
 * @example keyTemplate(["filmId", "actorId"]) // "{filmId}-{actorId}"
 */
export function keyTemplate(key: readonly string[]): string {
  return key.map((attribute) => `{${attribute}}`).join("-");
}

/**
 * The key as the documents and messages name it: the attribute alone, or the list.
 * @example formatKey(["filmId", "actorId"]) // "[filmId, actorId]"
 */
export function formatKey(key: readonly string[]): string {
  return key.length === 1 ? (key[0] ?? "") : `[${key.join(", ")}]`;
}

/**
 * A record's key values, in key order (undefined for a missing one).
 * @example keyValues({ key: ["filmId", "actorId"] }, { filmId: "f1", actorId: "a2" }) // ["f1", "a2"]
 */
export function keyValues(entity: Keyed, record: Readonly<Record<string, unknown>>): readonly unknown[] {
  return entity.key.map((attribute) => record[attribute]);
}

/**
 * One text for a record's identity, equal for two records exactly when every key value is: the
 * JSON of the value for a single key, of the list of values for a composite one.
 * @example recordIdentity({ key: ["filmId", "actorId"] }, { filmId: "f1", actorId: "a2" }) // '["f1","a2"]'
 */
export function recordIdentity(entity: Keyed, record: Readonly<Record<string, unknown>>): string {
  const values = keyValues(entity, record);
  return JSON.stringify(values.length === 1 ? (values[0] ?? null) : values.map((value) => value ?? null));
}

/**
 * The attributes of `relationship`'s child that hold its parent's key, in the parent's key order
 * (empty without a via: a many-to-many relationship).
 * @example viaAttributes({ via: ["filmId"] }) // ["filmId"]
 */
export function viaAttributes(relationship: Pick<Relationship, "via">): readonly string[] {
  return relationship.via ?? [];
}

/**
 * The via attribute of a relationship whose parent has a single key; undefined for none or several.
 * @example soleVia({ via: ["userId"] }) // "userId"
 */
export function soleVia(relationship: Pick<Relationship, "via">): string | undefined {
  return relationship.via?.length === 1 ? relationship.via[0] : undefined;
}

/**
 * Each parent key attribute paired with the child attribute that holds it, position by position.
 * @example keyViaPairs({ key: ["filmId"] }, { via: ["film"] }) // [["filmId", "film"]]
 */
export function keyViaPairs(
  parent: Keyed,
  relationship: Pick<Relationship, "via">,
): readonly (readonly [parentAttribute: string, childAttribute: string])[] {
  const via = viaAttributes(relationship);
  return parent.key.flatMap((attribute, index) => {
    const holder = via[index];
    return holder === undefined ? [] : [[attribute, holder] as const];
  });
}
