/**
 * Plans a read access pattern on a model: for every item type that could answer it, how the
 * request is routed (point read, single-partition query, hierarchical-prefix query, shard
 * fan-out, full fan-out), what it returns and loads, and the follow-up reads for related data the
 * item does not hold; then keeps the cheapest option that serves the pattern.
 */
import { templateAttributes } from "../model/templates.js";
import { coversKey, formatKey, keyAttributes, viaAttributes } from "../workload/keys.js";
import type { ReadPattern, SortKey } from "../workload/types.js";
import type { Placement } from "./context.js";
import { scaleEstimate, sumEstimates, type PlanEnvironment } from "./environment.js";
import { planFollowUps, planKeyLookup, readableCounter } from "./follow-ups.js";
import { isPathIndexed } from "./indexing.js";
import { orderClause } from "./order-clause.js";
import { attributePropertyBytes } from "./item-shape.js";
import { keyConditions, tombstoneFilter } from "./key-conditions.js";
import {
  partitionKeyAttributes,
  queryAddress,
  readsEveryReplica,
  routeRequest,
  type Routing,
} from "./routing.js";
import { buildQuery } from "./sql.js";
import { searchProjection, searchQueryStep } from "./plan-search.js";
import { BUCKET_RECORDS_PROPERTY } from "../runtime/items.js";
import type { PlanStep, PointReadStep, QueryStep, ReadPlan, ReadPlanKind } from "./types.js";

/** Records of the pattern's entity that match its filters, before `limit`. */
export function expectedMatches(env: PlanEnvironment, pattern: ReadPattern): number {
  const { context } = env;
  if (pattern.returns !== undefined) return pattern.returns.avg;
  const entity = context.entity(pattern.entity);
  // An equality on every key attribute (one for a single key) identifies one record.
  const equal = pattern.where.filter((p) => p.op === "eq" || p.op === "contains").map((p) => p.attribute);
  if (coversKey(entity, equal)) return 1;
  let matches = context.countAtHorizon(pattern.entity);
  for (const predicate of pattern.where) {
    if (predicate.op === "eq" || predicate.op === "contains") {
      matches /= context.distinctValues(pattern.entity, predicate.attribute);
    } else if (predicate.op === "in") {
      matches = Math.min(matches, 10);
    } else {
      // range / prefix: selectivity unknown; assume 1% (say `returns` to be exact).
      matches *= 0.01;
    }
  }
  return matches;
}

/** Returned records: matches capped by `limit`. */
export function expectedReturned(env: PlanEnvironment, pattern: ReadPattern): number {
  const matches = expectedMatches(env, pattern);
  return pattern.limit === undefined ? matches : Math.min(matches, pattern.limit);
}

interface Option {
  readonly plan: ReadPlan;
  readonly total: number;
  /** A bounded set in the pattern's order that keeps fewer items than the pattern's limit. */
  readonly tooSmall?: string;
}

/** Prefix of the plan note that names a bounded set too small for the pattern. */
const BOUNDED_SET_NOTE = "bounded set too small: ";

/** Why `placement` cannot answer `pattern` (projection, truncation, bounded set), if it cannot. */
function coverageProblems(
  env: PlanEnvironment,
  pattern: ReadPattern,
  placement: Placement,
): { problems: string[]; tooSmall?: string } {
  let tooSmall: string | undefined;
  const { item } = placement;
  const entity = env.context.entity(pattern.entity);
  const problems: string[] = [];
  const needed = new Set([
    ...(pattern.select ?? entity.attributes.map((a) => a.name)),
    ...ownWithAttributes(pattern),
    ...pattern.where.map((p) => p.attribute),
    ...pattern.orderBy.map((s) => s.attribute),
    ...followUpKeys(env, pattern, placement),
  ]);
  if (item.select !== undefined) {
    const missing = [...needed].filter((name) => !item.select?.includes(name));
    // A projection that keeps the entity key can still answer: a lookup item, followed by a
    // point read of the complete item (planned by the caller). The query on it filters and sorts
    // on its own properties, so those must be stored (a copy without genreId finds no track).
    const lookup =
      coversKey(entity, item.select) &&
      pattern.where.every((p) => item.select?.includes(p.attribute)) &&
      pattern.orderBy.every((s) => item.select?.includes(s.attribute));
    if (missing.length > 0 && !lookup) problems.push(`${item.type} items do not store ${missing.join(", ")}`);
  }
  const compared = new Set([
    ...pattern.where.map((p) => p.attribute),
    ...pattern.orderBy.map((s) => s.attribute),
  ]);
  for (const cut of item.truncate) {
    const wanted = pattern.truncate.find((t) => t.attribute === cut.attribute);
    // A cut value cannot be filtered or sorted on: it is not the value the read compares.
    if (compared.has(cut.attribute))
      problems.push(`${item.type} items cut ${cut.attribute}, which ${pattern.id} filters or sorts on`);
    else if (needed.has(cut.attribute) && (wanted === undefined || wanted.bytes > cut.bytes)) {
      problems.push(`${item.type} items cut ${cut.attribute} to ${cut.bytes} bytes`);
    }
  }
  if (item.keepLatest !== undefined) {
    const first = pattern.orderBy[0];
    const keyAttributes = new Set(partitionKeyAttributes(item));
    if (first?.attribute !== item.keepLatest.by || first.direction !== "desc") {
      problems.push(`${item.type} keeps only the newest ${item.keepLatest.count} by ${item.keepLatest.by}`);
    } else if (pattern.limit === undefined || pattern.limit > item.keepLatest.count) {
      tooSmall = `${pattern.id} asks for ${pattern.limit ?? "all"} items but ${placement.container.name}/${item.type} keeps only the newest ${item.keepLatest.count}`;
      problems.push(tooSmall);
    }
    const others = pattern.where.filter((p) => p.op !== "eq" || !keyAttributes.has(p.attribute));
    if (others.length > 0) {
      problems.push(
        `${item.type} keeps the newest per partition only; it cannot filter on ${others[0]?.attribute}`,
      );
    }
  }
  // A set is too small for the pattern only when its size is all that keeps it from answering: a
  // set that cannot filter on the pattern's other filters, or lacks an attribute it needs, would
  // not answer it at any size (6/14: the newest 10 of every order, and a read of one order's newest
  // 100 by orderId), so it is not maintained for that pattern.
  return tooSmall === undefined || problems.length > 1 ? { problems } : { problems, tooSmall };
}

/**
 * The attributes `with` names on the pattern's own entity (`Task.verified` on a read of Task): the
 * returned item answers them itself, so it must hold and return them even when `select` omits them.
 */
function ownWithAttributes(pattern: ReadPattern): string[] {
  return pattern.with.flatMap((entry) =>
    entry.kind === "attribute" && entry.entity === pattern.entity ? [entry.attribute] : [],
  );
}

/**
 * The attributes follow-up reads take from each returned item: the via of a parent whose
 * attribute the item does not copy, and the entity's key for children it neither counts nor
 * embeds (their via holds it). A projection without them cannot be followed.
 */
function followUpKeys(env: PlanEnvironment, pattern: ReadPattern, placement: Placement): string[] {
  const { item } = placement;
  const keys: string[] = [];
  for (const entry of pattern.with) {
    if (entry.entity === pattern.entity) continue;
    if (entry.kind === "attribute") {
      const copied = item.copies.some(
        (c) => c.from.entity === entry.entity && c.from.attribute === entry.attribute,
      );
      const via = env.context.relationship(entry.entity, pattern.entity)?.via;
      if (!copied && via !== undefined) keys.push(...via);
      continue;
    }
    const held =
      (entry.kind === "count" && readableCounter(env, pattern, placement, entry.entity) !== undefined) ||
      ((entry.kind === "latest" || entry.kind === "all") &&
        item.embeds.some(
          (e) =>
            e.entity === entry.entity &&
            (e.latest === undefined || (entry.kind === "latest" && e.latest >= entry.n)),
        ));
    if (!held) keys.push(...env.context.entity(pattern.entity).key);
  }
  return keys;
}

/** `"_score":` and a number, returned with each result of a vector or hybrid search. */
const SEARCH_SCORE_BYTES = 30;

function stored(placement: Placement, attribute: string): boolean {
  return placement.item.select === undefined || placement.item.select.includes(attribute);
}

/** Bytes of one returned item: the pattern's projection and truncation applied to the item. */
function returnedItemBytes(env: PlanEnvironment, pattern: ReadPattern, placement: Placement): number {
  const shape = env.shape(placement);
  const entity = env.context.entity(pattern.entity);
  let bytes = shape.avgBytes;
  if (pattern.select !== undefined && entity.attributes.length > 0 && placement.item.bucket === undefined) {
    const selected = pattern.select.reduce((sum, name) => sum + attributePropertyBytes(entity, name), 2);
    const extras =
      shape.avgBytes -
      env.shape({ ...placement, item: { ...placement.item, copies: [], counts: [] } }).avgBytes;
    bytes = Math.min(shape.avgBytes, selected + Math.max(0, extras));
  } else if (pattern.search !== undefined) {
    // A search returns its results without their vectors (searchProjection), with their score.
    const vectors = entity.attributes
      .filter((a) => a.vector !== undefined && stored(placement, a.name))
      .reduce((sum, a) => sum + attributePropertyBytes(entity, a.name), 0);
    bytes = shape.avgBytes - vectors + SEARCH_SCORE_BYTES;
  }
  // Bucket records are cut by the function after the read (the SQL returns whole buckets).
  for (const cut of placement.item.bucket === undefined ? pattern.truncate : []) {
    if (placement.item.truncate.some((t) => t.attribute === cut.attribute && t.bytes <= cut.bytes)) continue;
    const full = attributePropertyBytes(entity, cut.attribute) - cut.attribute.length - 4;
    if (full > cut.bytes) bytes -= (full - cut.bytes) * env.recordsPerBucket(placement.item);
  }
  return Math.max(bytes, 20);
}

/** Physical partitions a query with this routing visits. */
function partitionsVisited(env: PlanEnvironment, placement: Placement, routing: Routing): number {
  const physical = env.partitions(placement.container.name);
  switch (routing.scope) {
    case "single":
    case "prefix":
      return 1;
    case "shards":
      return Math.min(routing.shardCount, physical);
    case "fanOut":
      return physical;
    default:
      return routing.scope satisfies never;
  }
}

/**
 * Whether the ORDER BY is served by the container's indexes. One sort path needs its range index;
 * several, or equality filters on other paths, a composite index: equality-filtered paths in any
 * order (the partition key's among them or not: the derived policy lists them, and a key filter
 * routes the query anyway), every other equality-filtered path among them, then the sort paths in
 * order, in the ORDER BY's directions or all inverted
 * (https://learn.microsoft.com/azure/cosmos-db/index-policy#composite-indexes, checked 2026-11-24).
 */
function orderServed(env: PlanEnvironment, pattern: ReadPattern, placement: Placement): boolean {
  return orderClause(env, pattern, placement) !== undefined;
}

/**
 * The ORDER BY of a query over bucket items: they hold their records in an array (the function
 * sorts those), so only a sort on what the item itself holds can stay, the window start of a time
 * window first in the pattern's order. Cosmos DB leaves out the items an ORDER BY path is missing
 * from: ordering a records bucket by a record attribute would return nothing (independent seed 58).
 */
function bucketOrder(pattern: ReadPattern, item: Placement["item"]): readonly SortKey[] {
  const [first] = pattern.orderBy;
  return item.bucket?.kind === "window" && first?.attribute === item.bucket.by ? [first] : [];
}

/** A point read of the item by id and partition key (one per requested key of an `in` filter). */
function pointReadStep(
  env: PlanEnvironment,
  pattern: ReadPattern,
  placement: Placement,
  addressed: ReadonlySet<string>,
  returnedRecords: number,
): PointReadStep {
  const { container, item } = placement;
  const inAttributes = [...new Set(pattern.where.filter((p) => p.op === "in").map((p) => p.attribute))];
  const consistency = pattern.consistency ?? env.context.workload.scale.consistency;
  const times = inAttributes.some((a) => addressed.has(a)) ? Math.max(1, returnedRecords) : 1;
  return {
    kind: "pointRead",
    container: container.name,
    itemType: item.type,
    id: item.id,
    partitionKey: item.partitionKey,
    ...env.charge({ op: "read", itemBytes: env.shape(placement).avgBytes, consistency }),
    times,
    note: `${
      times > 1
        ? `one point read per requested ${inAttributes.join(", ")} (ReadMany)`
        : "point read by id and partition key"
    }${
      pattern.select === undefined && pattern.truncate.length === 0
        ? ""
        : ` (charged for the whole item; the function returns only ${pattern.select === undefined ? "the cut attributes" : "the selected attributes"})`
    }`,
  };
}

/**
 * Items a query loads without returning them: every item it visits when a filter is not indexed,
 * every match when the ORDER BY is not served by an index, each partition's own first `limit`
 * items when several partitions are merged; with the note that says why.
 */
function scannedNotReturned(
  env: PlanEnvironment,
  pattern: ReadPattern,
  placement: Placement,
  routing: Routing,
  itemsReturned: number,
  physical: number,
): { scanned: number; served: boolean; note?: string } {
  const { item } = placement;
  const keyAttributes = new Set(partitionKeyAttributes(item));
  // Items in the logical partitions the query visits.
  const keysPerRequest = routing.scope === "shards" ? routing.shardCount : 1;
  const inScope =
    routing.scope === "fanOut"
      ? env.itemCount(placement) / (item.replicas ?? 1)
      : (env.itemCount(placement) / env.logicalKeys(placement)) * keysPerRequest;
  const policy = env.policy(placement.container);
  const unindexed = pattern.where.filter(
    (p) =>
      !(routing.scope !== "fanOut" && keyAttributes.has(p.attribute) && p.op === "eq") &&
      !isPathIndexed(policy, `/${p.attribute}`),
  );
  const served = orderServed(env, pattern, placement);
  if (unindexed.length > 0) {
    return {
      scanned: Math.max(0, inScope - itemsReturned),
      served,
      note: `filter on ${unindexed.map((p) => p.attribute).join(", ")} is not indexed: the query loads every item it visits`,
    };
  }
  if (!served) {
    return {
      scanned: Math.max(
        0,
        Math.min(inScope, expectedMatches(env, pattern) / env.recordsPerBucket(item)) - itemsReturned,
      ),
      served,
      note: `ORDER BY ${pattern.orderBy.map((s) => s.attribute).join(", ")} is not served by an index: the query sorts every match`,
    };
  }
  if (physical > 1 && pattern.orderBy.length > 0 && pattern.limit !== undefined) {
    // Each partition returns its own first `limit` items; the SDK merges them.
    const perPartition = Math.min(pattern.limit, inScope / physical);
    return { scanned: Math.max(0, physical * perPartition - itemsReturned), served };
  }
  return { scanned: 0, served };
}

/** The query that answers `pattern` on `placement` (single partition, key prefix, shards or fan-out). */
function queryStep(
  env: PlanEnvironment,
  pattern: ReadPattern,
  placement: Placement,
  routing: Routing,
  returnedRecords: number,
): { step: QueryStep; kind: ReadPlanKind; notes: string[] } {
  const { container, item } = placement;
  const consistency = pattern.consistency ?? env.context.workload.scale.consistency;
  const physical = partitionsVisited(env, placement, routing);
  const itemsReturned =
    item.keepLatest !== undefined
      ? Math.min(pattern.limit ?? item.keepLatest.count, item.keepLatest.count)
      : item.bucket !== undefined
        ? Math.ceil(returnedRecords / env.recordsPerBucket(item)) + (returnedRecords > 0 ? 1 : 0)
        : returnedRecords;
  const bytesEach = returnedItemBytes(env, pattern, placement);
  if (pattern.search !== undefined) {
    const { truncate } = queryProjection(env, pattern, placement);
    const step = searchQueryStep(env, pattern, pattern.search, placement, routing, {
      physical,
      projection: searchProjection(env, pattern, projectionOf(env, pattern, placement)),
      bytesEach,
      ...(truncate === undefined ? {} : { truncate }),
    });
    const kind: ReadPlanKind =
      routing.scope === "single"
        ? "singlePartitionQuery"
        : routing.scope === "prefix"
          ? "prefixQuery"
          : "fanOut";
    return { step, kind, notes: [] };
  }
  const { scanned, served, note } = scannedNotReturned(
    env,
    pattern,
    placement,
    routing,
    itemsReturned,
    physical,
  );
  const query = buildQuery({
    keys: keyConditions(placement, routing, "input", new Set(pattern.where.map((p) => p.attribute))),
    predicates: pattern.where,
    ...(item.bucket?.kind === "window"
      ? { window: { attribute: item.bucket.by, seconds: item.bucket.windowSeconds } }
      : {}),
    // A bucket holds its records in an array: other filters test the records (EXISTS).
    ...(item.bucket === undefined
      ? {}
      : {
          records: {
            property: BUCKET_RECORDS_PROPERTY,
            itemAttributes: [item.id, ...item.partitionKey].flatMap((template) =>
              templateAttributes(template),
            ),
          },
        }),
    valuesFrom: "input",
    orderBy:
      item.bucket === undefined
        ? (orderClause(env, pattern, placement) ?? pattern.orderBy)
        : bucketOrder(pattern, item),
    ...queryProjection(env, pattern, placement),
    ...tombstoneFilter(env, placement),
    // One query per shard, merged by the client in the ORDER BY: the items carry its values.
    ...(routing.scope === "shards" ? { orderValues: true } : {}),
  });
  const step: QueryStep = {
    ...queryAddress(container, item, query, routing, physical),
    returned: itemsReturned,
    ...(pattern.limit === undefined ? {} : { pageSize: pattern.limit }),
    orderServedByIndex: served,
    ...(query.orderValues === undefined ? {} : { orderValues: query.orderValues }),
    ...env.charge({
      op: "query",
      returned: itemsReturned,
      returnedBytes: itemsReturned * bytesEach,
      scannedNotReturned: scanned,
      scannedBytes: scanned * env.shape(placement).avgBytes,
      partitions: physical,
      consistency,
    }),
    times: 1,
    note: queryNote(routing, physical),
  };
  const kind: ReadPlanKind =
    routing.scope === "single"
      ? "singlePartitionQuery"
      : routing.scope === "prefix"
        ? "prefixQuery"
        : "fanOut";
  return { step, kind, notes: note === undefined ? [] : [note] };
}

/**
 * A lookup item (a projection that keeps the entity key but not every attribute the pattern
 * needs): the point read of the complete record it points to, or why there is none.
 */
function keyLookupSteps(
  env: PlanEnvironment,
  pattern: ReadPattern,
  placement: Placement,
  returnedRecords: number,
): { steps: PlanStep[]; problems: string[]; notes: string[] } {
  const { item } = placement;
  const entity = env.context.entity(pattern.entity);
  // What the function returns, and what its follow-ups read from each item.
  const needed = [
    ...(pattern.select ?? entity.attributes.map((a) => a.name)),
    ...ownWithAttributes(pattern),
    ...followUpKeys(env, pattern, placement),
  ];
  if (
    item.select === undefined ||
    needed.every((name) => item.select?.includes(name)) ||
    !coversKey(entity, item.select)
  )
    return { steps: [], problems: [], notes: [] };
  const consistency = pattern.consistency ?? env.context.workload.scale.consistency;
  const full = planKeyLookup(env, pattern.entity, Math.max(1, returnedRecords), consistency);
  if (full === undefined)
    return {
      steps: [],
      problems: [
        `${item.type} holds only ${item.select.join(", ")} and no item type stores complete ${pattern.entity} records`,
      ],
      notes: [],
    };
  return {
    steps: [
      {
        ...full,
        note: `read the complete ${pattern.entity} by the ${formatKey(entity.key)} the ${item.type} item holds`,
      },
    ],
    problems: [],
    notes: [`${item.type} is a lookup item: ${pattern.id} reads it, then the ${pattern.entity} it points to`],
  };
}

function planOnPlacement(env: PlanEnvironment, pattern: ReadPattern, placement: Placement): Option {
  const { container, item } = placement;
  const { problems, tooSmall } = coverageProblems(env, pattern, placement);
  const known = new Set(pattern.where.filter((p) => p.op === "eq" || p.op === "in").map((p) => p.attribute));
  const routing = routeRequest(item, known);
  const idAttributes = templateAttributes(item.id);
  const returnedRecords = expectedReturned(env, pattern);
  const addressed = new Set([...idAttributes, ...partitionKeyAttributes(item)]);
  const pointReadable =
    pattern.search === undefined &&
    routing.scope === "single" &&
    routing.idKnown &&
    item.bucket === undefined &&
    item.keepLatest === undefined &&
    pattern.orderBy.length === 0 &&
    pattern.where.every((p) => (p.op === "eq" || p.op === "in") && addressed.has(p.attribute)) &&
    idAttributes.every((a) => known.has(a));
  // A query is routed by its equalities only: a partition key value given as a list (`in`) is
  // one key per value, which a point read reads many of (ReadMany) but a query cannot be sent to.
  const queryRouting = pointReadable
    ? routing
    : routeRequest(item, new Set(pattern.where.filter((p) => p.op === "eq").map((p) => p.attribute)));
  const queried = pointReadable
    ? undefined
    : queryStep(env, pattern, placement, queryRouting, returnedRecords);
  const first: PlanStep = queried?.step ?? pointReadStep(env, pattern, placement, addressed, returnedRecords);
  const kind: ReadPlanKind = queried?.kind ?? "pointRead";
  const notes: string[] = [...(queried?.notes ?? [])];
  // Cosmos DB sorts only by an index: an ORDER BY no index serves is refused (400), it is never
  // sorted by brute force. (Bucket items are sorted by the function, after the read.)
  if (
    queried !== undefined &&
    pattern.search === undefined &&
    item.bucket === undefined &&
    orderClause(env, pattern, placement) === undefined
  )
    problems.push(
      `ORDER BY ${pattern.orderBy.map((s) => `${s.attribute} ${s.direction}`).join(", ")} on ${item.type} in ${container.name} is served by no index${pattern.orderBy.length > 1 || pattern.where.some((p) => p.op === "eq") ? " (several paths, or equality filters with the sort, need a composite index)" : " (the path is not range-indexed)"}: Cosmos DB refuses the query`,
    );
  if (queried !== undefined && readsEveryReplica(item, queryRouting))
    problems.push(
      `${item.type} in ${container.name} keeps ${item.replicas ?? 1} replicas of each ${item.entity}: a query that does not name one in its partition key (here ${queryRouting.scope === "fanOut" ? "a fan-out" : "a key prefix above the replica"}) returns each ${item.entity} ${item.replicas ?? 1} times`,
    );
  if (item.source !== undefined)
    notes.push(
      `${item.type} in ${container.name} is a copy kept from the change feed of ${item.source.container} (eventually consistent)`,
    );
  const lookup = keyLookupSteps(env, pattern, placement, returnedRecords);
  problems.push(...lookup.problems);
  notes.push(...lookup.notes);
  // After a lookup, the function answers with the complete records: the `with` entries are
  // answered by what those items hold (the lookup item's own copies are not returned).
  const [complete] = lookup.steps;
  const answering =
    complete === undefined
      ? placement
      : (env.context
          .placementsOf(pattern.entity)
          .find((p) => p.container.name === complete.container && p.item.type === complete.itemType) ??
        placement);
  const followUps = planFollowUps(env, pattern, answering, returnedRecords);
  problems.push(...followUps.problems);
  notes.push(...followUps.notes);
  const operations = [first, ...lookup.steps, ...followUps.steps];
  const total = sumEstimates(operations.map((step) => scaleEstimate(step.ru, step.times))).estimate;
  const fanOut = operations.some(
    (step) =>
      step.kind === "query" && (step.scope === "fanOut" || step.scope === "shards") && step.partitions > 1,
  );
  const returnedShape = returnedShapeOf(env, pattern, placement);
  return {
    total,
    ...(tooSmall === undefined ? {} : { tooSmall }),
    plan: {
      patternId: pattern.id,
      type: "read",
      kind,
      container: container.name,
      itemType: item.type,
      operations,
      fanOut,
      served: problems.length === 0,
      notes: [...problems, ...notes],
      ...(returnedShape === undefined ? {} : { returnedShape }),
    },
  };
}

/**
 * The properties a read returns of each item: `id`, the selected attributes (all of the entity's
 * without `select`), what the item holds for `with` (its own attributes `with` names, copies,
 * counters, embeds), and the keys follow-up reads need (the entity key, the parents' `via`).
 */
export function projectionOf(
  env: PlanEnvironment,
  pattern: ReadPattern,
  placement: Placement,
): readonly string[] {
  const { item } = placement;
  const selected = pattern.select ?? env.context.entity(pattern.entity).attributes.map((a) => a.name);
  const fields = new Set(["id", ...selected, ...ownWithAttributes(pattern)]);
  for (const copy of item.copies) fields.add(copy.as);
  for (const counter of item.counts) fields.add(counter.as);
  for (const embed of item.embeds) fields.add(embed.as);
  // Follow-up reads need the keys of the related items.
  for (const relationship of env.context.parentsOf(pattern.entity))
    for (const via of viaAttributes(relationship)) fields.add(via);
  for (const key of keyAttributes(env.context.entity(pattern.entity))) fields.add(key);
  return [...fields];
}

/**
 * The projection of a query: with `select`, the selected properties; with `truncate`, every
 * property with the cut ones as `LEFT`. None for bucket items (their `records` are shaped by the
 * function after the read).
 */
function queryProjection(
  env: PlanEnvironment,
  pattern: ReadPattern,
  placement: Placement,
): { projection?: readonly string[]; truncate?: Readonly<Record<string, number>> } {
  // A bucket item answers with its `records`: the function shapes them after the read.
  if (placement.item.bucket !== undefined) return {};
  const cuts = pattern.truncate;
  if (pattern.select === undefined && cuts.length === 0) return {};
  const projection = projectionOf(env, pattern, placement);
  const truncate = Object.fromEntries(
    cuts.filter((cut) => projection.includes(cut.attribute)).map((cut) => [cut.attribute, cut.bytes]),
  );
  // At most `bytes` characters; the function then cuts to bytes (a character takes 1 to 4).
  return Object.keys(truncate).length === 0 ? { projection } : { projection, truncate };
}

/** What the function returns of each item, when the pattern shapes it (`select`, `truncate`). */
function returnedShapeOf(
  env: PlanEnvironment,
  pattern: ReadPattern,
  placement: Placement,
): ReadPlan["returnedShape"] {
  if (pattern.select === undefined && pattern.truncate.length === 0) return undefined;
  return {
    ...(pattern.select === undefined ? {} : { properties: projectionOf(env, pattern, placement) }),
    truncate: pattern.truncate,
    bucketed: placement.item.bucket !== undefined,
  };
}

function queryNote(routing: Routing, partitions: number): string {
  switch (routing.scope) {
    case "single":
      return "single-partition query";
    case "prefix":
      return `targeted query on the first ${routing.knownLevels} level(s) of the hierarchical key`;
    case "shards":
      return `query over the ${routing.shardCount} write shards of the key (${partitions} physical partition(s))`;
    case "fanOut":
      return `fan-out over all ${partitions} physical partition(s)`;
    default:
      return routing.scope satisfies never;
  }
}

/** RU per read within this share of the cheapest are a tie a replicated item type wins. */
const REPLICA_TIE_SHARE = 0.01;

/** Plans `pattern` on every item type that stores its entity and keeps the cheapest that serves it. */
export function planRead(env: PlanEnvironment, pattern: ReadPattern): ReadPlan {
  // A read that must see every committed write (`maxStalenessSeconds: 0`) is never answered by a
  // copy the change feed keeps (`source`: it lags the writes), while the entity's own items can.
  const placements = env.context.placementsOf(pattern.entity);
  const current =
    pattern.maxStalenessSeconds === 0 ? placements.filter((p) => p.item.source === undefined) : placements;
  const options = (current.length > 0 ? current : placements).map((placement) =>
    planOnPlacement(env, pattern, placement),
  );
  const served = options.filter((option) => option.plan.served);
  const pool = served.length > 0 ? served : options;
  // Equally cheap (within REPLICA_TIE_SHARE), a replicated copy of the item type a read would use
  // takes the read: that is what it is kept for (its load spreads over the replicas; it holds a few
  // bytes more than its source).
  const itemOf = (option: Option) =>
    env.context
      .placementsOf(pattern.entity)
      .find((p) => p.container.name === option.plan.container && p.item.type === option.plan.itemType)?.item;
  const replicatesIt = (copy: Option, source: Option): boolean => {
    const item = itemOf(copy);
    return (
      (item?.replicas ?? 1) > 1 &&
      item?.source?.container === source.plan.container &&
      item.source.type === source.plan.itemType
    );
  };
  // A query over write shards costs each physical partition it visits: a replicated copy that
  // follows its source's shards visits more of them only because it has more partitions (its
  // replicas' data and load), so the two are compared per partition visited.
  const perVisit = (option: Option): number => {
    const first = option.plan.operations[0];
    return first?.kind === "query" && first.scope === "shards"
      ? option.total / Math.max(1, first.partitions)
      : option.total;
  };
  const sameShards = (copy: Option, source: Option): boolean => {
    const copyFirst = copy.plan.operations[0];
    const sourceFirst = source.plan.operations[0];
    const copyItem = itemOf(copy);
    const sourceItem = itemOf(source);
    return (
      copyFirst?.kind === "query" &&
      copyFirst.scope === "shards" &&
      sourceFirst?.kind === "query" &&
      sourceFirst.scope === "shards" &&
      copyItem?.shards !== undefined &&
      copyItem.shards === sourceItem?.shards &&
      copyItem.shardBy === sourceItem.shardBy
    );
  };
  const tied = (x: Option, y: Option): boolean =>
    x.total <= y.total * (1 + REPLICA_TIE_SHARE) ||
    (sameShards(x, y) && perVisit(x) <= perVisit(y) * (1 + REPLICA_TIE_SHARE));
  const better = (b: Option, a: Option): boolean =>
    replicatesIt(b, a) && tied(b, a) ? true : replicatesIt(a, b) && tied(a, b) ? false : b.total < a.total;
  const best = pool.reduce<Option | undefined>(
    (a, b) => (a === undefined || better(b, a) ? b : a),
    undefined,
  );
  if (best !== undefined) {
    // A bounded set in the pattern's order that is too small is reported even when another
    // item type answers the pattern (the set is then maintained for nothing).
    const tooSmall = options.flatMap((o) => (o.tooSmall === undefined ? [] : [o.tooSmall]));
    const tooSmallNotes = tooSmall.map((description) => `${BOUNDED_SET_NOTE}${description}`);
    const notes = [...best.plan.notes, ...tooSmallNotes.filter((note) => !best.plan.notes.includes(note))];
    return tooSmall.length === 0 ? best.plan : { ...best.plan, notes, boundedSetsTooSmall: tooSmall };
  }
  return {
    patternId: pattern.id,
    type: "read",
    kind: "fanOut",
    container: "",
    itemType: "",
    operations: [],
    fanOut: false,
    served: false,
    notes: [`no item type in the model stores ${pattern.entity}`],
  };
}
