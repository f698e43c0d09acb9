/**
 * A patch that re-parents an item holding copies of its parent's attributes (it changes the
 * relationship's `via`, e.g. an order patched to another account): the copies must then be the
 * new parent's values. A patch writes only the attributes it changes, so the generated code reads
 * the new parent by its key and sets the copies in the same patch (src/runtime/writes.ts); a
 * replace or an upsert rewrites the whole item and reads the parent for its copies anyway.
 * Planned here: one point read of the new parent per re-parented record, the share of requests
 * that change the `via` (every request when the pattern lists no `changes`). Pure.
 */
import { keyedPlacement } from "../model/keyed-placement.js";
import type { WritePattern } from "../workload/types.js";
import { anyChangeProbability, changeKind } from "./changes.js";
import type { Placement } from "./context.js";
import type { PlanEnvironment } from "./environment.js";
import type { PointReadStep, WriteFinding } from "./types.js";

/**
 * The point reads of the parents whose attributes `placement` copies, for a write of `pattern`:
 * every created or rewritten record reads each parent (the generated code fills the copies from
 * it), a re-parenting patch reads the new parent; and a `copySourceUnreadable` finding for a
 * parent no item type stores under its key alone.
 */
export function copyRefreshReads(
  env: PlanEnvironment,
  pattern: WritePattern,
  placement: Placement,
): { readonly reads: PointReadStep[]; readonly findings: WriteFinding[] } {
  const kind = changeKind(pattern);
  const reads: PointReadStep[] = [];
  const findings: WriteFinding[] = [];
  if (kind === "delete" || placement.item.source !== undefined) return { reads, findings };
  // Copies across a many-to-many relationship have no parent to read (no `relationship`).
  for (const parent of new Set(placement.item.copies.map((copy) => copy.from.entity))) {
    const via = env.context.relationship(parent, placement.item.entity)?.via;
    if (via === undefined) continue;
    // Without a `changes` list the code cannot tell whether a patch changes the via (it has no
    // previous value): it reads the parent on every patch of a record that carries the via.
    const share =
      pattern.operation !== "patch"
        ? 1
        : pattern.changes === undefined
          ? 1
          : anyChangeProbability(env, pattern, via);
    if (share === 0) continue;
    const source = keyedPlacement(env.context.model, env.context.entity(parent));
    if (source === undefined) {
      for (const copy of placement.item.copies.filter((c) => c.from.entity === parent))
        findings.push({
          kind: "copySourceUnreadable",
          container: placement.container.name,
          itemType: placement.item.type,
          property: copy.as,
          entity: parent,
          attribute: copy.from.attribute,
        });
      continue;
    }
    reads.push({
      kind: "pointRead",
      container: source.container.name,
      itemType: source.item.type,
      id: source.item.id,
      partitionKey: source.item.partitionKey,
      ...env.charge({ op: "read", itemBytes: env.shape(source).avgBytes }),
      times: share * pattern.batch,
      note:
        pattern.operation === "patch"
          ? `read the new ${parent} of a re-parented ${placement.item.type} (its ${via.join(", ")} changes) for the copies of its attributes, set in the same patch`
          : `read the ${parent} of each written ${placement.item.type} for the copies of its attributes`,
    });
  }
  return { reads, findings };
}
