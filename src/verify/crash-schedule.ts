/**
 * Crashes of the change-feed processor at chosen step boundaries, to prove that derived data is
 * applied exactly once whatever the moment a process dies. A step is one write a change-feed
 * handler makes (create, upsert, replace, patch, delete, transactional batch) or one save of the
 * processor's lease (a checkpoint, or the intent it records before a batch's effects). A crash
 * point says which step and whether the process dies just before it (the request is never sent)
 * or just after it (it landed, the process never learns). From the crash on, that processor
 * generation is dead: each of its requests fails, it releases nothing; a new generation then starts
 * with the same leases (the same instance name), as a restarted process does.
 *
 * Requests are attributed to a generation by `AsyncLocalStorage`: the verify harness runs each
 * generation's handlers inside `schedule.run(generation, ...)`.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { Container, Database, Item, Items } from "@azure/cosmos";
import type { CheckpointStore, Lease } from "../runtime/checkpoints.js";
import { bindAll } from "./fault-database.js";

/**
 * Where a crash happens: the `step`-th step (1-based) of a run, just before or just after it;
 * with `what`, the first step from `step` on whose description (`patch p1`, `checkpoint ..80`,
 * `intent ..80`, `upsert`) contains it.
 */
export interface CrashPoint {
  readonly step: number;
  readonly when: "before" | "after";
  readonly what?: string;
}

/** The error a dying (or dead) generation's requests fail with. */
export class SimulatedCrash extends Error {
  constructor(
    readonly generation: number,
    what: string,
  ) {
    super(`simulated crash of change-feed processor generation ${generation} at ${what}`);
    this.name = "SimulatedCrash";
  }
}

/** Counts the steps of a run and kills the current generation at its crash points. */
export class CrashSchedule {
  private readonly storage = new AsyncLocalStorage<number>();
  private readonly points: CrashPoint[];
  /** Steps taken so far by every generation. */
  steps = 0;
  /** The live generation (0 before the first start). */
  generation = 0;
  /** Crashes that happened: step, when, and what the step was. */
  readonly crashes: { readonly step: number; readonly when: string; readonly what: string }[] = [];
  /** Generations that died. */
  private readonly dead = new Set<number>();
  /** Crash points that fired. */
  private readonly fired = new Set<CrashPoint>();

  constructor(points: readonly CrashPoint[] = []) {
    this.points = [...points];
  }

  /** Adds a crash point (its step counts from the run's start). */
  add(point: CrashPoint): void {
    this.points.push(point);
  }

  /** Starts the next generation; returns its number. */
  next(): number {
    this.generation++;
    return this.generation;
  }

  /** True while the current generation lives. */
  alive(): boolean {
    return !this.dead.has(this.generation);
  }

  /** Runs `work` as `generation`'s. */
  run<T>(generation: number, work: () => Promise<T>): Promise<T> {
    return this.storage.run(generation, work);
  }

  /**
   * Runs one step of the calling generation (none: not maintenance, runs as is): fails when the
   * generation is dead, crashes it at a crash point.
   */
  async step<T>(what: string, request: () => Promise<T>, generation = this.storage.getStore()): Promise<T> {
    if (generation === undefined) return request();
    if (this.dead.has(generation)) throw new SimulatedCrash(generation, `${what} (already dead)`);
    const step = ++this.steps;
    const point = this.points.find(
      (p) =>
        !this.fired.has(p) &&
        (p.what === undefined ? p.step === step : p.step <= step && what.includes(p.what)),
    );
    if (point !== undefined) this.fired.add(point);
    if (point?.when === "before") this.kill(generation, step, "before", what);
    const result = await request();
    if (point?.when === "after") this.kill(generation, step, "after", what);
    // A request of a generation that died meanwhile (another request crashed it) lands, unseen.
    if (this.dead.has(generation)) throw new SimulatedCrash(generation, `${what} (died meanwhile)`);
    return result;
  }

  private kill(generation: number, step: number, when: string, what: string): never {
    this.dead.add(generation);
    this.crashes.push({ step, when, what });
    throw new SimulatedCrash(generation, `step ${step} (${when} ${what})`);
  }

  /** Whether a generation has died. */
  isDead(generation: number): boolean {
    return this.dead.has(generation);
  }

  /** The database as the handlers see it: each write is a step of the calling generation. */
  database(database: Database): Database {
    return bindAll(database, {
      container: (name: string) => this.container(database.container(name)),
    });
  }

  private container(container: Container): Container {
    return bindAll(container, {
      item: (id: string, partitionKey?: unknown) => this.item(container.item(id, partitionKey as never)),
      items: this.items(container.items),
    });
  }

  private item(item: Item): Item {
    const write =
      (name: "replace" | "patch" | "delete") =>
      (...args: unknown[]) =>
        this.step(`${name} ${item.id}`, () =>
          (item[name] as (...a: unknown[]) => Promise<unknown>).apply(item, args),
        );
    return bindAll(item, { replace: write("replace"), patch: write("patch"), delete: write("delete") });
  }

  private items(items: Items): Items {
    const write =
      (name: "create" | "upsert" | "batch") =>
      (...args: unknown[]) =>
        this.step(`${name}`, () => (items[name] as (...a: unknown[]) => Promise<unknown>).apply(items, args));
    return bindAll(items, { create: write("create"), upsert: write("upsert"), batch: write("batch") });
  }

  /**
   * A generation's view of the lease store: dead after its crash (a dead process releases
   * nothing), each saved checkpoint a step.
   */
  checkpoints(store: CheckpointStore, generation: number): CheckpointStore {
    const guard = <T>(what: string, request: () => Promise<T>): Promise<T> =>
      this.dead.has(generation) ? Promise.reject(new SimulatedCrash(generation, what)) : request();
    return {
      list: (processor, container) => guard("list", () => store.list(processor, container)),
      create: (lease) => guard("create", () => store.create(lease)),
      acquire: (lease, owner, expiresAt, now) =>
        guard("acquire", () => store.acquire(lease, owner, expiresAt, now)),
      checkpoint: (lease: Lease, continuation: string, expiresAt: number) =>
        this.step(
          `checkpoint ${lease.range}`,
          () => store.checkpoint(lease, continuation, expiresAt),
          generation,
        ),
      record: (lease, intent, expiresAt) =>
        this.step(`intent ${lease.range}`, () => store.record(lease, intent, expiresAt), generation),
      release: (lease) => guard("release", () => store.release(lease)),
      remove: (lease) => guard("remove", () => store.remove(lease)),
    };
  }
}
