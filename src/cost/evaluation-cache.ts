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
import { createPlanEnvironment, type PlanEnvironment, type PlanOptions } from "../planner/environment.js";
import { planAccessPattern } from "../planner/plan-model.js";
import type { Plan, PlanStep } from "../planner/types.js";
import type { Workload } from "../workload/types.js";
import { containerLoadOf, loadContribution, type ContainerLoad, type LoadContribution } from "./loads.js";
import {
  answerTable,
  changedAnswers,
  Fingerprints,
  recordingContext,
  type AnswerKey,
  type AnswerTable,
} from "./model-answers.js";

/** The load contribution of a plan under the change-feed lease counts it read. */
interface ContributionEntry {
  /** [source container, item type, patches/s per parent] as read. */
  readonly leases: readonly (readonly [string, string, number])[];
  readonly contribution: LoadContribution;
}

/** A plan of one pattern with what it read. */
interface PlanEntry {
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
/** Contributions kept per plan (different lease counts). */
const CONTRIBUTIONS_PER_PLAN = 4;
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

/** One solve of the evaluation: the plan of every pattern and the load of every container. */
export interface Solved {
  readonly plans: readonly Plan[];
  readonly loads: ReadonlyMap<string, ContainerLoad>;
}

/** The containers a plan's steps touch (change-feed steps included). */
function stepContainers(plan: Plan): Set<string> {
  const out = new Set<string>();
  const visit = (step: PlanStep): void => {
    if (step.kind === "changeFeed") for (const inner of step.steps) visit(inner);
    else out.add(step.container);
  };
  for (const step of plan.operations) visit(step);
  if (plan.type === "write") for (const step of plan.async) visit(step);
  return out;
}

/** Inserts `value` into a sorted array of distinct numbers. */
function insertSorted(list: number[], value: number): void {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((list[middle] ?? 0) < value) low = middle + 1;
    else high = middle;
  }
  if (list[low] !== value) list.splice(low, 0, value);
}

function removeSorted(list: number[], value: number): void {
  const index = list.indexOf(value);
  if (index >= 0) list.splice(index, 1);
}

/**
 * Plans and loads of one model at the partition counts the evaluation asks for, each solve
 * redoing only what the counts (and the change-feed lease counts) it changed can reach.
 */
export class Solver {
  private readonly env: PlanEnvironment;
  private readonly base: PlanEnvironment;
  private trace: Set<AnswerKey> | undefined;
  private countsRead: Map<string, number> | undefined;
  private leasesRead: [string, string, number][] | undefined;
  private readonly entries: (PlanEntry | undefined)[];
  private readonly contributions: (ContributionEntry | undefined)[];
  private readonly plans: Plan[];
  private readonly countReaders = new Map<string, Set<number>>();
  private readonly leaseReaders = new Set<number>();
  private readonly lastCounts = new Map<string, number>();
  /** Per container, the patterns whose contribution changes its load (ascending). */
  private readonly touching = new Map<string, number[]>();
  /**
   * Per container, the patterns whose plan has had a step on it in any solve so far (a superset
   * of those of any one solve: a reader checks the plan).
   */
  private readonly stepsOn = new Map<string, Set<number>>();
  private readonly loads = new Map<string, ContainerLoad>();
  private solved = false;
  /** The last solve's result, and whether a plan changed since. */
  private last: Solved | undefined;
  private plansChanged = false;

  /** The model's planning environment (partition counts: those of the last solve). */
  readonly environment: PlanEnvironment;
  /** The partition counts of the solve under way. */
  private counts: Readonly<Record<string, number>> = {};

  /**
   * @param leasesOf change-feed leases per source item type (read when contributions are made)
   */
  constructor(
    private readonly cache: EvaluationCache,
    private readonly model: Model,
    options: PlanOptions,
    private readonly leasesOf: (container: string, itemType: string) => number,
  ) {
    // Planning reads the counts of the solve under way through this view.
    const counts = new Proxy<Record<string, number>>(
      {},
      { get: (_target, name) => (typeof name === "string" ? this.counts[name] : undefined) },
    );
    const base = createPlanEnvironment(cache.workload, model, { ...options, partitions: counts });
    this.base = base;
    this.environment = base;
    cache.use(model, base.context);
    const context = recordingContext(base.context, (key) => this.trace?.add(key));
    this.env = {
      ...base,
      context,
      partitions: (container) => {
        const count = base.partitions(container);
        if (this.countsRead !== undefined && !this.countsRead.has(container))
          this.countsRead.set(container, count);
        return count;
      },
    };
    const patterns = cache.workload.accessPatterns.length;
    this.entries = new Array<PlanEntry | undefined>(patterns);
    this.contributions = new Array<ContributionEntry | undefined>(patterns);
    this.plans = new Array<Plan>(patterns);
  }

  /**
   * Patterns whose plan has a step on `container` in some solve so far, in the workload's order:
   * every pattern with load on it in any of them is among these.
   */
  patternsOn(container: string): number[] {
    return [...(this.stepsOn.get(container) ?? [])].sort((a, b) => a - b);
  }

  /**
   * A figure computed from the model in use (not from partition counts), remembered under `slot`
   * with the look-ups it read plus `keys` (what it reads besides the context, e.g. the container
   * it is given), and computed again only when one of them answers differently.
   */
  remember<T>(slot: string, keys: readonly AnswerKey[], compute: (env: PlanEnvironment) => T): T {
    const found = this.cache.recalled<T>(slot);
    if (found !== undefined) return found;
    this.trace = new Set(keys);
    this.countsRead = new Map();
    const value = compute(this.env);
    const read = { keys: [...this.trace], counts: [...this.countsRead] };
    this.trace = undefined;
    this.countsRead = undefined;
    // Counts are set per solve; a figure that reads them is not remembered.
    if (read.counts.length === 0) this.cache.keep(slot, read.keys, value);
    return value;
  }

  /** Plans and loads at `counts` (physical partitions per container). */
  solve(counts: Readonly<Record<string, number>>): Solved {
    this.counts = counts;
    const dirty = new Set<number>();
    if (!this.solved) {
      for (let index = 0; index < this.plans.length; index++) dirty.add(index);
    } else {
      for (const [name, readers] of this.countReaders) {
        if (this.base.partitions(name) !== this.lastCounts.get(name))
          for (const index of readers) dirty.add(index);
      }
      for (const index of this.leaseReaders) {
        const leases = this.contributions[index]?.leases ?? [];
        if (leases.some(([container, type, value]) => this.leasesOf(container, type) !== value))
          dirty.add(index);
      }
    }
    const rebuild = new Set<string>();
    for (const index of [...dirty].sort((a, b) => a - b)) this.refresh(index, rebuild);
    for (const name of this.countReaders.keys()) this.lastCounts.set(name, this.base.partitions(name));
    if (!this.solved) for (const container of this.model.containers) rebuild.add(container.name);
    this.solved = true;
    let loadsChanged = this.last === undefined;
    for (const name of rebuild) {
      const sequence = (this.touching.get(name) ?? []).flatMap((index) => {
        const entry = this.contributions[index];
        return entry === undefined ? [] : [entry.contribution];
      });
      const load = this.cache.loadOf(name, sequence);
      if (this.loads.get(name) !== load) loadsChanged = true;
      this.loads.set(name, load);
    }
    // A solve that changes nothing gives the same plans and loads (shared, never changed).
    const plans = this.last !== undefined && !this.plansChanged ? this.last.plans : [...this.plans];
    let loads = this.last?.loads;
    if (loads === undefined || loadsChanged) {
      const fresh = new Map<string, ContainerLoad>();
      for (const container of this.model.containers) {
        const load = this.loads.get(container.name);
        if (load !== undefined) fresh.set(container.name, load);
      }
      loads = fresh;
    }
    this.plansChanged = false;
    this.last = { plans, loads };
    return this.last;
  }

  /** Brings one pattern's plan and contribution up to date; notes the containers to rebuild. */
  private refresh(index: number, rebuild: Set<string>): void {
    const pattern = this.cache.workload.accessPatterns[index];
    if (pattern === undefined) return;
    const countOf = (name: string): number => this.base.partitions(name);
    let entry = this.entries[index];
    if (entry === undefined || !entry.counts.every(([name, count]) => countOf(name) === count))
      entry = this.cache.find(index, countOf);
    if (entry === undefined) {
      this.trace = new Set();
      this.countsRead = new Map();
      const plan = planAccessPattern(this.env, pattern);
      const counts = [...this.countsRead];
      this.countsRead = undefined;
      entry = { keys: [], fingerprints: [], counts, plan, contributions: [], verifiedAt: 0 };
      const keys = this.trace;
      this.trace = undefined;
      this.cache.addReads(index, entry, keys);
      this.cache.add(index, entry);
    }
    const previousPlan = this.entries[index]?.plan;
    this.entries[index] = entry;
    for (const [name] of entry.counts) {
      let readers = this.countReaders.get(name);
      if (readers === undefined) {
        readers = new Set();
        this.countReaders.set(name, readers);
        this.lastCounts.set(name, countOf(name));
      }
      readers.add(index);
    }
    const contribution = this.contributionOf(index, entry, pattern);
    const before = this.contributions[index];
    if (previousPlan !== entry.plan) {
      for (const name of stepContainers(entry.plan)) {
        let on = this.stepsOn.get(name);
        if (on === undefined) {
          on = new Set();
          this.stepsOn.set(name, on);
        }
        on.add(index);
      }
    }
    if (this.plans[index] !== entry.plan) this.plansChanged = true;
    this.plans[index] = entry.plan;
    if (before?.contribution === contribution.contribution) return;
    this.contributions[index] = contribution;
    if (contribution.leases.length > 0) this.leaseReaders.add(index);
    else this.leaseReaders.delete(index);
    for (const name of before?.contribution.changes.keys() ?? []) {
      const list = this.touching.get(name);
      if (list !== undefined) removeSorted(list, index);
      rebuild.add(name);
    }
    for (const name of contribution.contribution.changes.keys()) {
      let list = this.touching.get(name);
      if (list === undefined) {
        list = [];
        this.touching.set(name, list);
      }
      insertSorted(list, index);
      rebuild.add(name);
    }
  }

  /** The plan's contribution under the lease counts of now (made again when they differ). */
  private contributionOf(
    index: number,
    entry: PlanEntry,
    pattern: Workload["accessPatterns"][number],
  ): ContributionEntry {
    const found = entry.contributions.find((c) =>
      c.leases.every(([container, type, value]) => this.leasesOf(container, type) === value),
    );
    if (found !== undefined) return found;
    this.trace = new Set();
    this.leasesRead = [];
    const contribution = loadContribution(this.env, entry.plan, pattern, {
      counterPatchesPerSecondPerParent: (container, type) => {
        const value = this.leasesOf(container, type);
        this.leasesRead?.push([container, type, value]);
        return value;
      },
    });
    const made: ContributionEntry = { leases: this.leasesRead, contribution };
    this.leasesRead = undefined;
    const keys = this.trace;
    this.trace = undefined;
    this.cache.addReads(index, entry, keys);
    entry.contributions.unshift(made);
    if (entry.contributions.length > CONTRIBUTIONS_PER_PLAN)
      entry.contributions.length = CONTRIBUTIONS_PER_PLAN;
    return made;
  }
}
