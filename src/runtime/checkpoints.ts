/**
 * Where a change-feed processor keeps its place: one lease per feed range of a source container,
 * holding the continuation after the last batch its handlers finished, and which processor
 * instance owns it until when. The user chooses the store: a Cosmos DB container
 * (`containerCheckpointStore`, partitioned by `/id`, the lease container of Microsoft's change
 * feed processor) or memory (`memoryCheckpointStore`, for tests and single-run jobs).
 *
 * Every change of a lease is conditional on the version read (an ETag for the container store), so
 * two instances never both own a lease and a checkpoint never overwrites a newer one.
 */
import type { Container } from "@azure/cosmos";
import { chargeOf, statusOf } from "./errors.js";
import type { IntentEntry } from "./journal.js";
import { guardContainer } from "./guarded-container.js";

/** A lease: one feed range of one source container, for one processor. */
export interface Lease {
  /** `processor.container.range`, unique in the store. */
  readonly id: string;
  readonly processor: string;
  /** The source container whose feed the lease reads. */
  readonly container: string;
  /** The feed range's key (`min..max` of its effective partition keys). */
  readonly range: string;
  /** Where to resume: the continuation after the last batch the handlers finished. */
  readonly continuation?: string;
  /** The instance that owns it, while `expiresAt` (epoch milliseconds) is in the future. */
  readonly owner?: string;
  readonly expiresAt?: number;
  /** The version of the lease in its store (an ETag); changes are conditional on it. */
  readonly version?: string;
  /**
   * The writes the batch in progress recorded before making them (journal.ts), replayed before
   * the range is read again; a checkpoint clears them.
   */
  readonly intent?: readonly IntentEntry[];
}

/** A lease store. Every method that changes a lease returns undefined when it lost a race. */
export interface CheckpointStore {
  /** The leases of `processor` for `container`. */
  list(processor: string, container: string): Promise<Lease[]>;
  /** Creates a lease if none has its id; returns the stored one either way. */
  create(lease: Lease): Promise<Lease>;
  /**
   * Takes or renews `lease` for `owner` until `expiresAt`: only when it is unchanged since it was
   * read and is free, expired or already `owner`'s.
   */
  acquire(lease: Lease, owner: string, expiresAt: number, now: number): Promise<Lease | undefined>;
  /**
   * Saves the continuation (and renews the lease) when `lease` is still this owner's, unchanged;
   * clears the recorded intent.
   */
  checkpoint(lease: Lease, continuation: string, expiresAt: number): Promise<Lease | undefined>;
  /** Records the writes a batch is about to make (an empty list clears them), as `checkpoint`. */
  record(lease: Lease, intent: readonly IntentEntry[], expiresAt: number): Promise<Lease | undefined>;
  /** Gives a lease up (keeping its continuation) when it is unchanged since read. */
  release(lease: Lease): Promise<void>;
  /** Removes a lease (a feed range that no longer exists and was never read). */
  remove(lease: Lease): Promise<void>;
}

/** The id of a lease: processor, container and range, without the characters ids cannot hold. */
export function leaseId(processor: string, container: string, range: string): string {
  return [processor, container, range].map((part) => encodeURIComponent(part)).join(".");
}

/** True when `lease` can be taken by `owner` at `now`. */
export function isAvailable(lease: Lease, owner: string, now: number): boolean {
  return lease.owner === undefined || lease.owner === owner || (lease.expiresAt ?? 0) <= now;
}

/**
 * Leases in memory. Lost with the process: a processor on it starts again from its `startFrom`
 * (tests, one-off jobs), and it cannot share leases between processes.
 */
export function memoryCheckpointStore(): CheckpointStore & { readonly leases: ReadonlyMap<string, Lease> } {
  const leases = new Map<string, Lease>();
  let version = 0;
  const save = (lease: Lease): Lease => {
    const saved = { ...lease, version: String(++version) };
    leases.set(lease.id, saved);
    return saved;
  };
  const current = (lease: Lease): Lease | undefined => {
    const stored = leases.get(lease.id);
    return stored !== undefined && stored.version === lease.version ? stored : undefined;
  };
  return {
    leases,
    list: (processor, container) =>
      Promise.resolve(
        [...leases.values()].filter((l) => l.processor === processor && l.container === container),
      ),
    create: (lease) => Promise.resolve(leases.get(lease.id) ?? save(lease)),
    acquire(lease, owner, expiresAt, now) {
      const stored = current(lease);
      if (stored === undefined || !isAvailable(stored, owner, now)) return Promise.resolve(undefined);
      return Promise.resolve(save({ ...stored, owner, expiresAt }));
    },
    checkpoint(lease, continuation, expiresAt) {
      const stored = current(lease);
      if (stored === undefined || stored.owner !== lease.owner) return Promise.resolve(undefined);
      const { intent: _intent, ...kept } = stored;
      return Promise.resolve(save({ ...kept, continuation, expiresAt }));
    },
    record(lease, intent, expiresAt) {
      const stored = current(lease);
      if (stored === undefined || stored.owner !== lease.owner) return Promise.resolve(undefined);
      const { intent: _intent, ...kept } = stored;
      // A stored copy: the caller's list may change after it is recorded.
      const copy = JSON.parse(JSON.stringify(intent)) as IntentEntry[];
      return Promise.resolve(save({ ...kept, ...(copy.length === 0 ? {} : { intent: copy }), expiresAt }));
    },
    release(lease) {
      const stored = current(lease);
      if (stored !== undefined) {
        const { owner: _owner, expiresAt: _expiresAt, ...free } = stored;
        save(free);
      }
      return Promise.resolve();
    },
    remove(lease) {
      if (current(lease) !== undefined) leases.delete(lease.id);
      return Promise.resolve();
    },
  };
}

/** A lease as stored in a lease container (partition key `/id`). */
interface LeaseDocument {
  readonly id: string;
  readonly type: "lease";
  readonly processor: string;
  readonly container: string;
  readonly range: string;
  readonly continuation?: string;
  readonly owner?: string;
  readonly expiresAt?: number;
  readonly intent?: readonly IntentEntry[];
  readonly _etag?: string;
}

function toLease(document: LeaseDocument): Lease {
  return {
    id: document.id,
    processor: document.processor,
    container: document.container,
    range: document.range,
    ...(document.continuation === undefined ? {} : { continuation: document.continuation }),
    ...(document.owner === undefined ? {} : { owner: document.owner }),
    ...(document.expiresAt === undefined ? {} : { expiresAt: document.expiresAt }),
    ...(document.intent === undefined || document.intent.length === 0 ? {} : { intent: document.intent }),
    ...(document._etag === undefined ? {} : { version: document._etag }),
  };
}

function toDocument(lease: Lease): LeaseDocument {
  return {
    id: lease.id,
    type: "lease",
    processor: lease.processor,
    container: lease.container,
    range: lease.range,
    ...(lease.continuation === undefined ? {} : { continuation: lease.continuation }),
    ...(lease.owner === undefined ? {} : { owner: lease.owner }),
    ...(lease.expiresAt === undefined ? {} : { expiresAt: lease.expiresAt }),
    ...(lease.intent === undefined || lease.intent.length === 0 ? {} : { intent: lease.intent }),
  };
}

/**
 * Leases in a Cosmos DB container partitioned by `/id` (create it next to the model's containers,
 * e.g. `leases` with 400 RU/s or on the database's shared throughput). Each lease is an item;
 * every change is a replace conditional on its ETag (412: another instance changed it first).
 * `onCharge` receives the request charge of every request (a checkpoint is one replace).
 */
export function containerCheckpointStore(
  container: Container,
  options: { readonly onCharge?: (requestCharge: number) => void } = {},
): CheckpointStore {
  // Every request checked, retried (429, transient failures) and typed (DataAccessError).
  const guarded = guardContainer(container);
  const charge = (value: number): void => options.onCharge?.(value);
  const replace = async (lease: Lease, next: Lease): Promise<Lease | undefined> => {
    try {
      const response = await guarded
        .item(lease.id, lease.id)
        .replace<LeaseDocument>(
          toDocument(next),
          lease.version === undefined
            ? {}
            : { accessCondition: { type: "IfMatch", condition: lease.version } },
        );
      charge(response.requestCharge);
      return response.resource === undefined ? undefined : toLease(response.resource);
    } catch (error) {
      charge(chargeOf(error));
      if (statusOf(error) === 412 || statusOf(error) === 404) return undefined;
      throw error;
    }
  };
  return {
    async list(processor, name) {
      const response = await guarded.items
        .query<LeaseDocument>({
          query:
            "SELECT * FROM c WHERE c.type = @type AND c.processor = @processor AND c.container = @container",
          parameters: [
            { name: "@type", value: "lease" },
            { name: "@processor", value: processor },
            { name: "@container", value: name },
          ],
        })
        .fetchAll();
      charge(response.requestCharge);
      return response.resources.map(toLease);
    },
    async create(lease) {
      try {
        const response = await guarded.items.create<LeaseDocument>(toDocument(lease));
        charge(response.requestCharge);
        if (response.resource !== undefined) return toLease(response.resource);
      } catch (error) {
        charge(chargeOf(error));
        if (statusOf(error) !== 409) throw error;
      }
      const read = await guarded.item(lease.id, lease.id).read<LeaseDocument>();
      charge(read.requestCharge);
      if (read.resource === undefined) throw new Error(`lease ${lease.id} vanished while it was created`);
      return toLease(read.resource);
    },
    acquire(lease, owner, expiresAt, now) {
      if (!isAvailable(lease, owner, now)) return Promise.resolve(undefined);
      return replace(lease, { ...lease, owner, expiresAt });
    },
    checkpoint(lease, continuation, expiresAt) {
      const { intent: _intent, ...kept } = lease;
      return replace(lease, { ...kept, continuation, expiresAt });
    },
    record(lease, intent, expiresAt) {
      const { intent: _intent, ...kept } = lease;
      return replace(lease, { ...kept, ...(intent.length === 0 ? {} : { intent }), expiresAt });
    },
    async release(lease) {
      const { owner: _owner, expiresAt: _expiresAt, ...free } = lease;
      await replace(lease, free);
    },
    async remove(lease) {
      try {
        const response = await guarded
          .item(lease.id, lease.id)
          .delete(
            lease.version === undefined
              ? {}
              : { accessCondition: { type: "IfMatch", condition: lease.version } },
          );
        charge(response.requestCharge);
      } catch (error) {
        charge(chargeOf(error));
        if (statusOf(error) !== 404 && statusOf(error) !== 412) throw error;
      }
    },
  };
}
