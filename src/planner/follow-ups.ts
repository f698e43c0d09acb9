/**
 * Follow-up reads: the related data a read pattern asks for (`with:`) that the answering item
 * does not hold. Copies, counters and embedded children avoid them; otherwise each returned item
 * costs a lookup of its parent or a query on its children, or one query fetches the parents of
 * all returned items at once, whichever is cheaper.
 */
import type { ReadPattern, SortKey, WithItem } from "../workload/types.js";
import type { Placement } from "./context.js";
import { scaleEstimate, type PlanEnvironment } from "./environment.js";
import { attributePropertyBytes, manyToManyCopyBytes } from "./item-shape.js";
import { MANY_TO_MANY_COPY_MAX_BYTES, manyToManyLink } from "./many-to-many.js";
import { keyConditions, tombstoneFilter } from "./key-conditions.js";
import { readsEveryReplica, routeRequest } from "./routing.js";
import { orderClause } from "./order-clause.js";
import { buildQuery } from "./sql.js";
import { recencyAttribute } from "../workload/recency.js";
import { keyAttributes } from "../workload/keys.js";
import type { PlanStep, PointReadStep, QueryStep } from "./types.js";
import { formatWithItem } from "../workload/with-items.js";
import { bindTemplate, childBinding, counterInBatch, type Binding } from "../model/provenance.js";
import type { Counter } from "../model/types.js";

export interface FollowUps {
  readonly steps: readonly PlanStep[];
  readonly problems: readonly string[];
  readonly notes: readonly string[];
}

/**
 * The counter of `entity`'s children that the answering item holds and `pattern` may read: any,
 * unless the read must reflect every committed write (`maxStalenessSeconds: 0`); then only one
 * kept in the transactional batch of every child write (`counterInBatch`: the item is the
 * entity's own, in the logical partition of each item type of the child, and no write re-parents
 * a child). A counter kept from the change feed lags the writes: the read counts at query time.
 */
export function readableCounter(
  env: PlanEnvironment,
  pattern: ReadPattern,
  placement: Placement,
  entity: string,
): Counter | undefined {
  const counter = placement.item.counts.find((c) => c.of === entity);
  if (counter === undefined || pattern.maxStalenessSeconds !== 0) return counter;
  if (placement.item.source !== undefined) return undefined;
  const children = env.context.placementsOf(entity).filter((p) => p.item.source === undefined);
  return children.length > 0 &&
    children.every((child) => counterInBatch(env.context.workload, placement, child))
    ? counter
    : undefined;
}

/** Placements that hold complete records of `entity` (no projection, truncation, bound or bucket). */
function completePlacements(env: PlanEnvironment, entity: string): Placement[] {
  return env.context
    .placementsOf(entity)
    .filter(
      (p) =>
        p.item.select === undefined &&
        p.item.truncate.length === 0 &&
        p.item.keepLatest === undefined &&
        p.item.bucket === undefined,
    );
}

/**
 * The cheapest request reading one parent by its key, for each returned item: its `attribute`,
 * or the whole item when undefined (a lookup item's complete record).
 */
function perItemParentLookup(
  env: PlanEnvironment,
  parent: string,
  via: readonly string[],
  attribute: string | undefined,
  times: number,
  consistency: ReadPattern["consistency"],
): PlanStep | undefined {
  const parentEntity = env.context.entity(parent);
  const key = keyAttributes(parentEntity);
  // The child's result gives the parent's key under the via, and nothing else of the parent.
  const fromChild: Binding = Object.fromEntries(key.map((name, index) => [name, via[index] ?? name]));
  let best: PlanStep | undefined;
  for (const placement of completePlacements(env, parent)) {
    const routing = routeRequest(placement.item, new Set(key));
    const shape = env.shape(placement);
    let step: PlanStep;
    if (routing.scope === "single" && routing.idKnown) {
      const read: PointReadStep = {
        kind: "pointRead",
        container: placement.container.name,
        itemType: placement.item.type,
        id: bindTemplate(placement.item.id, fromChild) ?? placement.item.id,
        partitionKey: placement.item.partitionKey.map((t) => bindTemplate(t, fromChild) ?? t),
        ...env.charge({ op: "read", itemBytes: shape.avgBytes, ...(consistency ? { consistency } : {}) }),
        times,
        note: `one point read of the ${parent} of each returned item for ${attribute === undefined ? "all its attributes" : `${parent}.${attribute}`}`,
        perResult: true,
      };
      step = read;
    } else {
      // A query across the replicas would answer each parent several times.
      if (readsEveryReplica(placement.item, routing)) continue;
      const partitions = routing.scope === "fanOut" ? env.partitions(placement.container.name) : 1;
      const query = buildQuery({
        keys: keyConditions(placement, routing, "result", new Set(key), fromChild),
        predicates: key.map((name) => ({ attribute: name, op: "eq" as const })),
        valuesFrom: "result",
        resultNames: Object.fromEntries(key.map((name, index) => [name, via[index] ?? name])),
        orderBy: [],
        // The whole item when the complete record is asked for (SELECT *).
        ...(attribute === undefined ? {} : { projection: [...key, attribute] }),
        ...tombstoneFilter(env, placement),
      });
      const q: QueryStep = {
        kind: "query",
        container: placement.container.name,
        itemType: placement.item.type,
        sql: query.sql,
        parameters: query.parameters,
        scope: routing.scope,
        partitions,
        returned: 1,
        orderServedByIndex: true,
        ...env.charge({
          op: "query",
          returned: 1,
          returnedBytes:
            attribute === undefined ? shape.avgBytes : attributePropertyBytes(parentEntity, attribute) + 40,
          partitions,
          ...(consistency ? { consistency } : {}),
        }),
        times,
        note: `one query per returned item for its ${attribute === undefined ? `complete ${parent}` : `${parent}.${attribute}`}`,
        perResult: true,
      };
      step = q;
    }
    if (best === undefined || step.ru.estimate < best.ru.estimate) best = step;
  }
  return best;
}

/**
 * One query fetching the parents of all returned items (`ARRAY_CONTAINS(@keys, c.key)`); none for
 * a parent with a composite key (a list of single values cannot hold its key tuples).
 */
function batchedParentLookup(
  env: PlanEnvironment,
  parent: string,
  via: readonly string[],
  attribute: string,
  distinctParents: number,
  consistency: ReadPattern["consistency"],
): QueryStep | undefined {
  const parentEntity = env.context.entity(parent);
  const [key, ...rest] = keyAttributes(parentEntity);
  const [holder] = via;
  if (key === undefined || holder === undefined || rest.length > 0) return undefined;
  let best: QueryStep | undefined;
  for (const placement of completePlacements(env, parent)) {
    // A list of keys names no replica: every replica of each parent would answer.
    if ((placement.item.replicas ?? 1) > 1) continue;
    const keyed = placement.item.partitionKey.length === 1 && placement.item.partitionKey[0] === `{${key}}`;
    const physical = env.partitions(placement.container.name);
    const partitions = keyed ? Math.min(Math.ceil(distinctParents), physical) : physical;
    const query = buildQuery({
      keys: [{ property: "type", source: { kind: "literal", value: placement.item.type } }],
      predicates: [{ attribute: key, op: "in" }],
      valuesFrom: "result",
      resultNames: { [key]: holder },
      orderBy: [],
      projection: [key, attribute],
      ...tombstoneFilter(env, placement),
    });
    const returnedBytes = distinctParents * (attributePropertyBytes(parentEntity, attribute) + 40);
    const step: QueryStep = {
      kind: "query",
      container: placement.container.name,
      itemType: placement.item.type,
      sql: query.sql,
      parameters: query.parameters,
      // A list of keys: the query goes to each partition holding one (all of them when unkeyed).
      scope: partitions > 1 ? "fanOut" : "single",
      partitions,
      returned: distinctParents,
      orderServedByIndex: true,
      ...env.charge({
        op: "query",
        returned: distinctParents,
        returnedBytes,
        partitions,
        ...(consistency ? { consistency } : {}),
      }),
      times: 1,
      note: `one query for the ${parent}.${attribute} of all returned items`,
    };
    if (best === undefined || step.ru.estimate < best.ru.estimate) best = step;
  }
  return best;
}

/**
 * The order of `latest(X, N)`: X's first datetime attribute, newest first, ties by X's key (greater
 * first) — the one rule of `workload/recency.ts` the oracle, the embed and this query share. The
 * workload check guarantees the datetime attribute; the key alone is the fallback for a model
 * loaded against a workload that was not checked.
 */
export function newestOrder(env: PlanEnvironment, entity: string): SortKey[] {
  const child = env.context.entity(entity);
  const by = recencyAttribute(child);
  return [
    ...(by === undefined ? [] : [{ attribute: by, direction: "desc" as const }]),
    ...keyAttributes(child).map((attribute) => ({ attribute, direction: "desc" as const })),
  ];
}

/**
 * A query on the children of each returned item (count, aggregate, newest N, all), from items of
 * `from` (a read's entity and consistency; a write's embedding parent for a refill).
 */
export function childQuery(
  env: PlanEnvironment,
  from: { readonly entity: string; readonly consistency?: ReadPattern["consistency"] },
  entry: Exclude<WithItem, { kind: "attribute" }>,
  via: readonly string[],
  childrenPerParent: number,
  times: number,
  source: Binding,
): QueryStep | undefined {
  const consistency = from.consistency ?? env.context.workload.scale.consistency;
  let best: QueryStep | undefined;
  const order = entry.kind === "latest" ? newestOrder(env, entry.entity) : [];
  const filters = via.map((attribute) => ({ attribute, op: "eq" as const }));
  // What the record at hand gives of the children's attributes (`source`: the parent's key for
  // the via, and the parent attributes children are declared to share): only those route.
  for (const placement of completePlacements(env, entry.entity)) {
    const routing = routeRequest(placement.item, new Set(Object.keys(source)));
    // Every replica would be counted (or listed) once each: never from such a placement.
    if (readsEveryReplica(placement.item, routing)) continue;
    // Cosmos DB refuses an ORDER BY no index of the container serves (independent seed 25, the
    // newest categories read from a copy container indexing only /type): such a placement is
    // kept only when no other serves, with `orderServedByIndex: false` for the caller to refuse.
    // The via filter is served by its range index beside the sort's composite (the derived
    // policy's newest-children composite names only the sort paths): only the order is judged.
    const clause = orderClause(env, { where: [], orderBy: order }, placement);
    const partitions =
      routing.scope === "fanOut"
        ? env.partitions(placement.container.name)
        : routing.scope === "shards"
          ? Math.min(routing.shardCount, env.partitions(placement.container.name))
          : 1;
    const shape = env.shape(placement);
    const aggregate =
      entry.kind === "count"
        ? ({ fn: "count" } as const)
        : entry.kind === "aggregate"
          ? ({ fn: entry.fn, attribute: entry.attribute } as const)
          : undefined;
    const top = entry.kind === "latest" ? entry.n : undefined;
    const query = buildQuery({
      keys: keyConditions(placement, routing, "result", new Set(via), source),
      predicates: filters,
      valuesFrom: "result",
      resultNames: Object.fromEntries(via.map((name) => [name, source[name] ?? name])),
      orderBy: clause ?? order,
      ...(top === undefined ? {} : { top }),
      ...(aggregate === undefined ? {} : { aggregate }),
      ...tombstoneFilter(env, placement),
    });
    const matched = childrenPerParent;
    const returned = aggregate !== undefined ? 1 : top === undefined ? matched : Math.min(top, matched);
    const step: QueryStep = {
      kind: "query",
      container: placement.container.name,
      itemType: placement.item.type,
      sql: query.sql,
      parameters: query.parameters,
      ...(routing.scope === "fanOut"
        ? {}
        : {
            // In the names of the record the values come from (the parent's key for the via).
            partitionKey: placement.item.partitionKey
              .slice(0, routing.knownLevels)
              .map((template) => bindTemplate(template, source) ?? template),
          }),
      scope: routing.scope,
      partitions,
      returned,
      orderServedByIndex: clause !== undefined,
      ...env.charge({
        op: "query",
        returned,
        returnedBytes: aggregate !== undefined ? 20 : returned * shape.avgBytes,
        // An aggregate loads every matching child even though it returns one value.
        scannedNotReturned: aggregate !== undefined ? matched : 0,
        scannedBytes: aggregate !== undefined ? matched * shape.avgBytes : 0,
        partitions,
        consistency,
      }),
      times,
      note: `one query per returned item for ${formatWithItem(entry)} (${routing.scope === "fanOut" ? `fan-out over ${partitions} partitions` : "single partition"})`,
      perResult: true,
    };
    if (best === undefined || better(step, best)) best = step;
  }
  return best;
}

/** Whether `step` answers better than `best`: served by an index first, then the cheaper. */
function better(step: QueryStep, best: QueryStep): boolean {
  if (step.orderServedByIndex !== best.orderServedByIndex) return step.orderServedByIndex;
  return step.ru.estimate < best.ru.estimate;
}

/** The follow-up reads `pattern` needs when answered by `placement`, for `returned` items. */
/**
 * A point read (or the cheapest query) of the complete item of `entity` for each returned item,
 * by the key the returned item carries: the second step of a lookup item (an item that maps a
 * unique value to the key, e.g. email -> accountId).
 */
export function planKeyLookup(
  env: PlanEnvironment,
  entity: string,
  times: number,
  consistency: ReadPattern["consistency"],
): PlanStep | undefined {
  const key = keyAttributes(env.context.entity(entity));
  // The complete record: every attribute the lookup item leaves out (not only its key).
  return perItemParentLookup(env, entity, key, undefined, times, consistency);
}

/**
 * Why a many-to-many `with` attribute is not answered, and what would: the array copy when it
 * fits the design's bound, else link items of their own.
 */
function manyToManyProblem(
  env: PlanEnvironment,
  label: string,
  holder: string,
  entry: { readonly entity: string; readonly attribute: string },
): string {
  const link = manyToManyLink(env.context, holder, entry.entity);
  const key = keyAttributes(env.context.entity(entry.entity)).join(", ");
  const head = `${label}: ${holder} and ${entry.entity} are many-to-many with no attribute to follow`;
  if (link === undefined) return head;
  const copy = { from: { entity: entry.entity, attribute: entry.attribute }, as: "copy" };
  const largest = manyToManyCopyBytes(env.context, copy, link).max;
  return largest <= MANY_TO_MANY_COPY_MAX_BYTES
    ? `${head}; copy ${entry.entity}.${entry.attribute} into the ${holder} items (an array of { ${key}, ${entry.attribute} } per linked ${entry.entity}, kept by the change feed of ${entry.entity})`
    : `${head}, and an array of the linked ${entry.entity} records would take ${Math.round(largest / 1024).toLocaleString("en-US")} KB in the largest ${holder} item (over the ${MANY_TO_MANY_COPY_MAX_BYTES / 1024} KB the design allows); make the link an entity (one-to-many from each side) and copy ${entry.attribute} into the link items`;
}

export function planFollowUps(
  env: PlanEnvironment,
  pattern: ReadPattern,
  placement: Placement,
  returned: number,
): FollowUps {
  const { item } = placement;
  const steps: PlanStep[] = [];
  const problems: string[] = [];
  const notes: string[] = [];
  const consistency = pattern.consistency ?? env.context.workload.scale.consistency;
  for (const entry of pattern.with) {
    const label = formatWithItem(entry);
    if (entry.kind === "attribute") {
      if (entry.entity === pattern.entity) continue;
      const copy = item.copies.find(
        (c) => c.from.entity === entry.entity && c.from.attribute === entry.attribute,
      );
      if (copy !== undefined) {
        notes.push(`${label} is copied into ${item.type}.${copy.as}`);
        continue;
      }
      const relationship = env.context.relationship(entry.entity, pattern.entity);
      if (relationship?.via === undefined) {
        const pair = [entry.entity, pattern.entity];
        const manyToMany = env.context.workload.relationships.find(
          (r) => r.kind === "many-to-many" && pair.includes(r.parent) && pair.includes(r.child),
        );
        problems.push(
          manyToMany !== undefined
            ? manyToManyProblem(env, label, pattern.entity, entry)
            : `${label}: no relationship from ${entry.entity} to ${pattern.entity} to follow`,
        );
        continue;
      }
      const distinct = Math.min(returned, env.context.countAtHorizon(entry.entity));
      const perItem = perItemParentLookup(
        env,
        entry.entity,
        relationship.via,
        entry.attribute,
        distinct,
        consistency,
      );
      const batched =
        env.followUps === "cheapest" && returned > 1
          ? batchedParentLookup(env, entry.entity, relationship.via, entry.attribute, distinct, consistency)
          : undefined;
      const perItemCost =
        perItem === undefined ? Infinity : scaleEstimate(perItem.ru, perItem.times).estimate;
      const chosen = batched !== undefined && batched.ru.estimate < perItemCost ? batched : perItem;
      if (chosen === undefined)
        problems.push(`${label}: no item type stores complete ${entry.entity} records`);
      else steps.push({ ...chosen, withEntry: label });
      continue;
    }
    const relationship = env.context.relationship(pattern.entity, entry.entity);
    if (entry.kind === "count") {
      const counter = readableCounter(env, pattern, placement, entry.entity);
      if (counter !== undefined) {
        notes.push(`${label} is kept in ${item.type}.${counter.as}`);
        continue;
      }
    }
    if (entry.kind === "latest" || entry.kind === "all") {
      const embed = item.embeds.find(
        (e) =>
          e.entity === entry.entity &&
          (e.latest === undefined || (entry.kind === "latest" && e.latest >= entry.n)),
      );
      if (embed !== undefined) {
        notes.push(`${label} is embedded in ${item.type}.${embed.as}`);
        continue;
      }
    }
    if (relationship?.via === undefined) {
      problems.push(
        `${label}: ${entry.entity} is not a child of ${pattern.entity} through a relationship with \`via\``,
      );
      continue;
    }
    const step = childQuery(
      env,
      pattern,
      entry,
      relationship.via,
      relationship.avg,
      returned,
      childBinding(env.context.workload, relationship),
    );
    if (step === undefined) problems.push(`${label}: no item type stores complete ${entry.entity} records`);
    else {
      if (!step.orderServedByIndex) problems.push(unservedOrder(label, step));
      steps.push({ ...step, withEntry: label });
    }
  }
  return { steps, problems, notes };
}

/**
 * Why a follow-up query whose ORDER BY no index serves cannot run: Cosmos DB refuses it (400).
 * @example unservedOrder("latest(Category, 3)", step) // "latest(Category, 3): its ORDER BY on category in ..."
 */
export function unservedOrder(label: string, step: QueryStep): string {
  return `${label}: its ORDER BY on ${step.itemType} in ${step.container} is served by no index (several paths, or equality filters with the sort, need a composite index): Cosmos DB refuses the query`;
}
