/**
 * What "newest" means for `latest(X, N)`: the records of X with the latest value of X's first
 * `datetime` attribute, newest first, ties by X's key (the greater key first). A workload without a
 * datetime attribute on X is rejected (`workload.latestWithoutTime`): the dataset order, the write
 * order and the key order are three different meanings of "newest", and only a time in the data
 * is the same for the data-access code, the follow-up query and the verification. Pure.
 */
import type { Entity } from "./types.js";

/**
 * The attribute that orders an entity's records by recency: its first datetime attribute
 * (undefined when it has none; then `latest(X, N)` is not a valid `with` entry).
 *
 * @example recencyAttribute(order) // "createdAt"
 */
export function recencyAttribute(entity: Entity): string | undefined {
  return entity.attributes.find((attribute) => attribute.type === "datetime")?.name;
}
