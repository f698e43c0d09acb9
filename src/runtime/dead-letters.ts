/**
 * Where a change-feed processor puts a batch its handlers keep failing on, so that the feed can
 * move on without losing it: one letter per change, with the error, the attempts and where the
 * batch was read. `replayDeadLetters` runs the letters through the handlers again (after a fix)
 * and removes those that succeed. Without a dead-letter store a processor retries a failing batch
 * forever (its feed range waits; nothing is skipped).
 */
import type { Container } from "@azure/cosmos";
import { chargeOf, statusOf } from "./errors.js";
import { guardContainer } from "./guarded-container.js";

/** One change a processor could not apply. */
export interface DeadLetter {
  /** Unique in the store: processor, container, range and the change's place in the feed. */
  readonly id: string;
  readonly processor: string;
  readonly container: string;
  readonly range: string;
  /** The continuation the batch was read from (where a replay of the feed would start). */
  readonly continuation?: string;
  /** The change as the feed delivered it. */
  readonly change: unknown;
  /** The last error's message. */
  readonly error: string;
  readonly attempts: number;
  /** ISO time it was written. */
  readonly at: string;
}

/** A dead-letter store. */
export interface DeadLetterStore {
  /** Stores letters; throws when it cannot (the processor then keeps the batch and retries). */
  put(letters: readonly DeadLetter[]): Promise<void>;
  /** The letters of a processor, oldest first. */
  list(processor: string): Promise<DeadLetter[]>;
  remove(letter: DeadLetter): Promise<void>;
}

/** Dead letters in memory (tests). */
export function memoryDeadLetterStore(): DeadLetterStore & {
  readonly letters: ReadonlyMap<string, DeadLetter>;
} {
  const letters = new Map<string, DeadLetter>();
  return {
    letters,
    put(batch) {
      for (const letter of batch) letters.set(letter.id, letter);
      return Promise.resolve();
    },
    list: (processor) =>
      Promise.resolve(
        [...letters.values()]
          .filter((l) => l.processor === processor)
          .sort((a, b) => a.at.localeCompare(b.at)),
      ),
    remove(letter) {
      letters.delete(letter.id);
      return Promise.resolve();
    },
  };
}

/**
 * Dead letters as items of a Cosmos DB container partitioned by `/id` (the lease container can
 * hold them: they have `type: "deadLetter"`). A change larger than an item can hold (2 MB) cannot
 * be stored: `put` throws and the processor keeps retrying it.
 */
export function containerDeadLetterStore(container: Container): DeadLetterStore {
  // Every request checked, retried (429, transient failures) and typed (DataAccessError).
  const guarded = guardContainer(container);
  return {
    async put(batch) {
      for (const letter of batch) {
        await guarded.items.upsert({ ...letter, type: "deadLetter" });
      }
    },
    async list(processor) {
      const response = await guarded.items
        .query<DeadLetter>({
          query: "SELECT * FROM c WHERE c.type = @type AND c.processor = @processor ORDER BY c.at",
          parameters: [
            { name: "@type", value: "deadLetter" },
            { name: "@processor", value: processor },
          ],
        })
        .fetchAll();
      return response.resources;
    },
    async remove(letter) {
      try {
        await guarded.item(letter.id, letter.id).delete();
      } catch (error) {
        if (statusOf(error) !== 404) throw error;
        chargeOf(error);
      }
    },
  };
}

/**
 * Runs every dead letter of `processor` through `deliver` (the container and the change, as the
 * processor would) and removes those it applies; returns how many were applied and how many failed.
 */
export async function replayDeadLetters(
  store: DeadLetterStore,
  processor: string,
  deliver: (container: string, changes: readonly unknown[], range: string) => Promise<unknown>,
): Promise<{ readonly applied: number; readonly failed: number }> {
  let applied = 0;
  let failed = 0;
  for (const letter of await store.list(processor)) {
    try {
      await deliver(letter.container, [letter.change], letter.range);
      await store.remove(letter);
      applied++;
    } catch {
      failed++;
    }
  }
  return { applied, failed };
}
