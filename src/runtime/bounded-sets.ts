/**
 * Bounded sets (`keepLatest: N by s`, with or without replicas) kept from the change feed at the
 * cost the plan states: a replica is touched only when the changed item is in the set or enters
 * it. The item is read in one replica (a member is rewritten in every replica); otherwise the
 * set's members (id and `s`) are read once from one replica, and an item newer than the oldest
 * member (any item while the set has fewer than N) is written into every replica, the oldest
 * beyond N deleted from every replica. An update known as such (all-versions feed, or this
 * module's own writes) of an item outside the set skips the members when `s` cannot change.
 * A member that leaves (deleted, or made older) is replaced from the source first
 * (`bounded-set-refill.ts`), then removed or rewritten.
 */
import { changeOf, withCopies, type Charged, type ItemChange, type Runtime } from "./context.js";
import {
  deletedItem,
  itemKeyOf,
  materializeItem,
  recordOf,
  relatedOf,
  templateValuesOf,
  type ItemTypeShape,
  type StoredItem,
} from "./items.js";
import { bindParameters } from "./parameters.js";
import { removeItem } from "./removal.js";
import { asItems, deleteItem, queryItems, readItem } from "./requests.js";
import { compareValues } from "./reads.js";
import type { IntentEntry } from "./journal.js";
import type { MaintenanceTask } from "./tasks.js";
import { parseTemplate, type KeyValue } from "./templates.js";
import { probeReplica, refillBoundedSet } from "./bounded-set-refill.js";

type CopyTask = Extract<MaintenanceTask, { kind: "copy" }>;

/**
 * Where the changed item's members are now (one address per replica, whether it is in the set
 * there or not), and whether it was missing there (`created`: a set it may have left under an old
 * key is then searched, `removeStaleCopies`).
 */
export interface BoundedSetOutcome {
  readonly addresses: readonly { readonly id: string; readonly keys: readonly KeyValue[] }[];
  readonly created: boolean;
}

/** Keeps the bounded set `task.target` in step with one change of its source. */
export async function maintainBoundedSet(
  runtime: Runtime,
  charged: Charged,
  task: CopyTask,
  shape: ItemTypeShape,
  sourceShape: ItemTypeShape,
  change: ItemChange,
): Promise<BoundedSetOutcome> {
  const keep = shape.keepLatest;
  const bounded = task.bounded;
  if (keep === undefined || bounded === undefined) return { addresses: [], created: false };
  const container = runtime.container(task.target.container);
  const record = recordOf(sourceShape, change.item);
  const related = relatedOf(sourceShape, change.item);
  const replicas = shape.replicas ?? 1;
  const addressOf = (replica: number): { id: string; keys: KeyValue[] } =>
    itemKeyOf(shape, record, { ...related, ...(shape.replicas === undefined ? {} : { replica }) });
  // One replica answers for all: they receive the same writes. A delete reads the replica its
  // loops write last (a handler stopped half-way finds the member there and repeats the
  // delete); other changes pick one at random, spreading the reads as the plan charges them.
  const probe =
    change.kind === "delete" || shape.replicas === undefined
      ? probeReplica(shape)
      : Math.floor(runtime.random() * replicas);
  const probed = addressOf(probe);
  const member = await readItem(container, probed.id, probed.keys);
  charged.requestCharge += member.requestCharge;
  const outcome: BoundedSetOutcome = {
    addresses: Array.from({ length: replicas }, (_, replica) => addressOf(replica)),
    created: member.item === undefined,
  };
  if (change.kind === "delete") {
    if (member.item === undefined) return outcome;
    // A source that moves (a create and a delete in two logical partitions, delivered in any
    // order): the delete removes the member only if it still holds the deleted version.
    // The attributes that address the source (its id and key templates, its shard's attribute)
    // tell the versions apart: a member holding other values was written by the move's create.
    const held = recordOf(shape, member.item);
    const addressing = [sourceShape.id, ...sourceShape.partitionKey].flatMap((template) =>
      parseTemplate(template).flatMap((part) => (part.kind === "attribute" ? [part.name] : [])),
    );
    const checked = [
      ...new Set([
        ...(task.checkBeforeDelete ?? []),
        ...addressing,
        ...(sourceShape.shardBy === undefined ? [] : [sourceShape.shardBy]),
      ]),
    ];
    if (checked.some((name) => JSON.stringify(held[name]) !== JSON.stringify(record[name]))) return outcome;
    // The next newest takes its place (from the source), before the member goes.
    await refillBoundedSet(runtime, charged, task, shape, held);
    for (let replica = 0; replica < replicas; replica++) {
      const { id, keys } = addressOf(replica);
      const removed = await removeItem(container, shape, id, keys);
      charged.requestCharge += removed.requestCharge;
      charged.changes.push(
        changeOf(task.target, "delete", removed.tombstone ?? deletedItem(shape, record, id, keys)),
      );
    }
    return outcome;
  }
  let evicted: StoredItem[] = [];
  if (
    member.item !== undefined &&
    bounded.refill !== undefined &&
    compareValues(record[keep.by], member.item[keep.by]) < 0
  ) {
    // A member made older: a record outside the set may now be newer. The set is refilled
    // from the source first (the member still holds its old value until it is rewritten last).
    const stays = await refillBoundedSet(runtime, charged, task, shape, record);
    if (!stays) {
      for (let replica = 0; replica < replicas; replica++) {
        const { id, keys } = addressOf(replica);
        charged.requestCharge += await deleteItem(container, id, keys);
        charged.changes.push(changeOf(task.target, "delete", deletedItem(shape, record, id, keys)));
      }
      return outcome;
    }
  }
  if (member.item === undefined) {
    // An update of an item outside the set cannot enter it when its order value cannot change.
    if (change.kind === "update" && !bounded.sortMayChange) return outcome;
    // The set's partition as the members query names it (its write shard and replica included).
    const values = templateValuesOf(shape, record, {
      ...related,
      ...(shape.replicas === undefined ? {} : { replica: probe }),
    });
    const found = await queryItems(
      container,
      bounded.membersSql,
      bindParameters(bounded.parameters, values, keep.count),
      probed.keys,
    );
    charged.requestCharge += found.requestCharge;
    const members = asItems(found.items).sort((a, b) => -compareValues(a[keep.by], b[keep.by]));
    const oldest = members[keep.count - 1];
    const enters = oldest === undefined || compareValues(record[keep.by], oldest[keep.by]) > 0;
    if (!enters) return outcome;
    // The item takes a place: the members beyond N - 1 leave.
    evicted = members.slice(keep.count - 1).filter((item) => item["id"] !== probed.id);
  }
  // The members leaving, recorded first in the batch's journal (the lease of its feed range): a
  // process that dies after the new member landed and before they left has them deleted when the
  // batch is replayed (the redelivered change then finds the member and would evict nothing).
  const journal = change.feed?.journal;
  if (journal !== undefined && evicted.length > 0) {
    const leaving: IntentEntry[] = [];
    for (let replica = 0; replica < replicas; replica++) {
      const { keys } = addressOf(replica);
      for (const gone of evicted) {
        const { id } = itemKeyOf(
          shape,
          { ...record, ...recordOf(shape, gone) },
          { ...(shape.replicas === undefined ? {} : { replica }) },
        );
        leaving.push({ kind: "delete", container: task.target.container, id, keys });
      }
    }
    await journal.record(leaving);
  }
  for (let replica = 0; replica < replicas; replica++) {
    const { keys } = addressOf(replica);
    const extra = { ...related, ...(shape.replicas === undefined ? {} : { replica }) };
    const item = materializeItem(shape, record, await withCopies(runtime, charged, shape, record, extra));
    const response = await container.items.upsert<StoredItem>(item);
    charged.requestCharge += response.requestCharge;
    charged.changes.push(changeOf(task.target, "upsert", response.resource ?? item));
    for (const gone of evicted) {
      // The member's id in this replica (an id may use {replica}), in the set's partition.
      const leaving = { ...record, ...recordOf(shape, gone) };
      const { id } = itemKeyOf(shape, leaving, { ...(shape.replicas === undefined ? {} : { replica }) });
      charged.requestCharge += await deleteItem(container, id, keys);
      charged.changes.push(changeOf(task.target, "delete", deletedItem(shape, leaving, id, keys)));
    }
  }
  return outcome;
}
