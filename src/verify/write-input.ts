/**
 * The input verify gives a write function: what the generated function's type takes
 * (`src/model/write-inputs.ts`), never more. A patch gets the record's key, address and the
 * attributes its pattern changes, a delete the key and address only, so the run proves the code
 * completes the rest itself; the oracle applies the whole record. Pure.
 */
import { writeInputOf } from "../model/write-inputs.js";
import type { Model } from "../model/types.js";
import type { EntityRecord } from "../synthetic/generate-records.js";
import type { Workload, WritePattern } from "../workload/types.js";

/**
 * The record narrowed to the write function's input.
 * @example writeInputRecord(workload, model, removeReaction, reaction) // { postId: "p1", userId: "u2" }
 */
export function writeInputRecord(
  workload: Workload,
  model: Model,
  pattern: WritePattern,
  record: EntityRecord,
): EntityRecord {
  const input = writeInputOf(workload, model, pattern);
  if (input.kind === "record") return record;
  const entity = workload.entities.find((e) => e.name === pattern.entity);
  // An entity without listed attributes takes any attribute (its input type says so).
  if (entity === undefined || entity.attributes.length === 0) return record;
  const kept = new Set([...input.required, ...input.optional]);
  return Object.fromEntries(Object.entries(record).filter(([name]) => kept.has(name)));
}
