/**
 * Counters kept from the change feed, exact under redelivery and under the latest-version feed's
 * folding of versions, without a write in the holder's partition per child (a viral post takes
 * thousands of reactions a second; its partition takes one counter patch per feed batch).
 *
 * - **Redelivery.** The changes of one feed batch are summed per holder and applied with one patch
 *   that also records, per feed range, the highest logical sequence number (`_lsn`) applied: the
 *   patch is conditional on the holder's mark being below the batch's, so a batch read again after
 *   a crash changes nothing twice. (When changes carry no sequence number, as on the embedded test
 *   endpoint and for changes applied in-process, the patch is unconditional.)
 * - **Folded versions** (latest-version mode). The feed shows an item's latest version only: a
 *   reaction created and removed before the feed was read arrives as a tombstone, a changed one as
 *   a second "upsert". So the counted child carries a flag, `counted:<holder type>.<counter>`, set
 *   once a holder counts it and cleared (`false`) once none does. Its value says which holder
 *   counted it: the child's values, at that time, of the attributes that address the holder (e.g.
 *   `{ "accountId": "a1" }`; `true`, as older items and loaded data may carry, is the holder the
 *   child addresses now). A live child without the flag is counted (+1 to its holder), a tombstone
 *   with the flag is uncounted (-1 to the holder the flag names), a live child whose flag names
 *   another holder than it now addresses was re-parented (-1 to the old holder, +1 to the new one),
 *   anything else changes nothing. Each holder's patch is an `incr` under its feed-range mark, the
 *   flag is set after them: a redelivered batch changes no holder twice, and a change of the child
 *   meanwhile arrives with the flag the handler set. Writes of the child carry the flag over (a
 *   replace keeps what the handlers maintain; a patch does not touch it).
 * - **Crashes.** The holders' updates and the flags are in two partitions, so they cannot commit
 *   together: the batch records them in its journal (the lease of its feed range, journal.ts)
 *   before making them, and a batch that did not finish has them replayed before it is read
 *   again. Without that, a process dying between a holder's update and the child's flag leaves
 *   a counted child unflagged: once it changes again, it is counted a second time.
 * - **In-process changes** (`applyChanges`, no feed position). A change may be stale or applied
 *   twice (a retried call): the flag is set first, conditional on the child's version the change
 *   shows (ETag), and only then is the holder updated; a flag that lost the race has the child
 *   read and judged as it is now. A hard delete (all-versions mode) has no item left to flag and
 *   is applied as given.
 * - **All versions and deletes.** Every create and delete arrives: +1 and -1, no flag (a delete
 *   event has no item to read one from); an update that carries its previous version and addresses
 *   another holder than it moves the count (-1, +1).
 */
import {
  boundAttributes,
  changeOf,
  readValues,
  type Charged,
  type ItemChange,
  type Runtime,
} from "./context.js";
import { DataAccessError, chargeOf, statusOf } from "./errors.js";
import { isTombstone, partitionKeyOfItem, recordOf, type ItemTypeShape, type StoredItem } from "./items.js";
import { patchItem, pointer, readItem, toPartitionKey } from "./requests.js";
import { patchCondition, propertyRef } from "./sql.js";
import type { IntentEntry } from "./journal.js";
import type { MaintenanceTask } from "./tasks.js";
import { renderKeyValue, renderTemplate, type KeyValue } from "./templates.js";

type CounterTask = Extract<MaintenanceTask, { kind: "counter" }>;

/** The flag a counted child carries while `task`'s holder counts it. */
export function countedFlag(task: {
  readonly holder: { readonly itemType: string };
  readonly property: string;
}): string {
  return `counted:${task.holder.itemType}.${task.property}`;
}

/**
 * The holder's mark of the highest sequence number applied from one feed range: `appliedLsn_`,
 * the counter and the range's key, anything but letters, digits and `_` as `_` (a plain identifier,
 * which every query engine reads in a patch condition).
 */
export function appliedMark(property: string, range: string): string {
  return `appliedLsn_${`${property}_${range}`.replace(/[^A-Za-z0-9_]/g, "_")}`;
}

/** The value of a counted flag: which holder counts the child (`true`: the one it addresses now). */
export type CountedFlagValue = true | Readonly<Record<string, unknown>>;

/** The flag's value when it says the child is counted; undefined when it is not (absent, false). */
export function countedFlagValue(value: unknown): CountedFlagValue | undefined {
  if (value === true) return true;
  if (typeof value === "object" && value !== null && !Array.isArray(value))
    return value as Readonly<Record<string, unknown>>;
  return undefined;
}

/** The flags of counted children an item carries (to keep them when the item is rewritten). */
export function countedFlagsOf(item: StoredItem | undefined): Record<string, CountedFlagValue> {
  const flags: Record<string, CountedFlagValue> = {};
  if (item === undefined) return flags;
  for (const [name, value] of Object.entries(item)) {
    const counted = name.startsWith("counted:") ? countedFlagValue(value) : undefined;
    if (counted !== undefined) flags[name] = counted;
  }
  return flags;
}

/** The child's properties the holder's address reads (what a counted flag records). */
export function holderAttributes(task: Pick<CounterTask, "bind">): readonly string[] {
  return [...new Set(Object.values(task.bind))];
}

/** The record's values of `names` (null for a missing one). */
function valuesOf(
  record: Readonly<Record<string, unknown>>,
  names: readonly string[],
): Record<string, unknown> {
  return Object.fromEntries(names.map((name) => [name, record[name] ?? null]));
}

/** How many attempts a holder's conditional update gets when other batches keep changing it. */
const MAX_HOLDER_ATTEMPTS = 8;

/** The work of a batch on one holder. */
export interface HolderWork {
  readonly id: string;
  readonly keys: KeyValue[];
  /** Per change: its delta and sequence number, in feed order. */
  readonly deltas: { readonly by: number; readonly lsn?: number }[];
  /** Feed range the changes came from (one processor loop: one range). */
  range?: string;
}

/** A child whose flag must follow what the holder now counts. */
interface FlagUpdate {
  readonly id: string;
  readonly keys: KeyValue[];
  /** The holder's address values that now count it, or false. */
  readonly counted: Readonly<Record<string, unknown>> | false;
}

/** A count change: +1 or -1 to the holder the record's values address. */
interface HolderDelta {
  readonly by: 1 | -1;
  readonly record: Readonly<Record<string, unknown>>;
}

/**
 * The holder deltas of a change, by the mode's rules, and the flag it leaves (undefined: as it is).
 * `record` is the child's record now; `address` its values of the holder's address attributes.
 */
function deltasOf(
  mode: Runtime["changeFeedMode"],
  flag: string,
  shape: ItemTypeShape,
  change: ItemChange,
  record: Readonly<Record<string, unknown>>,
  names: readonly string[],
): { readonly deltas: readonly HolderDelta[]; readonly flag?: Readonly<Record<string, unknown>> | false } {
  const address = valuesOf(record, names);
  const moved = (before: Readonly<Record<string, unknown>>): HolderDelta[] =>
    JSON.stringify(valuesOf(before, names)) === JSON.stringify(address)
      ? []
      : [
          { by: -1, record: before },
          { by: 1, record },
        ];
  if (mode === "allVersionsAndDeletes") {
    if (change.kind === "create") return { deltas: [{ by: 1, record }] };
    if (change.kind === "delete") return { deltas: [{ by: -1, record }] };
    const previous =
      change.previous === undefined ? undefined : { ...change.previous, ...recordOf(shape, change.previous) };
    return { deltas: previous === undefined ? [] : moved(previous) };
  }
  const live = change.kind !== "delete" && !isTombstone(shape, change.item);
  const counted = countedFlagValue(change.item[flag]);
  // The record as the holder that counted it saw it: the flag's values over the record's.
  const before = counted === undefined || counted === true ? record : { ...record, ...counted };
  if (live && counted === undefined) return { deltas: [{ by: 1, record }], flag: address };
  if (!live)
    return counted === undefined ? { deltas: [] } : { deltas: [{ by: -1, record: before }], flag: false };
  const deltas = moved(before);
  return deltas.length === 0 ? { deltas } : { deltas, flag: address };
}

/**
 * Applies a counter task to a batch of changes of the counted entity: one update per holder (the
 * sum, conditional on the feed range's mark when the changes carry sequence numbers), then the
 * children's flags.
 */
export async function applyCounter(
  runtime: Runtime,
  charged: Charged,
  task: CounterTask,
  sourceShape: ItemTypeShape,
  changes: readonly ItemChange[],
): Promise<void> {
  const holderShape = runtime.shape(task.holder.container, task.holder.itemType);
  const flag = countedFlag(task);
  const holders = new Map<string, HolderWork>();
  const flags: FlagUpdate[] = [];
  const names = holderAttributes(task);
  // Changes applied in-process (no feed position) may be stale or applied twice (a retried
  // applyChanges): each flag is set first, conditional on the version the change shows, and only
  // a flag that moved changes a holder.
  const inProcess = changes.every((change) => change.feed === undefined);
  for (const given of changes) {
    const settled = inProcess
      ? await settleFlag(runtime, charged, flag, sourceShape, given, names)
      : undefined;
    if (inProcess && settled === undefined) continue;
    const change = settled?.change ?? given;
    const record = { ...change.item, ...recordOf(sourceShape, change.item) };
    const found =
      settled?.found ?? deltasOf(runtime.changeFeedMode, flag, sourceShape, change, record, names);
    for (const delta of found.deltas) {
      const values = readValues(runtime, holderShape, boundAttributes(task.bind, delta.record), task.id);
      const id = renderTemplate(task.id, values);
      const keys = task.partitionKey.map((template) => renderKeyValue(template, values));
      const name = JSON.stringify([id, keys]);
      const work = holders.get(name) ?? { id, keys, deltas: [] };
      work.deltas.push(change.feed === undefined ? { by: delta.by } : { by: delta.by, lsn: change.feed.lsn });
      if (change.feed !== undefined) work.range = change.feed.range;
      holders.set(name, work);
    }
    const childId = change.item["id"];
    if (!inProcess && found.flag !== undefined && typeof childId === "string") {
      flags.push({ id: childId, keys: partitionKeyOfItem(sourceShape, change.item), counted: found.flag });
    }
  }
  // The holders' updates and the flags are in two partitions: the batch's journal (the lease of
  // its feed range) records them first, so a crash between them is replayed, not half-applied.
  const journal = changes.find((change) => change.feed?.journal !== undefined)?.feed?.journal;
  if (journal !== undefined && flags.length > 0) {
    await journal.record([
      ...[...holders.values()].map((work): IntentEntry => ({
        kind: "counter",
        container: task.holder.container,
        itemType: task.holder.itemType,
        property: task.property,
        id: work.id,
        keys: work.keys,
        deltas: work.deltas,
        ...(work.range === undefined ? {} : { range: work.range }),
      })),
      ...flags.map((child): IntentEntry => ({
        kind: "set",
        container: sourceShape.container,
        id: child.id,
        keys: child.keys,
        property: flag,
        value: child.counted,
      })),
    ]);
  }
  for (const work of holders.values()) {
    const updated = await updateHolder(runtime, charged, task, work);
    if (updated !== undefined) charged.changes.push(changeOf(task.holder, "update", updated));
  }
  const container = runtime.container(sourceShape.container);
  for (const child of flags) {
    const patched = await patchItem(container, child.id, child.keys, [
      { op: "set", path: pointer(flag), value: child.counted },
    ]);
    charged.requestCharge += patched.requestCharge;
  }
}

/** How often a flag's conditional update is tried again on a child that keeps changing. */
const MAX_FLAG_ATTEMPTS = 8;

/**
 * Sets the flag a change of a counted child calls for, conditional on the child's version the
 * change shows (its ETag); when the child changed since (a change applied twice, or a newer
 * write), its current version is read and judged instead. Returns the change judged and its
 * deltas, to be applied to the holders; undefined when the change calls for nothing.
 */
async function settleFlag(
  runtime: Runtime,
  charged: Charged,
  flag: string,
  shape: ItemTypeShape,
  given: ItemChange,
  names: readonly string[],
): Promise<{ change: ItemChange; found: ReturnType<typeof deltasOf> } | undefined> {
  const container = runtime.container(shape.container);
  let change = given;
  for (let attempt = 1; attempt <= MAX_FLAG_ATTEMPTS; attempt++) {
    const record = { ...change.item, ...recordOf(shape, change.item) };
    // A hard delete has no item left to flag: all-versions-and-deletes rules (-1). Every other
    // change is judged by its flag, as the latest-version feed's changes are.
    if (change.kind === "delete" && runtime.changeFeedMode === "allVersionsAndDeletes")
      return { change, found: deltasOf("allVersionsAndDeletes", flag, shape, change, record, names) };
    const found = deltasOf("latestVersion", flag, shape, change, record, names);
    const id = change.item["id"];
    if (found.flag === undefined || typeof id !== "string")
      return found.deltas.length === 0 ? undefined : { change, found };
    const keys = partitionKeyOfItem(shape, change.item);
    const etag = change.item["_etag"];
    try {
      const response = await container
        .item(id, toPartitionKey(keys))
        .patch<StoredItem>(
          [{ op: "set", path: pointer(flag), value: found.flag }],
          typeof etag === "string" ? { accessCondition: { type: "IfMatch", condition: etag } } : {},
        );
      charged.requestCharge += response.requestCharge;
      return { change, found };
    } catch (error) {
      charged.requestCharge += chargeOf(error);
      // A child deleted since: its delete is a change of its own.
      if (statusOf(error) === 404) return undefined;
      if (statusOf(error) !== 412) throw error;
    }
    const read = await readItem(container, id, keys);
    charged.requestCharge += read.requestCharge;
    if (read.item === undefined) return undefined;
    change = { kind: isTombstone(shape, read.item) ? "delete" : "upsert", item: read.item };
  }
  throw new DataAccessError(
    "conflict",
    `the ${shape.type} ${String(given.item["id"])} kept changing while its ${flag} was set (${MAX_FLAG_ATTEMPTS} attempts)`,
    { context: { container: shape.container, id: String(given.item["id"]) } },
  );
}

/** The holder's counter changed by the batch's sum; once per feed range position when known. */
export async function updateHolder(
  runtime: Runtime,
  charged: Charged,
  task: {
    readonly holder: { readonly container: string; readonly itemType: string };
    readonly property: string;
  },
  work: HolderWork,
): Promise<StoredItem | undefined> {
  const container = runtime.container(task.holder.container);
  const lsns = work.deltas.flatMap((delta) => (delta.lsn === undefined ? [] : [delta.lsn]));
  if (work.range === undefined || lsns.length !== work.deltas.length) {
    const by = work.deltas.reduce((sum, delta) => sum + delta.by, 0);
    if (by === 0) return undefined;
    const patched = await patchItem(container, work.id, work.keys, [
      { op: "incr", path: pointer(task.property), value: by },
    ]);
    charged.requestCharge += patched.requestCharge;
    if (patched.item === undefined) throw holderMissing(task, work);
    return patched.item;
  }
  const mark = appliedMark(task.property, work.range);
  const highest = Math.max(...lsns);
  // Optimistic: nothing of this batch applied yet (the holder's mark is below its first change).
  let applied = Math.min(...lsns) - 1;
  let etag: string | undefined;
  for (let attempt = 1; attempt <= MAX_HOLDER_ATTEMPTS; attempt++) {
    const by = work.deltas.reduce((sum, delta) => sum + ((delta.lsn ?? 0) > applied ? delta.by : 0), 0);
    if (applied >= highest) return undefined;
    try {
      const response = await container.item(work.id, toPartitionKey(work.keys)).patch<StoredItem>(
        {
          operations: [
            ...(by === 0 ? [] : [{ op: "incr" as const, path: pointer(task.property), value: by }]),
            { op: "set", path: pointer(mark), value: highest },
          ],
          ...(etag === undefined
            ? {
                condition: patchCondition(
                  `NOT IS_DEFINED(${propertyRef(mark)}) OR ${propertyRef(mark)} <= ${applied}`,
                ),
              }
            : {}),
        },
        etag === undefined ? {} : { accessCondition: { type: "IfMatch", condition: etag } },
      );
      charged.requestCharge += response.requestCharge;
      return response.resource;
    } catch (error) {
      charged.requestCharge += chargeOf(error);
      if (statusOf(error) === 404) throw holderMissing(task, work);
      if (statusOf(error) !== 412) throw error;
    }
    // Some of the batch was applied already (a redelivery), or another batch moved the mark.
    const read = await readItem(container, work.id, work.keys);
    charged.requestCharge += read.requestCharge;
    if (read.item === undefined) throw holderMissing(task, work);
    const current = read.item[mark];
    applied = typeof current === "number" ? current : Number.NEGATIVE_INFINITY;
    etag = typeof read.item["_etag"] === "string" ? read.item["_etag"] : undefined;
  }
  throw new DataAccessError(
    "conflict",
    `the ${task.holder.itemType} ${work.id} kept changing while its ${task.property} was updated (${MAX_HOLDER_ATTEMPTS} attempts)`,
    { context: { container: task.holder.container, id: work.id } },
  );
}

function holderMissing(
  task: {
    readonly holder: { readonly container: string; readonly itemType: string };
    readonly property: string;
  },
  work: HolderWork,
): DataAccessError {
  return new DataAccessError(
    "notFound",
    `the ${task.holder.itemType} ${work.id} whose ${task.property} counts these changes does not exist (yet): the batch is retried`,
    { context: { container: task.holder.container, id: work.id } },
  );
}
