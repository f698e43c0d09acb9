/**
 * Plans a write access pattern on a model: the primary write of every item type that stores the
 * entity (moves when the write changes an id or key, buckets amortized, replicas multiplied),
 * counters in the same logical partition in the same transactional batch, and the change-feed
 * work it triggers: counters elsewhere, copies (`source`) replayed into other containers
 * (`plan-replay.ts`), and propagation of changed attributes to every item holding a copy of them
 * (`plan-propagation.ts`).
 */
import { addressingAttributes, attributesChangedBy, movedBy, unmovableReason } from "../model/key-changes.js";
import { counterInBatch, parentBinding, relationshipOf, unboundAddress } from "../model/provenance.js";
import type { WritePattern } from "../workload/types.js";
import { anyChangeProbability, changeKind, changeProbability } from "./changes.js";
import type { Placement } from "./context.js";
import type { PlanEnvironment } from "./environment.js";
import { binnedWriteSteps } from "./plan-binning.js";
import { planMove } from "./plan-move.js";
import { planPropagations, unreachableCopies } from "./plan-propagation.js";
import { replayCopies } from "./plan-replay.js";
import { boundedSetRefillFindings } from "./plan-bounded-sets.js";
import { feedStep, sumOf, writeStep } from "./plan-steps.js";
import { childQuery } from "./follow-ups.js";
import { copyRefreshReads } from "./plan-copy-refresh.js";
import { recencyAttribute } from "../workload/recency.js";
import { DEFAULT_TOMBSTONE_TTL_SECONDS } from "../model/deletes.js";
import { writeInputOf } from "../model/write-inputs.js";
import type {
  BatchStep,
  ChangeFeedStep,
  PlannedMove,
  PlannedRefill,
  PlanStep,
  PointReadStep,
  QueryStep,
  WriteFinding,
  WritePlan,
  WriteStep,
} from "./types.js";

/** The note of a soft delete: a patch that leaves a tombstone for the change feed. */
function softDeleteNote(env: PlanEnvironment, placement: Placement, tombstone: string): string {
  const deletes = env.context.deletes();
  const ttl = deletes.mode === "softDelete" ? deletes.ttlSeconds : DEFAULT_TOMBSTONE_TTL_SECONDS;
  return `soft delete: patch ${placement.item.type}.${tombstone} = true and ttl ${ttl} s (the change feed carries the tombstone to the counters and copies; it expires after the ttl)`;
}

/**
 * The counted child's flag (`src/runtime/counters.ts`): in latest-version mode the handler marks
 * the child counted (or no longer) after the holder's summed update, one patch per child in the
 * child's own partition, so a folded or redelivered version is not counted twice. None with all
 * versions and deletes (every create and delete arrives once per sequence number).
 */
function counterFlagSteps(env: PlanEnvironment, child: Placement | undefined, times: number): WriteStep[] {
  if (child === undefined || env.context.deletes().mode === "allVersionsAndDeletes") return [];
  return [
    writeStep(
      env,
      child,
      "patch",
      times,
      `flag the ${child.item.type} as counted (or no longer) for the next change`,
      ["counted"],
    ),
  ];
}

/**
 * True when a holder of a parent's counter is kept in the child item's transactional batch (one
 * logical partition, no write re-parents the child: `counterInBatch`).
 */
function batchedWith(env: PlanEnvironment, holder: Placement, child: Placement): boolean {
  return counterInBatch(env.context.workload, holder, child);
}

/** What the writes of a pattern's primary item types (not copies) add to its plan. */
interface PrimaryWrites {
  /** The write of each item type that counters and copies follow. */
  readonly writes: Map<Placement, WriteStep>;
  /** Moves go first: a create under a unique id (a lookup item) can refuse the whole write (409). */
  readonly moveSteps: PlanStep[];
  readonly moves: PlannedMove[];
  /** Buckets created with their first records (after the appends that find no bucket). */
  readonly bucketCreates: PlanStep[];
  readonly async: ChangeFeedStep[];
  readonly notes: string[];
  readonly findings: WriteFinding[];
}

/**
 * The share of `pattern`'s requests that rewrite a projection (`select`): an update rewrites it
 * only when it changes one of its attributes; undefined when the item is not a projection or the
 * write is not an update of known attributes.
 */
function projectionShare(
  env: PlanEnvironment,
  pattern: WritePattern,
  placement: Placement,
): number | undefined {
  const projected = placement.item.select;
  if (projected === undefined || changeKind(pattern) !== "update" || pattern.changes === undefined)
    return undefined;
  return Math.min(
    1,
    Math.max(
      0,
      ...pattern.changes
        .filter((name) => projected.includes(name))
        .map((name) => changeProbability(env, pattern, name)),
    ),
  );
}

/**
 * A write that changes the item's id or key (`moved`, in a share `moveShare` of requests): planned
 * as a move (find, create under the new address, delete the old) with the change-feed work of
 * the creates, deletes and in-place updates it makes; false when the item cannot move (a
 * `keyChangedInPlace` finding is added instead).
 */
function planPrimaryMove(
  env: PlanEnvironment,
  pattern: WritePattern,
  placement: Placement,
  moved: readonly string[],
  moveShare: number,
  out: PrimaryWrites,
): boolean {
  const reason = unmovableReason(placement.item, env.context);
  if (reason !== undefined) {
    out.findings.push({
      kind: "keyChangedInPlace",
      container: placement.container.name,
      itemType: placement.item.type,
      attributes: moved,
      reason,
    });
    return false;
  }
  const entity = env.context.entity(pattern.entity);
  // A patch that changes nothing but the address writes nothing when the address stays.
  const stored = placement.item.select ?? entity.attributes.map((a) => a.name);
  const patchesMore =
    pattern.operation !== "patch" ||
    [...attributesChangedBy(entity, pattern)].some((name) => !moved.includes(name) && stored.includes(name));
  const inPlace = patchesMore ? Math.max(0, (projectionShare(env, pattern, placement) ?? 1) - moveShare) : 0;
  // With soft deletes the old item becomes a tombstone (a patch), so its counters and copies follow.
  const tombstone = env.context.tombstone(placement.container.name, placement.item.type);
  const planned = planMove(env, pattern, placement, moved, moveShare, inPlace, (op, times, note) =>
    op === "delete" && tombstone !== undefined
      ? writeStep(env, placement, "patch", times, softDeleteNote(env, placement, tombstone), [
          tombstone,
          "ttl",
        ])
      : writeStep(env, placement, op, times, note, op === pattern.operation ? pattern.changes : undefined),
  );
  out.moveSteps.push(...planned.steps);
  out.moves.push(planned.move);
  out.notes.push(planned.note);
  out.async.push(
    ...replayCopies(env, placement, "update", inPlace * pattern.batch, pattern),
    ...replayCopies(env, placement, "create", moveShare * pattern.batch, pattern),
    ...replayCopies(env, placement, "delete", moveShare * pattern.batch, pattern),
  );
  return true;
}

/**
 * The writes of every item type that stores the pattern's entity as its own (not a copy): moves
 * when the write changes an id or key, projections rewritten only when their attributes change,
 * bucket appends, replicas multiplied.
 */
function planPrimaryWrites(
  env: PlanEnvironment,
  pattern: WritePattern,
  primaries: readonly Placement[],
): PrimaryWrites {
  const kind = changeKind(pattern);
  const entity = env.context.entity(pattern.entity);
  const out: PrimaryWrites = {
    writes: new Map(),
    moveSteps: [],
    moves: [],
    bucketCreates: [],
    async: [],
    notes: [],
    findings: [],
  };
  for (const placement of primaries) {
    // A projection (`select`) is only rewritten when the write changes one of its attributes.
    const touchedShare = projectionShare(env, pattern, placement);
    // A write that changes the item's id or key moves it (delete + create), or cannot.
    const moved = movedBy(entity, placement.item, pattern);
    const moveShare = anyChangeProbability(env, pattern, moved);
    if (moveShare > 0 && planPrimaryMove(env, pattern, placement, moved, moveShare, out)) continue;
    const projected = placement.item.select;
    if (projected !== undefined && touchedShare !== undefined) {
      if (touchedShare === 0) continue;
      const touched = pattern.changes?.filter((name) => projected.includes(name)) ?? [];
      out.writes.set(
        placement,
        writeStep(
          env,
          placement,
          pattern.operation,
          touchedShare * pattern.batch,
          `${pattern.operation} the ${placement.item.type} when ${touched.join(", ")} change`,
          pattern.changes,
        ),
      );
      continue;
    }
    if (placement.item.bucket !== undefined && kind === "create") {
      // Appended to the bucket item by a patch per record (or per buffered records).
      const binned = binnedWriteSteps(env, pattern, placement);
      // The write that counters and copies follow: the appends, or the creates of whole buckets.
      const followed = binned.append.times > 0 ? binned.append : binned.create;
      out.writes.set(placement, followed);
      out.bucketCreates.push(
        ...[binned.missing, binned.create].filter((step) => step.times > 0 && step !== followed),
      );
      continue;
    }
    const records = env.recordsPerBucket(placement.item);
    const replicas = placement.item.replicas ?? 1;
    const times = (pattern.batch * replicas) / records;
    // A soft delete patches a tombstone that the change feed carries to counters and copies.
    const tombstone =
      kind === "delete" ? env.context.tombstone(placement.container.name, placement.item.type) : undefined;
    const note =
      tombstone !== undefined
        ? softDeleteNote(env, placement, tombstone)
        : replicas > 1
          ? `written to each of the ${replicas} replicas`
          : `${pattern.operation} the ${placement.item.type} item`;
    out.writes.set(
      placement,
      tombstone === undefined
        ? writeStep(env, placement, pattern.operation, times, note, pattern.changes)
        : writeStep(env, placement, "patch", times, note, [tombstone, "ttl"]),
    );
    // A new or rewritten item reads its parents for the copies of their attributes (a
    // re-parenting patch, the new parent).
    const copySources = copyRefreshReads(env, pattern, placement);
    out.moveSteps.push(...copySources.reads);
    out.findings.push(...copySources.findings);
  }
  return out;
}

/**
 * Children embedded in a parent item: the parent is patched with each write, unless the children
 * are created in the same request as their parent (then they are part of the parent's create).
 */
function planEmbeddedWrites(
  env: PlanEnvironment,
  pattern: WritePattern,
): {
  operations: PlanStep[];
  async: ChangeFeedStep[];
  notes: string[];
  writtenWithParent: WritePlan["writtenWithParent"];
  refills: PlannedRefill[];
  findings: WriteFinding[];
} {
  const { context } = env;
  const kind = changeKind(pattern);
  const findings: WriteFinding[] = [];
  const operations: PlanStep[] = [];
  const async: ChangeFeedStep[] = [];
  const notes: string[] = [];
  const refills: PlannedRefill[] = [];
  let writtenWithParent: WritePlan["writtenWithParent"];
  for (const { container, item } of context.embeddersOf(pattern.entity)) {
    const embed = item.embeds.find((e) => e.entity === pattern.entity);
    if (embed === undefined) continue;
    const parent: Placement = { container, item };
    const relationship = context.relationship(item.entity, pattern.entity);
    // A write that changes the via may move the child to another parent: it patches the new
    // parent, and nothing finds the old one to take the child out of it.
    const moved = relationship?.via?.filter((name) => changeProbability(env, pattern, name) > 0) ?? [];
    if (moved.length > 0)
      findings.push({
        kind: "embedReparented",
        container: container.name,
        itemType: item.type,
        entity: pattern.entity,
        holder: item.entity,
        via: moved,
      });
    // Children created in the same request as their parent (the parent's creates times its
    // children match this pattern's writes) are part of the parent's create: no extra write.
    const parentCreates = context
      .writesOf(item.entity)
      .filter((p) => p.type === "write" && p.operation === "create")
      .reduce((sum, p) => sum + p.rps.avg * (p.type === "write" ? p.batch : 1), 0);
    const childWrites = pattern.rps.avg * pattern.batch;
    const together =
      kind === "create" &&
      embed.latest === undefined &&
      relationship !== undefined &&
      parentCreates > 0 &&
      Math.abs(parentCreates * relationship.avg - childWrites) <= 0.2 * childWrites;
    if (together) {
      writtenWithParent ??= {
        parent: item.entity,
        container: container.name,
        itemType: item.type,
        as: embed.as,
      };
      notes.push(
        `${pattern.entity} is embedded in ${item.type}.${embed.as} and written with its ${item.entity} (${parentCreates}/s creates x ${relationship.avg} = ${childWrites}/s): no write of its own`,
      );
      continue;
    }
    // The child's record gives the parent's key (its via) and nothing else of the parent.
    const missing =
      relationship === undefined
        ? [...addressingAttributes(item)]
        : [...unboundAddress(item, parentBinding(context.workload, relationship))];
    if (missing.length > 0)
      findings.push({
        kind: "embedNotAddressable",
        container: container.name,
        itemType: item.type,
        entity: pattern.entity,
        holder: item.entity,
        missing,
      });
    // One patch per request adds (or changes) the request's children in the parent item, after
    // a read of it: the runtime changes the embedded value it holds and patches it only if the
    // parent is unchanged since (ETag), so two children written at once both land.
    const read: PointReadStep = {
      kind: "pointRead",
      container: container.name,
      itemType: item.type,
      id: item.id,
      partitionKey: item.partitionKey,
      ...env.charge({ op: "read", itemBytes: env.shape(parent).avgBytes }),
      times: 1,
      note: `read the ${item.type} for its embedded ${embed.as} (the patch is conditional on its ETag)`,
    };
    const step = writeStep(env, parent, "patch", 1, `update the embedded ${embed.as} of the ${item.type}`, [
      embed.as,
    ]);
    operations.push(read, step);
    async.push(...replayCopies(env, parent, "update", 1));
    if (embed.latest === undefined || relationship?.via === undefined) continue;
    const refill = planRefill(env, pattern, parent, embed.latest, relationship.via, relationship.avg);
    if (refill.step !== undefined) {
      operations.push(refill.step);
      refills.push({
        container: container.name,
        itemType: item.type,
        query: {
          container: refill.step.container,
          itemType: refill.step.itemType,
          sql: refill.step.sql,
          parameters: refill.step.parameters,
          ...(refill.step.partitionKey === undefined ? {} : { partitionKey: refill.step.partitionKey }),
        },
      });
    }
    notes.push(...refill.notes);
  }
  return { operations, async, notes, writtenWithParent, refills, findings };
}

/**
 * A `latest: N` embed keeps the N newest children (`workload/recency.ts`). A delete of a kept
 * child, or an update that makes one older than the rest, leaves the next newest unknown to the
 * parent: the runtime reads the N newest from the children's own items (the follow-up query of
 * `latest(X, N)`), for the share of writes that hit a kept child (N of the parent's `avg`
 * children, deletes and time changes assumed uniform over them) when the kept set is full.
 */
function planRefill(
  env: PlanEnvironment,
  pattern: WritePattern,
  parent: Placement,
  latest: number,
  via: readonly string[],
  childrenPerParent: number,
): { step?: QueryStep; notes: string[] } {
  const by = recencyAttribute(env.context.entity(pattern.entity));
  const kept = Math.min(1, latest / Math.max(childrenPerParent, 1));
  const changesTime =
    changeKind(pattern) === "delete" ? 1 : by === undefined ? 0 : changeProbability(env, pattern, by);
  const share = kept * changesTime;
  if (share === 0) return { notes: [] };
  const entry = { kind: "latest", entity: pattern.entity, n: latest } as const;
  // The siblings of the written child share its via (their parent), and nothing else is known
  // to be the same: the written record gives only that.
  const found = childQuery(
    env,
    { entity: parent.item.entity },
    entry,
    via,
    childrenPerParent,
    share * pattern.batch,
    Object.fromEntries(via.map((name) => [name, name])),
  );
  const what = `the newest ${latest} ${pattern.entity} embedded in ${parent.item.type}`;
  if (found !== undefined && !found.orderServedByIndex) {
    // Cosmos DB would refuse the refill query: the runtime must not run it.
    return {
      notes: [
        `${what} cannot be refilled after a kept ${pattern.entity} leaves (the ORDER BY of the query on ${found.itemType} in ${found.container} is served by no index): the parent keeps fewer until newer ones arrive`,
      ],
    };
  }
  if (found === undefined) {
    return {
      notes: [
        `${what} cannot be refilled after a kept ${pattern.entity} leaves (no item type stores complete ${pattern.entity} records): the parent keeps fewer until newer ones arrive`,
      ],
    };
  }
  const { perResult: _perResult, ...perWrite } = found;
  const step: QueryStep = {
    ...perWrite,
    note: `refill ${what} from the ${pattern.entity} items when a kept one leaves (${Math.round(share * 1000) / 10}% of writes: ${latest} of ${childrenPerParent} children per ${parent.item.entity})`,
  };
  return { step, notes: [] };
}

/**
 * The attributes that place a counter holder which the counted child's item does not give (the
 * holder's key through the relationship's via, and copies of parent attributes the child keeps,
 * `src/model/provenance.ts`): the change-feed handler sees only the child's item, so it cannot
 * address the holder. Never by name: a like's `userId` (the liker) is not its post's author.
 */
function holderAttributesMissing(
  env: PlanEnvironment,
  holder: Placement,
  child: Placement | undefined,
  entity: string,
): string[] {
  const relationship = relationshipOf(env.context.workload, holder.item.entity, entity);
  if (relationship === undefined) return [...addressingAttributes(holder.item)];
  return [...unboundAddress(holder.item, parentBinding(env.context.workload, relationship, child?.item))];
}

/**
 * The counter work of an update of a counted child, from the change feed (`src/runtime/counters.ts`):
 * in the share of requests that re-parent the child (its via changes) or move its item (a create
 * and a delete in the feed), the handler takes 1 from the holder that counted it and adds 1 to the
 * one it addresses now (two patches, summed per parent per batch like any counter patch), and
 * flags the child (once in place, twice for a move: the new item and the old one's tombstone).
 * Undefined when no request does either, or when the counter is kept in the child's batch (a
 * move within one parent changes no count).
 */
function movedCounts(
  env: PlanEnvironment,
  pattern: WritePattern,
  holder: Placement,
  property: string,
  feedSource: Placement | undefined,
): { readonly step: ChangeFeedStep; readonly patches: number } | undefined {
  if (feedSource !== undefined && batchedWith(env, holder, feedSource)) return undefined;
  const via = relationshipOf(env.context.workload, holder.item.entity, pattern.entity)?.via ?? [];
  const entity = env.context.entity(pattern.entity);
  const moved = feedSource === undefined ? [] : movedBy(entity, feedSource.item, pattern);
  const changed = anyChangeProbability(env, pattern, [...new Set([...via, ...moved])]);
  if (changed === 0) return undefined;
  const times = changed * pattern.batch;
  const flags = (changed + anyChangeProbability(env, pattern, moved)) * pattern.batch;
  const patch = (by: 1 | -1, whose: string): WriteStep =>
    writeStep(
      env,
      holder,
      "patch",
      times,
      `${by > 0 ? "increment" : "decrement"} ${whose} ${holder.item.type}.${property}`,
      [property],
      {
        increments: [{ property, by }],
      },
    );
  return {
    step: feedStep(
      "counter",
      feedSource ?? holder,
      holder,
      [patch(-1, "the old"), patch(1, "the new"), ...counterFlagSteps(env, feedSource, flags)],
      `change feed handler moves the count of a re-parented or moved ${pattern.entity} (${Math.round(changed * 10000) / 100}% of writes): -1 to the ${holder.item.type} that counted it, +1 to the one it names now`,
    ),
    patches: 2 * times,
  };
}

/**
 * Counters of the written entity kept on a parent item: in the same transactional batch as a
 * write in the parent's logical partition (`batched`, by that write), otherwise from the change
 * feed of `feedSource`, which must address the holder from the child's attributes (else a
 * `counterNotAddressable` finding).
 */
function planCounters(
  env: PlanEnvironment,
  pattern: WritePattern,
  writes: ReadonlyMap<Placement, WriteStep>,
  feedSource: Placement | undefined,
): { batched: Map<Placement, WriteStep[]>; async: ChangeFeedStep[]; findings: WriteFinding[] } {
  const kind = changeKind(pattern);
  const batched = new Map<Placement, WriteStep[]>();
  const async: ChangeFeedStep[] = [];
  const findings: WriteFinding[] = [];
  for (const { container, item } of env.context.counterHoldersOf(pattern.entity)) {
    const counter = item.counts.find((c) => c.of === pattern.entity);
    if (counter === undefined) continue;
    const holder: Placement = { container, item };
    if (kind === "update") {
      const moved = movedCounts(env, pattern, holder, counter.as, feedSource);
      if (moved !== undefined) async.push(moved.step, ...replayCopies(env, holder, "update", moved.patches));
      continue;
    }
    const by = kind === "delete" ? -1 : 1;
    const increment = writeStep(
      env,
      holder,
      "patch",
      pattern.batch,
      `increment ${item.type}.${counter.as}`,
      [counter.as],
      { increments: [{ property: counter.as, by }] },
    );
    const partner = [...writes.keys()].find((p) => batchedWith(env, holder, p));
    if (partner !== undefined) {
      batched.set(partner, [...(batched.get(partner) ?? []), increment]);
    } else {
      const missing = holderAttributesMissing(env, holder, feedSource, pattern.entity);
      if (missing.length > 0)
        findings.push({
          kind: "counterNotAddressable",
          container: container.name,
          itemType: item.type,
          property: counter.as,
          entity: pattern.entity,
          holder: item.entity,
          missing,
        });
      async.push(
        feedStep(
          "counter",
          feedSource ?? holder,
          holder,
          [increment, ...counterFlagSteps(env, feedSource, pattern.batch)],
          `change feed handler increments ${item.type}.${counter.as} (it can sum the changes of one batch per parent)`,
        ),
      );
    }
    async.push(...replayCopies(env, holder, "update", pattern.batch));
  }
  return { batched, async, findings };
}

/** Each primary write, or a transactional batch of it with the counters in its logical partition. */
function withBatchedCounters(
  writes: ReadonlyMap<Placement, WriteStep>,
  batched: ReadonlyMap<Placement, readonly WriteStep[]>,
): PlanStep[] {
  return [...writes].map(([placement, step]): PlanStep => {
    const increments = batched.get(placement);
    if (increments === undefined) return step;
    return {
      kind: "batch",
      container: placement.container.name,
      itemType: placement.item.type,
      partitionKey: placement.item.partitionKey,
      operations: [step, ...increments],
      ru: sumOf([step, ...increments]),
      times: 1,
      note: `transactional batch: the ${placement.item.type} and its parent's counter in one logical partition`,
    } satisfies BatchStep;
  });
}

/**
 * The read of the written record's current item, when the write's input (the key and changes
 * of a patch, the key of a delete) does not give what its steps need: the address of another
 * item type of the entity, of the parent that embeds the record or of a counter batched with it.
 */
function currentRecordRead(env: PlanEnvironment, pattern: WritePattern): PointReadStep[] {
  const input = writeInputOf(env.context.workload, env.context.model, pattern);
  const read = input.kind === "partial" ? input.readsCurrent : undefined;
  const placement = read === undefined ? undefined : env.context.placement(read.container, read.itemType);
  if (placement === undefined) return [];
  return [
    {
      kind: "pointRead",
      role: "currentRecord",
      container: placement.container.name,
      itemType: placement.item.type,
      id: placement.item.id,
      partitionKey: placement.item.partitionKey,
      ...env.charge({ op: "read", itemBytes: env.shape(placement).avgBytes }),
      times: pattern.batch,
      note: `read the current ${placement.item.type} for the attributes the ${pattern.operation}'s input does not give`,
    },
  ];
}

/** Plans a write pattern. */
export function planWrite(env: PlanEnvironment, pattern: WritePattern): WritePlan {
  const kind = changeKind(pattern);
  const primaries = env.context.placementsOf(pattern.entity).filter((p) => p.item.source === undefined);
  // The change feed that carries this pattern's changes: its primary item type's container.
  const feedSource = primaries[0];
  const primary = planPrimaryWrites(env, pattern, primaries);
  const embedded = planEmbeddedWrites(env, pattern);
  const counters = planCounters(env, pattern, primary.writes, feedSource);
  const operations: PlanStep[] = [
    ...currentRecordRead(env, pattern),
    ...primary.moveSteps,
    ...withBatchedCounters(primary.writes, counters.batched).reverse(),
    ...embedded.operations,
    ...primary.bucketCreates,
  ];
  const copies = [...primary.writes].flatMap(([placement, step]) =>
    replayCopies(env, placement, kind, step.times, pattern),
  );
  const propagations = planPropagations(env, pattern, feedSource);
  const async = [...primary.async, ...embedded.async, ...counters.async, ...copies, ...propagations.async];
  const served = primaries.length > 0 || operations.length > 0 || embedded.writtenWithParent !== undefined;
  const notes = [...primary.notes, ...embedded.notes, ...propagations.notes];
  const findings = [
    ...primary.findings,
    ...unreachableCopies(env, pattern, [...primary.writes.keys()]),
    ...counters.findings,
    ...embedded.findings,
    ...propagations.findings,
    ...boundedSetRefillFindings(env, pattern),
  ];
  if (!served) notes.push(`no item type in the model stores ${pattern.entity}`);
  return {
    patternId: pattern.id,
    type: "write",
    kind: operations.some((step) => step.kind === "batch") ? "batch" : "write",
    operations,
    async,
    served,
    notes,
    ...(primary.moves.length === 0 ? {} : { moves: primary.moves }),
    ...(embedded.refills.length === 0 ? {} : { refills: embedded.refills }),
    ...(findings.length === 0 ? {} : { findings }),
    // Only when nothing else writes the records (no item of their own, no other parent).
    ...(embedded.writtenWithParent === undefined || operations.length > 0 || async.length > 0
      ? {}
      : { writtenWithParent: embedded.writtenWithParent }),
  };
}
