/**
 * Incremental evaluation: plans, load contributions, storage and loads remembered across the
 * partition counts of one evaluation's fixed point and across the models of one design search,
 * each reused only where everything it was computed from answers the same.
 *
 * A plan is a function of the workload, the options, the answers of the model look-ups it made
 * (`model-answers.ts`) and the partition counts it read. Each plan is kept with those reads; a
 * new model is compared with the previous one look-up by look-up, and only the patterns whose
 * reads changed are planned again. Within an evaluation, a change of partition counts re-plans
 * only the patterns that read those counts, and rebuilds only the loads of the containers whose
 * contributions changed. The figures are those of a fresh evaluation to the last bit: loads are
 * replayed from each plan's changes in the workload's order (`loads.ts`).
 *
 * Why the design stays linear: each candidate costs the look-ups of its model (a pass over its
 * containers and item types) plus the plans and loads its edit changes, instead of a fresh
 * evaluation of every pattern at every partition count the fixed point tries.
 */
import type { Model } from "../model/types.js";
import type { PlanningContext } from "../planner/context.js";
import type { Plan } from "../planner/types.js";
import type { Workload } from "../workload/types.js";
import { containerLoadOf, type ContainerLoad, type LoadContribution } from "./loads.js";
import {
  answerTable,
  changedAnswers,
  Fingerprints,
  type AnswerKey,
  type AnswerTable,
} from "./model-answers.js";

/** The load contribution of a plan under the change-feed lease counts it read. */
export interface ContributionEntry {
  /** The pattern's rates it was made with (an integrated cache leaves a read its misses' rates). */
  readonly rates: { readonly avg: number; readonly peak: number };
  /** [source container, item type, patches/s per parent] as read. */
  readonly leases: readonly (readonly [string, string, number])[];
  readonly contribution: LoadContribution;
}

/** A plan of one pattern with what it read. */
export interface PlanEntry {
  /** Model look-ups read (by the plan and its load contributions) and their answers then. */
  readonly keys: AnswerKey[];
  readonly fingerprints: number[];
  /** Partition counts read, per container. */
  readonly counts: readonly (readonly [string, number])[];
  readonly plan: Plan;
  readonly contributions: ContributionEntry[];
  /** The model (`EvaluationCache.serial`) its look-ups were last found to answer the same in. */
  verifiedAt: number;
}

/** The plans of one pattern, by the containers whose counts they read and by those counts. */
interface PatternPlans {
  /** The last model change that changed the answer of a look-up one of these plans read. */
  invalidatedAt: number;
  readonly byCounts: Map<
    string,
    { readonly names: readonly string[]; readonly plans: Map<string, PlanEntry> }
  >;
  size: number;
}

/** Plans kept per pattern (partition counts and models), and in all. */
const PLANS_PER_PATTERN = 64;
const MAX_PLANS = 20_000;
/** Loads kept per container name (different contributions). */
const LOADS_PER_CONTAINER = 4;
/** Values kept per slot (`Solver.remember`), and slots before the memo starts over. */
const VALUES_PER_SLOT = 4;
const MAX_SLOTS = 20_000;

const COUNTS_SEPARATOR = "\u0000";

/** What the evaluations of one workload with one set of options share. */
export class EvaluationCache {
  readonly fingerprints = new Fingerprints();
  private model: Model | undefined;
  private table: AnswerTable = new Map();
  /** Counts the models used: plans verified before a pattern's last change are checked again. */
  private serial = 0;
  private readonly plans: PatternPlans[];
  private planCount = 0;
  /**
   * The plans made so far, each weighted by its pattern's size (1 plus a read's `with` entries):
   * what the evaluations of this workload have cost in planning, whatever the cache saved
   * (`scoreModel` charges it to the design's budget).
   */
  planningWork = 0;
  /** Patterns with a plan that read each key (a superset: never pruned). */
  private readonly readers = new Map<AnswerKey, Set<number>>();
  private readonly loads = new Map<string, { sequence: LoadContribution[]; load: ContainerLoad }[]>();
  private readonly memos = new WeakMap<object, Map<string, unknown>>();
  private readonly slots = new Map<
    string,
    { keys: readonly AnswerKey[]; fingerprints: readonly number[]; value: unknown }[]
  >();

  constructor(readonly workload: Workload) {
    this.plans = workload.accessPatterns.map(() => ({ invalidatedAt: 0, byCounts: new Map(), size: 0 }));
  }

  /**
   * Makes `model` the model in use: the patterns whose plans read a look-up it answers
   * differently have their plans checked again before use.
   */
  use(model: Model, context: PlanningContext): void {
    if (model === this.model) return;
    const table = answerTable(this.workload, model, context, this.fingerprints);
    this.serial++;
    for (const key of changedAnswers(this.table, table))
      for (const pattern of this.readers.get(key) ?? []) {
        const plans = this.plans[pattern];
        if (plans !== undefined) plans.invalidatedAt = this.serial;
      }
    this.model = model;
    this.table = table;
  }

  /** The fingerprint of a look-up's answer in the model in use. */
  answer(key: AnswerKey): number {
    return this.table.get(key) ?? 0;
  }

  private answersSame(entry: PlanEntry): boolean {
    return entry.keys.every((key, index) => this.answer(key) === entry.fingerprints[index]);
  }

  private noteReaders(pattern: number, keys: readonly AnswerKey[]): void {
    for (const key of keys) {
      let readers = this.readers.get(key);
      if (readers === undefined) {
        readers = new Set();
        this.readers.set(key, readers);
      }
      readers.add(pattern);
    }
  }

  /** A plan of `pattern` for the model in use made at the partition counts `countOf` gives. */
  find(pattern: number, countOf: (container: string) => number): PlanEntry | undefined {
    const plans = this.plans[pattern];
    if (plans === undefined) return undefined;
    for (const group of plans.byCounts.values()) {
      const counts = group.names.map(countOf).join(",");
      const entry = group.plans.get(counts);
      if (entry === undefined) continue;
      if (entry.verifiedAt < plans.invalidatedAt) {
        if (!this.answersSame(entry)) {
          group.plans.delete(counts);
          plans.size--;
          this.planCount--;
          continue;
        }
        entry.verifiedAt = this.serial;
      }
      return entry;
    }
    return undefined;
  }

  /** Keeps a plan just made for the model in use (its reads noted, see `addReads`). */
  add(pattern: number, entry: PlanEntry): void {
    const plans = this.plans[pattern];
    if (plans === undefined) return;
    entry.verifiedAt = this.serial;
    const names = entry.counts.map(([name]) => name);
    const shape = names.join(COUNTS_SEPARATOR);
    let group = plans.byCounts.get(shape);
    if (group === undefined) {
      group = { names, plans: new Map() };
      plans.byCounts.set(shape, group);
    }
    const counts = entry.counts.map(([, count]) => count).join(",");
    if (!group.plans.has(counts)) {
      plans.size++;
      this.planCount++;
    }
    group.plans.set(counts, entry);
    // Over the bounds, the pattern's oldest plan goes (the memory stays bounded).
    if (plans.size > PLANS_PER_PATTERN || this.planCount > MAX_PLANS) {
      for (const [oldestShape, oldest] of plans.byCounts) {
        const first = oldest.plans.keys().next();
        if (first.done === true) {
          plans.byCounts.delete(oldestShape);
          continue;
        }
        oldest.plans.delete(first.value);
        plans.size--;
        this.planCount--;
        break;
      }
    }
  }

  /** Adds look-ups read after the plan was made (by a load contribution) to its entry. */
  addReads(pattern: number, entry: PlanEntry, keys: Iterable<AnswerKey>): void {
    const fresh = [...keys].filter((key) => !entry.keys.includes(key));
    for (const key of fresh) {
      entry.keys.push(key);
      entry.fingerprints.push(this.answer(key));
    }
    this.noteReaders(pattern, fresh);
  }

  /** The load of `container` from these contributions (in the workload's order), built once. */
  loadOf(container: string, sequence: LoadContribution[]): ContainerLoad {
    const kept = this.loads.get(container) ?? [];
    const found = kept.find(
      (entry) =>
        entry.sequence.length === sequence.length &&
        entry.sequence.every((c, index) => c === sequence[index]),
    );
    if (found !== undefined) return found.load;
    const load = containerLoadOf(sequence, container);
    kept.unshift({ sequence, load });
    if (kept.length > LOADS_PER_CONTAINER) kept.length = LOADS_PER_CONTAINER;
    this.loads.set(container, kept);
    return load;
  }

  /**
   * A value computed from `anchor` (a load, never changed once made) and what `key` spells out,
   * with this cache's workload and options: computed once.
   */
  memo<T>(anchor: object, key: string, compute: () => T): T {
    let known = this.memos.get(anchor);
    if (known === undefined) {
      known = new Map();
      this.memos.set(anchor, known);
    }
    if (known.has(key)) return known.get(key) as T;
    const value = compute();
    known.set(key, value);
    return value;
  }

  /** A value kept under `slot` whose look-ups the model in use answers the same. */
  recalled<T>(slot: string): T | undefined {
    const found = this.slots
      .get(slot)
      ?.find((entry) => entry.keys.every((key, index) => this.answer(key) === entry.fingerprints[index]));
    return found?.value as T | undefined;
  }

  /** Keeps a value with the look-ups it read (their answers now). */
  keep(slot: string, keys: readonly AnswerKey[], value: unknown): void {
    if (this.slots.size >= MAX_SLOTS) this.slots.clear();
    const kept = this.slots.get(slot) ?? [];
    kept.unshift({ keys, fingerprints: keys.map((key) => this.answer(key)), value });
    if (kept.length > VALUES_PER_SLOT) kept.length = VALUES_PER_SLOT;
    this.slots.set(slot, kept);
  }
}
