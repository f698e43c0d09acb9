/**
 * Exactly-once effects of change-feed batches whose writes cannot commit together. A counter's
 * holder and the counted child's flag live in two partitions (often two containers), and the
 * newest member entering a bounded set and the oldest leaving it are two writes: a process that
 * dies between them would leave a holder that counted a child whose flag says it did not (the
 * child's next change counts it again), or a set of N + 1. So a handler that makes such writes
 * first records them, as data, in the lease of the feed range it reads (`Journal.record`; the
 * lease is one item, the record one conditional replace); the processor saves the batch's
 * checkpoint with the record cleared. A lease that still holds a record when its range is read
 * again (a restarted or retried batch) has it replayed first: every recorded write is idempotent
 * (a holder update is conditional on the holder's mark of the feed range's sequence numbers, a
 * flag is set to a value, a delete of a missing item is no error), so a write made before the
 * crash is not made twice and one not made is made. Only then is the batch delivered again, and
 * its handlers see flags and sets as the recorded batch left them. A copy that may move (its
 * address changes with its source, whose previous version the latest-version feed does not give)
 * records the search for its copies at old addresses, which a replay runs again (`copy-moves.ts`).
 */
import type { Charged, Runtime } from "./context.js";
import { replayStaleSearches } from "./copy-moves.js";
import { updateHolder } from "./counters.js";
import type { ItemRef, MaintenanceTask } from "./tasks.js";
import { deleteItem, patchItem, pointer } from "./requests.js";
import type { KeyValue } from "./templates.js";

/** One recorded write of a batch. */
export type IntentEntry =
  | {
      /** A counter's holder changed by the sum of deltas, each once per feed range position. */
      readonly kind: "counter";
      readonly container: string;
      readonly itemType: string;
      readonly property: string;
      readonly id: string;
      readonly keys: readonly KeyValue[];
      readonly deltas: readonly { readonly by: number; readonly lsn?: number }[];
      readonly range?: string;
    }
  | {
      /** A property of an item set to a value (a counted child's flag). */
      readonly kind: "set";
      readonly container: string;
      readonly id: string;
      readonly keys: readonly KeyValue[];
      readonly property: string;
      readonly value: unknown;
    }
  | {
      /** An item deleted (a member leaving a bounded set). */
      readonly kind: "delete";
      readonly container: string;
      readonly id: string;
      readonly keys: readonly KeyValue[];
    }
  | {
      /**
       * Copies of changed `source` records that may have moved: each record's copies at other
       * addresses than `written` are found by the task's stale query and deleted.
       */
      readonly kind: "staleCopies";
      readonly source: ItemRef;
      readonly task: MaintenanceTask;
      readonly moved: readonly {
        /** The source attributes the stale query is bound from. */
        readonly record: Readonly<Record<string, unknown>>;
        readonly written: readonly { readonly id: string; readonly keys: readonly KeyValue[] }[];
      }[];
    };

/** Where a handler records the writes it is about to make (the lease of the batch's range). */
export interface Journal {
  record(entries: readonly IntentEntry[]): Promise<void>;
}

/** Applies one recorded write (idempotent). */
export async function applyIntentEntry(
  runtime: Runtime,
  charged: Charged,
  entry: IntentEntry,
): Promise<void> {
  switch (entry.kind) {
    case "counter": {
      const updated = await updateHolder(
        runtime,
        charged,
        { holder: { container: entry.container, itemType: entry.itemType }, property: entry.property },
        {
          id: entry.id,
          keys: [...entry.keys],
          deltas: [...entry.deltas],
          ...(entry.range === undefined ? {} : { range: entry.range }),
        },
      );
      if (updated !== undefined)
        charged.changes.push({
          container: entry.container,
          itemType: entry.itemType,
          kind: "update",
          item: updated,
        });
      return;
    }
    case "set": {
      // A child deleted since has nothing to flag.
      const patched = await patchItem(runtime.container(entry.container), entry.id, entry.keys, [
        { op: "set", path: pointer(entry.property), value: entry.value },
      ]);
      charged.requestCharge += patched.requestCharge;
      return;
    }
    case "delete":
      charged.requestCharge += await deleteItem(runtime.container(entry.container), entry.id, entry.keys);
      return;
    case "staleCopies":
      await replayStaleSearches(runtime, charged, entry);
      return;
    default:
      entry satisfies never;
  }
}

/** Replays the writes a lease recorded, in order (what the processor does before reading again). */
export async function replayIntent(runtime: Runtime, entries: readonly IntentEntry[]): Promise<Charged> {
  const charged: Charged = { requestCharge: 0, changes: [] };
  for (const entry of entries) await applyIntentEntry(runtime, charged, entry);
  return charged;
}
