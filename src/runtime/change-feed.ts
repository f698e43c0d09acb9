/**
 * Reads the change feed of the containers whose items others copy, count or propagate, and runs
 * the handlers for each batch of changes (pull model).
 */
import { ChangeFeedMode, ChangeFeedStartFrom, type Database } from "@azure/cosmos";
import type { ContainerChange, ItemChange, WriteResult } from "./context.js";
import type { StoredItem } from "./items.js";

/** How a change feed is read by startChangeFeedProcessors. */
export interface ChangeFeedProcessorOptions {
  /** Where to start (default: now). */
  readonly startFrom?: ChangeFeedStartFrom;
  /**
   * "latestVersion" (default) sees creates and updates as "upsert" and no deletes: counters count
   * every upsert. "allVersionsAndDeletes" (needs continuous backup) tells creates, updates and
   * deletes apart, with the previous version.
   */
  readonly mode?: "latestVersion" | "allVersionsAndDeletes";
  /** Pause between polls when the feed is empty, in milliseconds (default 1000). */
  readonly pollMs?: number;
  /** Called with errors of a poll or a handler (default: console.error). */
  readonly onError?: (error: unknown) => void;
}

/** A change of the feed as the handlers see it. */
export function feedChange(
  entry: unknown,
  mode: "latestVersion" | "allVersionsAndDeletes",
): ItemChange | undefined {
  if (typeof entry !== "object" || entry === null) return undefined;
  if (mode === "latestVersion") return { kind: "upsert", item: entry as StoredItem };
  const { current, previous, metadata } = entry as {
    current?: StoredItem;
    previous?: StoredItem;
    metadata?: { operationType?: string };
  };
  const operation = metadata?.operationType;
  if (operation === "delete") return previous === undefined ? undefined : { kind: "delete", item: previous };
  if (current === undefined) return undefined;
  const kind = operation === "create" ? "create" : "update";
  return previous === undefined ? { kind, item: current } : { kind, item: current, previous };
}

/** Applies a batch of changes (the data-access module's applyChanges). */
export type ApplyChanges = (changes: readonly ContainerChange[], cascade?: boolean) => Promise<WriteResult>;

/**
 * Reads the change feed of every source container and runs `applyChanges` for each batch of
 * changes (pull model, one loop per container). Stop with stop().
 */
export function processChangeFeeds(
  database: Database,
  sourceContainers: readonly string[],
  applyChanges: ApplyChanges,
  options: ChangeFeedProcessorOptions = {},
): { stop(): Promise<void> } {
  const mode = options.mode ?? "latestVersion";
  const pollMs = options.pollMs ?? 1000;
  const onError = options.onError ?? ((error: unknown) => console.error(error));
  let stopped = false;
  const sleepers = new Set<() => void>();
  const pause = () =>
    new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        sleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, pollMs);
      sleepers.add(wake);
    });
  const loops = sourceContainers.map(async (name) => {
    const iterator = database.container(name).items.getChangeFeedIterator<StoredItem>({
      changeFeedStartFrom: options.startFrom ?? ChangeFeedStartFrom.Now(),
      ...(mode === "allVersionsAndDeletes" ? { changeFeedMode: ChangeFeedMode.AllVersionsAndDeletes } : {}),
    });
    while (!stopped) {
      try {
        const response = await iterator.readNext();
        const changes: ContainerChange[] = [];
        for (const entry of response.result) {
          const change = feedChange(entry, mode);
          const itemType = change?.item["type"];
          if (change !== undefined && typeof itemType === "string")
            changes.push({ ...change, container: name, itemType });
        }
        if (changes.length > 0) await applyChanges(changes, false);
        else await pause();
      } catch (error) {
        onError(error);
        await pause();
      }
    }
  });
  return {
    async stop() {
      stopped = true;
      for (const wake of [...sleepers]) wake();
      await Promise.allSettled(loops);
    },
  };
}
