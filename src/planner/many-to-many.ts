/**
 * Copies across a many-to-many relationship (`Product` <-> `Tag`, no `via`): the holder keeps an
 * array with one element per linked record, `{ <source key>: value, <attribute>: value }`
 * (`tagLabels: [{ tagId: "t1", label: "red" }]`). The array is how a change of the source finds
 * its holders: the change feed of the source queries the holders whose array contains the
 * source's key (`ARRAY_CONTAINS(c.tagLabels, { "tagId": @tagId }, true)`, the array path is
 * indexed; a fan-out, the holders live in their own partitions) and patches the element of each.
 * A new holder is written with the elements of the records it links to (the application names
 * them, as it names a post's author).
 *
 * Why an array in the holder and not link items beside it: a rename touches the same number of
 * items either way (one per link), and the array answers the read in the item it already reads,
 * where link items would add a query per read. The array only loses when it does not fit the
 * item, so the design offers it only while the holder's largest item stays under
 * `MANY_TO_MANY_COPY_MAX_BYTES`.
 */
import type { Copy } from "../model/types.js";
import { propertyRef } from "../runtime/sql.js";
import type { Relationship } from "../workload/types.js";
import type { PlanningContext } from "./context.js";
import type { QueryParameter } from "./types.js";

/**
 * Largest array of copied elements the design puts in one item (bytes): a tenth of the 2 MB
 * item limit (`src/cosmos/limits.ts`), so the holder keeps room for its own record and a write
 * of it stays a small-item write. A design choice, not a service limit.
 */
export const MANY_TO_MANY_COPY_MAX_BYTES = 200 * 1024;

/** How a holder entity and a source entity are linked many-to-many, seen from the holder. */
export interface ManyToManyLink {
  readonly relationship: Relationship;
  /** Source records linked to one holder: average and, when the workload bounds it, maximum. */
  readonly linksPerHolder: { readonly avg: number; readonly max?: number };
  /** Holders linked to one source record on average: the fan-out of a change of the source. */
  readonly holdersPerSource: number;
}

/** The many-to-many relationship between `holder` and `source` (either direction), if any. */
export function manyToManyLink(
  context: PlanningContext,
  holder: string,
  source: string,
): ManyToManyLink | undefined {
  const relationship = context.workload.relationships.find(
    (r) =>
      r.kind === "many-to-many" &&
      ((r.parent === holder && r.child === source) || (r.parent === source && r.child === holder)),
  );
  if (relationship === undefined || holder === source) return undefined;
  const parents = Math.max(1, context.countAtHorizon(relationship.parent));
  const children = Math.max(1, context.countAtHorizon(relationship.child));
  // `avg` counts children per parent; the same links seen from a child: avg x parents / children.
  const perChild = (relationship.avg * parents) / children;
  return relationship.parent === holder
    ? {
        relationship,
        linksPerHolder: {
          avg: relationship.avg,
          ...(relationship.max === undefined ? {} : { max: relationship.max }),
        },
        holdersPerSource: perChild,
      }
    : { relationship, linksPerHolder: { avg: perChild }, holdersPerSource: relationship.avg };
}

/**
 * The query a change of the source runs to find the holders of its element: a fan-out over the
 * holder's container, returning each holder's id, partition key properties and array.
 */
export function holdersQuery(
  holderType: string,
  keyProperties: readonly string[],
  copy: Copy,
  sourceKey: readonly string[],
): { readonly sql: string; readonly parameters: readonly QueryParameter[] } {
  const used = new Set<string>(["@type"]);
  const parameters = sourceKey.map((attribute) => {
    const base = `@${attribute.replace(/[^A-Za-z0-9_]/g, "_")}`;
    let name = base === "@type" || base === "@" ? `${base}Key` : base;
    for (let n = 2; used.has(name); n++) name = `${base}${n}`;
    used.add(name);
    return { attribute, name };
  });
  // The element of the record: every key attribute equal (a partial match of the element).
  const element = parameters.map(({ attribute, name }) => `${JSON.stringify(attribute)}: ${name}`).join(", ");
  // The ETag makes the patch of each holder's element conditional (runtime/linked-copies.ts).
  const projected = [...new Set(["id", ...keyProperties, copy.as, "_etag"])].map((name) => propertyRef(name));
  return {
    sql: `SELECT ${projected.join(", ")} FROM c WHERE c.type = @type AND ARRAY_CONTAINS(${propertyRef(copy.as)}, {${element}}, true)`,
    parameters: [
      { name: "@type", source: { kind: "literal", value: holderType } },
      ...parameters.map(({ attribute, name }) => ({
        name,
        source: { kind: "fromResult" as const, attribute },
      })),
    ],
  };
}
