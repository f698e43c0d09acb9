/**
 * Indexing policies: the one the tool derives for a container from the access patterns (only the
 * paths that patterns filter or sort on, composite indexes for ORDER BY on several paths and for
 * equality + ORDER BY, everything else excluded), and which leaf values a policy indexes.
 */
import { BUCKET_RECORDS_PROPERTY } from "../runtime/items.js";
import type { CompositePath, Container, IndexingSpec } from "../model/types.js";
import { templateAttributes } from "../model/templates.js";
import type { PlanningContext } from "./context.js";
import type { ItemShape } from "./item-shape.js";
import { manyToManyLink } from "./many-to-many.js";
import { recencyAttribute } from "../workload/recency.js";

/** An indexing policy with explicit paths (`automatic` is `included: ["/*"]`). */
export interface ExplicitIndexingPolicy {
  readonly included: readonly string[];
  readonly excluded: readonly string[];
  readonly composite: readonly (readonly CompositePath[])[];
}

export const AUTOMATIC_POLICY: ExplicitIndexingPolicy = { included: ["/*"], excluded: [], composite: [] };

/** The policy a container runs with: its own, or the derived one when the model leaves it out. */
export function effectiveIndexingPolicy(
  context: PlanningContext,
  container: Container,
): ExplicitIndexingPolicy {
  const spec: IndexingSpec = container.indexing;
  switch (spec.kind) {
    case "automatic":
      return AUTOMATIC_POLICY;
    case "custom":
      return { included: spec.included, excluded: spec.excluded, composite: spec.composite };
    case "derived":
      return deriveIndexingPolicy(context, container);
    default:
      return spec satisfies never;
  }
}

/**
 * Only what the access patterns need: every attribute a read pattern on an entity stored here
 * filters or sorts on, the holders' `via` attributes for copies (propagation queries), child
 * `via` attributes for counts/latest/all follow-up queries, `keepLatest.by` (in the set and in the
 * item type it is refilled from, with the set's key attributes), the tombstone property
 * of soft-deleted item types, the source key in a many-to-many copy's array, and `/type/?`.
 */
export function deriveIndexingPolicy(
  context: PlanningContext,
  container: Container,
  options: { readonly reads?: boolean } = {},
): ExplicitIndexingPolicy {
  const paths = new Set<string>(["/type/?"]);
  const composites = new Map<string, CompositePath[]>();
  const newest = new Set<string>();
  const entities = new Set(container.items.map((item) => item.entity));
  // Each entity's reads come in workload order; one entity (the usual case) needs no merging.
  // Without them (`reads: false`): what the container's own upkeep needs (usedIndexingPolicy).
  const reads =
    options.reads === false
      ? []
      : entities.size === 1
        ? context.readsTouching([...entities][0] ?? "")
        : [...new Set([...entities].flatMap((entity) => context.readsTouching(entity)))].sort(
            (a, b) => context.patternIndex(a.id) - context.patternIndex(b.id),
          );
  for (const pattern of reads) {
    if (pattern.type !== "read") continue;
    if (entities.has(pattern.entity)) {
      for (const predicate of pattern.where) paths.add(`/${predicate.attribute}/?`);
      // A bucket item type is filtered on its records too (EXISTS over `records`).
      for (const item of container.items) {
        if (item.bucket === undefined || item.entity !== pattern.entity) continue;
        const onItem = [item.id, ...item.partitionKey].flatMap((template) => templateAttributes(template));
        const window = item.bucket.kind === "window" ? item.bucket.by : undefined;
        for (const predicate of pattern.where) {
          // The item's own attributes, and a range on the window start, are tested on the item.
          const itemLevel =
            onItem.includes(predicate.attribute) ||
            (predicate.op === "range" && predicate.attribute === window);
          if (!itemLevel) paths.add(`/${BUCKET_RECORDS_PROPERTY}/[]/${predicate.attribute}/?`);
        }
      }
      for (const sort of pattern.orderBy) paths.add(`/${sort.attribute}/?`);
      const equalities = pattern.where.filter((p) => p.op === "eq").map((p) => p.attribute);
      const sorted = pattern.orderBy.map((s) => s.attribute);
      if (
        pattern.orderBy.length > 1 ||
        (pattern.orderBy.length === 1 && equalities.some((e) => !sorted.includes(e)))
      ) {
        const composite: CompositePath[] = [
          ...equalities
            .filter((e) => !sorted.includes(e))
            .map((e) => ({ path: `/${e}`, order: "ascending" as const })),
          ...pattern.orderBy.map((s) => ({
            path: `/${s.attribute}`,
            order: s.direction === "asc" ? ("ascending" as const) : ("descending" as const),
          })),
        ];
        composites.set(composite.map((c) => `${c.path} ${c.order}`).join(","), composite);
      }
    }
    for (const entry of pattern.with) {
      if (entry.kind === "attribute" || !entities.has(entry.entity)) continue;
      const relationship = context.relationship(pattern.entity, entry.entity);
      for (const via of relationship?.via ?? []) paths.add(`/${via}/?`);
      if (entry.kind === "latest") newest.add(entry.entity);
    }
  }
  // The newest children (`latest(X, N)` follow-ups, refills of `latest: N` embeds) are read
  // ORDER BY X's time DESC, X's key DESC (each attribute of a composite key): a composite index
  // in that order.
  for (const entity of entities) {
    const embedded = context
      .embeddersOf(entity)
      .some(({ item }) => item.embeds.some((e) => e.entity === entity && e.latest !== undefined));
    if (embedded) newest.add(entity);
  }
  for (const entity of newest) {
    const child = context.entity(entity);
    const order = [recencyAttribute(child), ...child.key].filter((name) => name !== undefined);
    for (const name of order) paths.add(`/${name}/?`);
    if (order.length > 1) {
      const composite = order.map((name) => ({ path: `/${name}`, order: "descending" as const }));
      composites.set(composite.map((c) => `${c.path} ${c.order}`).join(","), composite);
    }
  }
  for (const item of container.items) {
    if (item.keepLatest !== undefined) paths.add(`/${item.keepLatest.by}/?`);
    // A bounded set kept from this item type is refilled from it: the newest of the set's key,
    // ORDER BY the set's order attribute (src/planner/plan-bounded-sets.ts, refillQuery).
    for (const { item: copy } of context.copiesOf(container.name, item.type)) {
      if (copy.keepLatest === undefined) continue;
      paths.add(`/${copy.keepLatest.by}/?`);
      for (const name of copy.partitionKey.flatMap((template) => templateAttributes(template)))
        paths.add(`/${name}/?`);
    }
    // Reads of a soft-deleted item type leave tombstones out: NOT IS_DEFINED on the property.
    const tombstone = context.tombstone(container.name, item.type);
    if (tombstone !== undefined) paths.add(`/${tombstone}/?`);
    for (const copy of item.copies) {
      // A change of a many-to-many source finds its holders by the key in their array.
      if (manyToManyLink(context, item.entity, copy.from.entity) !== undefined)
        for (const key of context.entity(copy.from.entity).key) paths.add(`/${copy.as}/[]/${key}/?`);
      const relationship = context.relationship(copy.from.entity, item.entity);
      for (const via of relationship?.via ?? []) paths.add(`/${via}/?`);
    }
  }
  return { included: [...paths].sort(), excluded: ["/*"], composite: [...composites.values()] };
}

/**
 * `c.name` or `c["name"]` in what a query filters, joins or sorts on: the text after its first
 * `FROM` (a projected attribute needs no index; the index serves WHERE, JOIN and ORDER BY).
 * @example referencedIn("SELECT c.title FROM c WHERE c.userId = @u", "title") // false
 */
export function referencedIn(sql: string, name: string): boolean {
  const from = sql.search(/\bFROM\b/i);
  const clauses = from < 0 ? sql : sql.slice(from);
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`\\bc\\.${escaped}\\b|\\bc\\[\\s*["']${escaped}["']\\s*\\]`).test(clauses);
}

/**
 * The derived policy of a container cut to the queries it runs (issue 26: "indexes follow the
 * container's queries, not the entity"): the paths and composites the access patterns of its
 * entities ask for are kept only when a query of the model's plans on this container names them
 * (`queries`: their SQL); what the container's own upkeep needs (`structural`: the policy
 * derived without the reads: sets, tombstones, copies' holders, newest children) is kept
 * whole. A read served by another container's copy no longer costs every write here its index.
 */
export function usedIndexingPolicy(
  derived: ExplicitIndexingPolicy,
  structural: ExplicitIndexingPolicy,
  queries: readonly string[],
): ExplicitIndexingPolicy {
  const kept = new Set(structural.included);
  // Only top-level paths are weighed; nested ones (a bucket's records, a copy's array) stay.
  const named = (path: string): boolean => {
    const name = /^\/([^/[\]]+)(\/\?)?$/.exec(path)?.[1];
    return name === undefined || queries.some((sql) => referencedIn(sql, name));
  };
  const structuralComposites = new Set(structural.composite.map((c) => JSON.stringify(c)));
  return {
    included: derived.included.filter((path) => kept.has(path) || named(path)),
    excluded: derived.excluded,
    composite: derived.composite.filter(
      (composite) =>
        structuralComposites.has(JSON.stringify(composite)) || composite.every((entry) => named(entry.path)),
    ),
  };
}

/** Number of path segments before the wildcard: how specific an index path is. */
function specificity(pattern: string): number {
  return pattern.split("/").filter((s) => s !== "" && s !== "*" && s !== "?").length;
}

function matches(pattern: string, leaf: string): boolean {
  if (pattern.endsWith("/?")) return pattern.slice(0, -2) === leaf;
  if (pattern.endsWith("/*")) {
    const prefix = pattern.slice(0, -1); // keeps the trailing slash
    return prefix === "/" || `${leaf}/`.startsWith(prefix);
  }
  return pattern === leaf;
}

/**
 * Whether a leaf path (e.g. `/userId`, `/readings/[]/value`) is indexed: the most specific
 * matching path wins, and an excluded path wins a tie (Cosmos DB's precedence rule:
 * https://learn.microsoft.com/azure/cosmos-db/index-policy, checked 2026-11-22).
 */
export function isPathIndexed(policy: ExplicitIndexingPolicy, leaf: string): boolean {
  let best = -1;
  let indexed = false;
  for (const pattern of policy.included) {
    if (matches(pattern, leaf) && specificity(pattern) > best) {
      best = specificity(pattern);
      indexed = true;
    }
  }
  for (const pattern of policy.excluded) {
    if (matches(pattern, leaf) && specificity(pattern) >= best) {
      best = specificity(pattern);
      indexed = false;
    }
  }
  return indexed;
}

/** Indexed values written with one item: indexed leaves, plus one entry per composite index. */
export function countIndexedValues(policy: ExplicitIndexingPolicy, shape: ItemShape): number {
  let count = 0;
  for (const leaf of shape.leaves) {
    const probe = leaf.path.endsWith("/*") ? leaf.path.slice(0, -2) : leaf.path;
    if (isPathIndexed(policy, probe)) count += leaf.count;
  }
  const leafPaths = new Set(shape.leaves.map((leaf) => leaf.path));
  for (const composite of policy.composite) {
    if (composite.every((c) => leafPaths.has(c.path))) count += 1;
  }
  return Math.round(count);
}

/** Indexed values among the attributes a write changes (for replace and patch charges). */
export function countChangedIndexedValues(
  policy: ExplicitIndexingPolicy,
  shape: ItemShape,
  changed: readonly string[] | undefined,
): number {
  if (changed === undefined) return countIndexedValues(policy, shape);
  return changed.filter((name) => isPathIndexed(policy, `/${name}`)).length;
}
