/**
 * Which ORDER BY a query may write on a container: Cosmos DB sorts only by an index, and refuses
 * (400) an ORDER BY no index serves. Shared by the reads' own queries (plan-read.ts) and the
 * follow-up queries of `latest(X, N)` (follow-ups.ts), so both are judged by the same rule.
 */
import type { CompositePath } from "../model/types.js";
import type { ReadPattern } from "../workload/types.js";
import type { Placement } from "./context.js";
import type { PlanEnvironment } from "./environment.js";
import { isPathIndexed } from "./indexing.js";
import { partitionKeyAttributes } from "./routing.js";
import type { SortKey } from "../workload/types.js";

/** What decides whether an index serves a query's order: its filters and its ORDER BY. */
export type OrderedQuery = Pick<ReadPattern, "where" | "orderBy">;

/**
 * The ORDER BY the query writes, or undefined when no index serves the pattern's order. With a
 * composite index whose first paths are equality-filtered, those paths lead the ORDER BY (in the
 * index's order and direction): the order is the same (each holds one value), and Cosmos DB uses a
 * composite index for an ORDER BY of several paths only when the ORDER BY names its paths
 * exactly, in its directions or all inverted
 * (https://learn.microsoft.com/azure/cosmos-db/index-policy#queries-with-a-filter-and-order-by,
 * checked 2026-11-28; the embedded endpoint refuses the query otherwise).
 */
export function orderClause(
  env: PlanEnvironment,
  pattern: OrderedQuery,
  placement: Placement,
): readonly SortKey[] | undefined {
  if (pattern.orderBy.length === 0) return pattern.orderBy;
  const policy = env.policy(placement.container);
  const keyAttributes = new Set(partitionKeyAttributes(placement.item));
  const sorted = pattern.orderBy.map((s) => s.attribute);
  const filtered = pattern.where.filter((p) => p.op === "eq").map((p) => p.attribute);
  const required = filtered.filter((e) => !keyAttributes.has(e) && !sorted.includes(e));
  // Every query also filters its item type by equality (`c.type = @type`): a composite index may
  // lead with /type.
  const equal = new Set([...filtered, "type"]);
  if (pattern.orderBy.length === 1 && required.length === 0 && isPathIndexed(policy, `/${sorted[0] ?? ""}`))
    return pattern.orderBy;
  // A composite in the ORDER BY's own directions first: the inverted match is documented, but the
  // embedded endpoint refuses it (ORDER BY c.deviceId DESC, c.timestamp DESC over [asc, asc]).
  const matches = policy.composite.flatMap((composite) => {
    const served = compositeServes(composite, pattern.orderBy, equal, required);
    return served === undefined ? [] : [{ composite, served }];
  });
  const chosen = matches.find((m) => m.served.asWritten) ?? matches[0];
  if (chosen !== undefined) {
    const { composite, served } = chosen;
    const prefix = composite.slice(0, composite.length - pattern.orderBy.length).map((c): SortKey => ({
      attribute: c.path.slice(1),
      direction: (c.order === "ascending") === served.asWritten ? "asc" : "desc",
    }));
    return [...prefix, ...pattern.orderBy];
  }
  return undefined;
}

/**
 * Whether a composite index serves `ORDER BY orderBy` of a query with equality filters on
 * `equal`, and whether in its own directions (`asWritten`) or all inverted.
 */
function compositeServes(
  composite: readonly CompositePath[],
  orderBy: OrderedQuery["orderBy"],
  equal: ReadonlySet<string>,
  required: readonly string[],
): { readonly asWritten: boolean } | undefined {
  const split = composite.length - orderBy.length;
  if (split < 0) return undefined;
  const prefix = composite.slice(0, split).map((c) => c.path);
  const tail = composite.slice(split);
  if (!prefix.every((path) => equal.has(path.slice(1)))) return undefined;
  if (!required.every((attribute) => prefix.includes(`/${attribute}`))) return undefined;
  const paths = tail.every((c, i) => c.path === `/${orderBy[i]?.attribute ?? ""}`);
  const asWritten = (c: CompositePath, i: number): boolean =>
    (c.order === "ascending") === (orderBy[i]?.direction === "asc");
  if (!paths) return undefined;
  if (tail.every(asWritten)) return { asWritten: true };
  if (tail.every((c, i) => !asWritten(c, i))) return { asWritten: false };
  return undefined;
}
