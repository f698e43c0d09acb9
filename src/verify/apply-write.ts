/**
 * Writes of write patterns applied to the in-memory dataset, as Cosmos DB would apply them to the
 * entity records; the oracle then answers reads from the changed dataset. Pure.
 */
import { CosmosModelerError } from "../common/errors.js";
import type { Dataset, EntityRecord } from "../synthetic/generate-records.js";
import { sameRecord } from "../synthetic/record-order.js";
import type { Workload, WritePattern } from "../workload/types.js";
import { entityOf, recordKey, recordsOf } from "./oracle.js";

/**
 * The dataset after one write of a write pattern. `record` is the written entity record: the
 * whole record for create, replace, upsert and delete (only its key matters for delete), and for
 * patch at least the key and the changed attributes, merged into the stored record. Derived data
 * (copied usernames, counters) is not stored: the oracle recomputes it from the records, so reads
 * after writes see current values. Like Cosmos DB: create of an existing key throws
 * `verify.conflict`, replace/patch/delete of a missing key throws `verify.notFound`; deletes do
 * not cascade to children.
 */
export function applyWriteToDataset(
  workload: Workload,
  dataset: Dataset,
  pattern: WritePattern,
  record: EntityRecord,
): Dataset {
  const entity = entityOf(workload, pattern.entity);
  const records = recordsOf(dataset, entity.name);
  const key = recordKey(workload, entity.name, record);
  const at = records.findIndex((candidate) => sameRecord(entity, candidate, record));
  const missing = (): never => {
    throw new CosmosModelerError(
      "verify.notFound",
      `${pattern.id} ${pattern.operation}: ${entity.name} ${JSON.stringify(key)} does not exist`,
      { context: { pattern: pattern.id, key } },
    );
  };
  let next: readonly EntityRecord[];
  switch (pattern.operation) {
    case "create":
      if (at >= 0) {
        throw new CosmosModelerError(
          "verify.conflict",
          `${pattern.id} create: ${entity.name} ${JSON.stringify(key)} already exists`,
          { context: { pattern: pattern.id, key } },
        );
      }
      next = [...records, record];
      break;
    case "replace":
      if (at < 0) return missing();
      next = records.map((candidate, index) => (index === at ? record : candidate));
      break;
    case "upsert":
      next =
        at < 0
          ? [...records, record]
          : records.map((candidate, index) => (index === at ? record : candidate));
      break;
    case "patch":
      if (at < 0) return missing();
      next = records.map((candidate, index) => (index === at ? { ...candidate, ...record } : candidate));
      break;
    case "delete":
      if (at < 0) return missing();
      next = records.filter((_, index) => index !== at);
      break;
    default:
      return pattern.operation satisfies never;
  }
  return { ...dataset, entities: { ...dataset.entities, [entity.name]: next } };
}
