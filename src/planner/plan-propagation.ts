/**
 * Propagation of a changed attribute to the items holding a copy of it (`copies`): a query for
 * the holders by the relationship's `via` (across a many-to-many relationship: by the holder's
 * array of copied elements, `many-to-many.ts`) and a patch of each; and the copies no
 * relationship can keep, as findings.
 *
 * A delete of the source is propagated too: a linked record's element leaves the holders'
 * arrays, and a deleted parent's children (one-to-many or one-to-one with `via`) get their copy
 * set to null. Deletes never cascade (the workload's `owned` says the application deletes the
 * children, not that the database does), so the children stay until then, and the oracle reads
 * the attribute of a missing parent as null: a copy that kept the deleted parent's value would be
 * an answer no current data gives. The parent's item type is then a delete carrier
 * (`parentCopy` in `src/model/deletes.ts`), so the change feed carries the delete.
 */
import { keyAttributes } from "../workload/keys.js";
import type { Copy } from "../model/types.js";
import type { WritePattern } from "../workload/types.js";
import { changeKind, changeProbability } from "./changes.js";
import type { Placement } from "./context.js";
import type { PlanEnvironment } from "./environment.js";
import { keyConditions } from "./key-conditions.js";
import { isPathIndexed } from "./indexing.js";
import { manyToManyCopyBytes } from "./item-shape.js";
import { holdersQuery, manyToManyLink, type ManyToManyLink } from "./many-to-many.js";
import { replayCopies } from "./plan-replay.js";
import { feedStep, writeStep } from "./plan-steps.js";
import { keyProperty, routeRequest } from "./routing.js";
import { buildQuery } from "./sql.js";
import type { ChangeFeedStep, QueryStep, WriteFinding } from "./types.js";

/** Propagation of changed attributes to the items that hold copies of them (`copies`). */
export function planPropagations(
  env: PlanEnvironment,
  pattern: WritePattern,
  feedSource: Placement | undefined,
): { async: ChangeFeedStep[]; notes: string[]; findings: WriteFinding[] } {
  const { context } = env;
  const async: ChangeFeedStep[] = [];
  const notes: string[] = [];
  const findings: WriteFinding[] = [];
  for (const { container, item } of context.copyHoldersOf(pattern.entity)) {
    for (const copy of item.copies) {
      if (copy.from.entity !== pattern.entity) continue;
      const holder: Placement = { container, item };
      const link = manyToManyLink(context, item.entity, pattern.entity);
      // A deleted record's element leaves every linked holder's array; a deleted parent's
      // children stay (deletes never cascade) and their copy becomes null. The parent's delete
      // is never the old address of a move: a copy's source is addressed by its key alone
      // (rules-access.ts `addressableByKey`; the create of a holder reads it so), which no
      // write changes.
      const removal = changeKind(pattern) === "delete";
      const probability = removal ? 1 : changeProbability(env, pattern, copy.from.attribute);
      if (probability === 0) continue;
      if (link !== undefined) {
        const linked = { copy, link, removal };
        const patched = probability * pattern.batch * link.holdersPerSource;
        async.push(
          manyToManyPropagation(env, pattern, feedSource ?? holder, holder, linked, probability),
          // Copies of the holder (`source:`) replay each patched holder.
          ...replayCopies(env, holder, "update", patched),
        );
        continue;
      }
      const relationship = context.relationship(pattern.entity, item.entity);
      // The updates of such a copy already say it cannot be kept.
      if (relationship?.via === undefined && removal) continue;
      if (relationship?.via === undefined) {
        notes.push(
          `${item.type}.${copy.as}: no relationship from ${pattern.entity} to ${item.entity} to find the holders`,
        );
        findings.push(copyNotMaintainable(holder, copy));
        continue;
      }
      const holders = relationship.avg;
      const via = relationship.via;
      const sourceKey = keyAttributes(context.entity(pattern.entity));
      const routing = routeRequest(item, new Set(via));
      const partitions =
        routing.scope === "fanOut"
          ? env.partitions(container.name)
          : routing.scope === "shards"
            ? Math.min(routing.shardCount, env.partitions(container.name))
            : 1;
      const query = buildQuery({
        keys: keyConditions(
          holder,
          routing,
          "result",
          new Set(via),
          Object.fromEntries(via.map((attribute, index) => [attribute, sourceKey[index] ?? attribute])),
        ),
        predicates: via.map((attribute) => ({ attribute, op: "eq" as const })),
        valuesFrom: "result",
        resultNames: Object.fromEntries(
          via.map((attribute, index) => [attribute, sourceKey[index] ?? attribute]),
        ),
        orderBy: [],
        projection: ["id", ...container.partitionKey.map(keyProperty).filter((name) => name !== "id")],
      });
      const find: QueryStep = {
        kind: "query",
        container: container.name,
        itemType: item.type,
        sql: query.sql,
        parameters: query.parameters,
        scope: routing.scope,
        partitions,
        returned: holders,
        orderServedByIndex: true,
        ...env.charge({ op: "query", returned: holders, returnedBytes: holders * 80, partitions }),
        times: probability * pattern.batch,
        note: `find the ${item.type} items holding ${copy.as} (${holders} per ${pattern.entity} on average)`,
      };
      const update = writeStep(
        env,
        holder,
        "patch",
        probability * pattern.batch * holders,
        removal ? `set ${copy.as} to null on each holder` : `set ${copy.as} on each holder`,
        [copy.as],
        { sets: [copy.as] },
      );
      async.push(
        feedStep(
          "propagate",
          feedSource ?? holder,
          holder,
          [find, update],
          removal
            ? `a deleted ${pattern.entity} leaves its ${item.type} items (${relationship.owned ? "owned: the application deletes them" : "not owned"}; deletes never cascade) with ${copy.as} null, what the attribute of a missing ${pattern.entity} reads as`
            : `a change of ${pattern.entity}.${copy.from.attribute} (${probability * 100}% of ${pattern.id} requests) is propagated to ${item.type}.${copy.as}`,
        ),
        ...replayCopies(env, holder, "update", probability * pattern.batch * holders),
      );
    }
  }
  return { async, notes, findings };
}

/**
 * A change of the source of a many-to-many copy (`many-to-many.ts`): a fan-out query for the
 * holders whose array has the source's element, and a patch of that element in each. The
 * holders live in their own partitions (one per holder in general), so the query visits every
 * physical partition of the holder's container.
 */
function manyToManyPropagation(
  env: PlanEnvironment,
  pattern: WritePattern,
  feedSource: Placement,
  holder: Placement,
  linked: { readonly copy: Copy; readonly link: ManyToManyLink; readonly removal: boolean },
  probability: number,
): ChangeFeedStep {
  const { container, item } = holder;
  const { copy, link, removal } = linked;
  const sourceKey = keyAttributes(env.context.entity(pattern.entity));
  const holders = link.holdersPerSource;
  const partitions = env.partitions(container.name);
  const keyProperties = container.partitionKey.map(keyProperty).filter((name) => name !== "id");
  const query = holdersQuery(item.type, keyProperties, copy, sourceKey);
  // Each holder comes back with its id, key properties (80 bytes) and the array (patched by index).
  const arrayBytes = 80 + manyToManyCopyBytes(env.context, copy, link).avg;
  const indexed = sourceKey.every((attribute) =>
    isPathIndexed(env.policy(container), `/${copy.as}/[]/${attribute}`),
  );
  const scanned = Math.max(0, env.itemCount(holder) - holders);
  const find: QueryStep = {
    kind: "query",
    container: container.name,
    itemType: item.type,
    sql: query.sql,
    parameters: query.parameters,
    scope: "fanOut",
    partitions,
    returned: holders,
    orderServedByIndex: true,
    ...env.charge({
      op: "query",
      returned: holders,
      returnedBytes: holders * arrayBytes,
      partitions,
      // Without an index on the array's key the query loads every holder to test it.
      ...(indexed ? {} : { scannedNotReturned: scanned, scannedBytes: scanned * env.shape(holder).avgBytes }),
    }),
    times: probability * pattern.batch,
    note: `find the ${item.type} items whose ${copy.as} holds the ${pattern.entity} (${round(holders)} per ${pattern.entity} on average, many-to-many: a fan-out over ${partitions} partitions${indexed ? "" : `; /${copy.as}/[]/${sourceKey.join(", ")} is not indexed, so every ${item.type} is loaded`})`,
  };
  const update = writeStep(
    env,
    holder,
    "patch",
    probability * pattern.batch * holders,
    removal
      ? `remove the ${pattern.entity}'s element from ${copy.as} on each holder (a patch conditional on the holder's ETag)`
      : `set ${copy.from.attribute} in the ${pattern.entity}'s element of ${copy.as} on each holder (a patch conditional on the holder's ETag)`,
    [copy.as],
    { sets: [copy.as] },
  );
  return feedStep(
    "propagate",
    feedSource,
    holder,
    [find, update],
    removal
      ? `a deleted ${pattern.entity} leaves ${item.type}.${copy.as} of the ${round(holders)} ${item.type} items linked to it (many-to-many)`
      : `a change of ${pattern.entity}.${copy.from.attribute} (${probability * 100}% of ${pattern.id} requests) is propagated to the ${round(holders)} ${item.type} items linked to it (${item.type}.${copy.as}, many-to-many)`,
  );
}

/** A count for a note: whole above 10, else two significant digits. */
function round(value: number): string {
  return value >= 10 ? Math.round(value).toLocaleString("en-US") : String(Number(value.toPrecision(2)));
}

/** The finding of a copy no relationship with `via` keeps up to date (many-to-many). */
function copyNotMaintainable(holder: Placement, copy: Copy): WriteFinding {
  return {
    kind: "copyNotMaintainable",
    container: holder.container.name,
    itemType: holder.item.type,
    property: copy.as,
    entity: copy.from.entity,
    attribute: copy.from.attribute,
  };
}

/**
 * Copies on the items a create writes whose source no relationship with `via` leads to (a
 * many-to-many relationship): the new item cannot find the record to copy from.
 */
export function unreachableCopies(
  env: PlanEnvironment,
  pattern: WritePattern,
  written: readonly Placement[],
): WriteFinding[] {
  if (changeKind(pattern) !== "create") return [];
  return written.flatMap((placement) =>
    placement.item.copies
      .filter(
        (copy) =>
          env.context.relationship(copy.from.entity, placement.item.entity)?.via === undefined &&
          manyToManyLink(env.context, placement.item.entity, copy.from.entity) === undefined,
      )
      .map((copy) => copyNotMaintainable(placement, copy)),
  );
}
