/**
 * Refilling a bounded set (`keepLatest: N by s`) when a member leaves it: its source deleted, moved
 * to another set by a change of the set's key, or made older by a change of `s`. The set then
 * lacks the next newest record, which only the source knows: the newest N of the set's key are
 * read from the source item type (`bounded.refill`, whole items), the members of each of the
 * set's partitions they fall in (one replica: every replica receives the same writes), and the
 * two are ranked together, newest first. The source's records among the newest N that the set
 * lacks are written (as the set's insert writes them) and the members beyond N deleted, in every
 * replica. Run again for the same change it finds the set complete and writes nothing; a member
 * the source query did not return (a record created since) keeps its place while newer than the
 * N-th.
 */
import { changeOf, readValues, withCopies, type Charged, type Runtime } from "./context.js";
import {
  deletedItem,
  itemKeyOf,
  materializeItem,
  recordOf,
  relatedOf,
  templateValuesOf,
  type EntityRecord,
  type ItemTypeShape,
  type RelatedData,
  type StoredItem,
} from "./items.js";
import { bindParameters } from "./parameters.js";
import { compareValues } from "./reads.js";
import { asItems, deleteItem, queryItems } from "./requests.js";
import type { MaintenanceTask } from "./tasks.js";
import { renderKeyValue, type KeyValue } from "./templates.js";

type CopyTask = Extract<MaintenanceTask, { kind: "copy" }>;

/**
 * The replica a refill reads a set's members in, and a delete reads the member in: the last one,
 * which every loop over the replicas writes last, so a handler stopped half-way finds the change
 * not done there and repeats it.
 */
export function probeReplica(shape: Pick<ItemTypeShape, "replicas">): number {
  return shape.replicas === undefined ? 0 : shape.replicas - 1;
}

/** A record ranked for a place in one partition of the set. */
interface Candidate {
  readonly id: string;
  readonly order: unknown;
  /** The record as the set holds it (a member) or as the source holds it. */
  readonly record: EntityRecord;
  /** From the source: what its item holds besides the record (copies...). */
  readonly related?: RelatedData;
  readonly member: boolean;
  /** The record that leaves or was made older (never written or deleted here). */
  readonly leaving: boolean;
}

/** Newest first by the order value; ties by id, the greater first (the same ranking on every run). */
function newestFirst(a: Candidate, b: Candidate): number {
  const byOrder = compareValues(b.order, a.order);
  if (byOrder !== 0) return byOrder;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/**
 * Refills the set that `leaving` (a member's record, as the set holds it or as it is now: its key
 * names the set) leaves or was made older in. Returns whether `leaving` is still among the newest
 * N (a member made older that keeps its place); the caller writes or deletes it, last.
 * @example await refillBoundedSet(runtime, charged, task, feedShape, postShape, deletedPost) // false
 */
export async function refillBoundedSet(
  runtime: Runtime,
  charged: Charged,
  task: CopyTask,
  shape: ItemTypeShape,
  leaving: EntityRecord,
): Promise<boolean> {
  const keep = shape.keepLatest;
  const bounded = task.bounded;
  const refill = bounded?.refill;
  if (keep === undefined || bounded === undefined || refill === undefined) return true;
  const replicaOf = (replica: number): { replica?: number } =>
    shape.replicas === undefined ? {} : { replica };
  const probe = probeReplica(shape);
  // The newest N of the set's key, from the source.
  const sourceShape = runtime.shape(refill.container, refill.itemType);
  const values = readValues(runtime, sourceShape, leaving);
  const found = await queryItems(
    runtime.container(refill.container),
    refill.sql,
    bindParameters(refill.parameters, values, keep.count),
    refill.partitionKey?.map((template) => renderKeyValue(template, values)),
  );
  charged.requestCharge += found.requestCharge;
  // The set's partitions (in the probe replica) the leaving record and the newest N fall in.
  const partitions = new Map<
    string,
    { keys: KeyValue[]; record: EntityRecord; ranked: Map<string, Candidate> }
  >();
  const partitionOf = (record: EntityRecord): { id: string; ranked: Map<string, Candidate> } => {
    const { id, keys } = itemKeyOf(shape, record, replicaOf(probe));
    const key = JSON.stringify(keys);
    const partition = partitions.get(key) ?? { keys, record, ranked: new Map<string, Candidate>() };
    partitions.set(key, partition);
    return { id, ranked: partition.ranked };
  };
  const leavingAt = partitionOf(leaving);
  for (const item of asItems(found.items)) {
    const record = recordOf(sourceShape, item);
    const { id, ranked } = partitionOf(record);
    ranked.set(id, {
      id,
      order: record[keep.by],
      record,
      related: relatedOf(sourceShape, item),
      member: false,
      leaving: ranked === leavingAt.ranked && id === leavingAt.id,
    });
  }
  const writes: Candidate[] = [];
  const deletes: Candidate[] = [];
  let stays = false;
  for (const partition of partitions.values()) {
    const members = await queryItems(
      runtime.container(task.target.container),
      bounded.membersSql,
      bindParameters(
        bounded.parameters,
        templateValuesOf(shape, partition.record, replicaOf(probe)),
        keep.count,
      ),
      partition.keys,
    );
    charged.requestCharge += members.requestCharge;
    for (const member of asItems(members.items)) {
      const id = member["id"];
      if (typeof id !== "string") continue;
      // The leaving record ranks by its value now (the source's), or not at all (it left).
      if (partition.ranked === leavingAt.ranked && id === leavingAt.id) continue;
      const fromSource = partition.ranked.get(id);
      partition.ranked.set(
        id,
        fromSource === undefined
          ? {
              id,
              order: member[keep.by],
              record: { ...leaving, ...recordOf(shape, member) },
              member: true,
              leaving: false,
            }
          : { ...fromSource, member: true },
      );
    }
    const ranked = [...partition.ranked.values()].sort(newestFirst);
    const newest = ranked.slice(0, keep.count);
    stays ||= newest.some((candidate) => candidate.leaving);
    writes.push(...newest.filter((candidate) => !candidate.member && !candidate.leaving));
    deletes.push(...ranked.slice(keep.count).filter((candidate) => candidate.member));
  }
  // Every replica, the probe replica last.
  for (let replica = 0; replica < (shape.replicas ?? 1); replica++) {
    for (const candidate of writes) {
      const extra = { ...candidate.related, ...replicaOf(replica) };
      const item = materializeItem(
        shape,
        candidate.record,
        await withCopies(runtime, charged, shape, candidate.record, extra),
      );
      const response = await runtime.container(task.target.container).items.upsert<StoredItem>(item);
      charged.requestCharge += response.requestCharge;
      charged.changes.push(changeOf(task.target, "upsert", response.resource ?? item));
    }
    for (const candidate of deletes) {
      const { id, keys } = itemKeyOf(shape, candidate.record, replicaOf(replica));
      charged.requestCharge += await deleteItem(runtime.container(task.target.container), id, keys);
      charged.changes.push(changeOf(task.target, "delete", deletedItem(shape, candidate.record, id, keys)));
    }
  }
  return stays;
}
