/**
 * One evaluation's solves: the plans and loads of a model at each set of partition counts its
 * fixed point tries, each solve redoing only what the counts it changes can reach, with the
 * plans and loads the design's earlier models left in the cache (`evaluation-cache.ts`).
 */
import type { Model } from "../model/types.js";
import { createPlanEnvironment, type PlanEnvironment, type PlanOptions } from "../planner/environment.js";
import { planAccessPattern } from "../planner/plan-model.js";
import type { Plan, PlanStep } from "../planner/types.js";
import type { Workload } from "../workload/types.js";
import type { ContributionEntry, EvaluationCache, PlanEntry } from "./evaluation-cache.js";
import { loadContribution, type ContainerLoad } from "./loads.js";
import { recordingContext, type AnswerKey } from "./model-answers.js";

/** Contributions kept per plan (different lease counts). */
const CONTRIBUTIONS_PER_PLAN = 4;

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
  /** The last solve's plans and loads (shared while nothing changes), and whether a plan changed. */
  private lastPlans: readonly Plan[] | undefined;
  private lastLoads: ReadonlyMap<string, ContainerLoad> | undefined;
  private plansChanged = false;
  /** Containers whose contributions changed since their load was last built. */
  private readonly pending = new Set<string>();

  /** The model's planning environment (partition counts: those of the last solve). */
  readonly environment: PlanEnvironment;
  /** The partition counts of the solve under way. */
  private counts: Readonly<Record<string, number>> = {};

  /**
   * @param workload the cache's workload, or one that differs from it in read rates only (the
   *   traffic an integrated cache leaves the database): plans are shared, contributions are not
   * @param leasesOf change-feed leases per source item type (read when contributions are made)
   */
  constructor(
    private readonly cache: EvaluationCache,
    private readonly workload: Workload,
    private readonly model: Model,
    options: PlanOptions,
    private readonly leasesOf: (container: string, itemType: string) => number,
  ) {
    // Planning reads the counts of the solve under way (as `createPlanEnvironment` reads its
    // `partitions` option: 1 when absent, never below 1).
    const base: PlanEnvironment = {
      ...createPlanEnvironment(workload, model, options),
      partitions: (container) => Math.max(1, this.counts[container] ?? 1),
    };
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
    const patterns = workload.accessPatterns.length;
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

  /**
   * The plans at `counts` (physical partitions per container), without the loads: the loads of
   * the containers whose contributions changed are rebuilt at the next `solve`.
   */
  solvePlans(counts: Readonly<Record<string, number>>): readonly Plan[] {
    this.counts = counts;
    const dirty = new Set<number>();
    if (this.lastPlans === undefined) {
      for (let index = 0; index < this.plans.length; index++) dirty.add(index);
      for (const container of this.model.containers) this.pending.add(container.name);
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
    for (const index of [...dirty].sort((a, b) => a - b)) this.refresh(index, this.pending);
    for (const name of this.countReaders.keys()) this.lastCounts.set(name, this.base.partitions(name));
    // A solve that changes no plan gives the same array (shared, never changed).
    if (this.lastPlans === undefined || this.plansChanged) this.lastPlans = [...this.plans];
    this.plansChanged = false;
    return this.lastPlans;
  }

  /** Plans and loads at `counts` (physical partitions per container). */
  solve(counts: Readonly<Record<string, number>>): Solved {
    const plans = this.solvePlans(counts);
    let loadsChanged = this.lastLoads === undefined;
    for (const name of this.pending) {
      const sequence = (this.touching.get(name) ?? []).flatMap((index) => {
        const entry = this.contributions[index];
        return entry === undefined ? [] : [entry.contribution];
      });
      const load = this.cache.loadOf(name, sequence);
      if (this.loads.get(name) !== load) loadsChanged = true;
      this.loads.set(name, load);
    }
    this.pending.clear();
    if (this.lastLoads === undefined || loadsChanged) {
      const fresh = new Map<string, ContainerLoad>();
      for (const container of this.model.containers) {
        const load = this.loads.get(container.name);
        if (load !== undefined) fresh.set(container.name, load);
      }
      this.lastLoads = fresh;
    }
    return { plans, loads: this.lastLoads };
  }

  /**
   * The plans of the patterns `indices` at `counts`, leaving the last solve as it was (a trial
   * of the split search): a pattern whose plan of the last solve read the same counts keeps it,
   * the others are found in the cache or planned (and kept there). The work is that of these
   * patterns alone, however many containers and patterns the model has.
   */
  trialPlans(counts: Readonly<Record<string, number>>, indices: readonly number[]): (Plan | undefined)[] {
    const solved = this.counts;
    this.counts = counts;
    try {
      return indices.map((index) => {
        const pattern = this.workload.accessPatterns[index];
        return pattern === undefined ? undefined : this.entryOf(index, pattern).plan;
      });
    } finally {
      this.counts = solved;
    }
  }

  /** The plan entry of one pattern at the counts under way: the last one, a cached one, or a new one. */
  private entryOf(index: number, pattern: Workload["accessPatterns"][number]): PlanEntry {
    const countOf = (name: string): number => this.base.partitions(name);
    let entry = this.entries[index];
    if (entry === undefined || !entry.counts.every(([name, count]) => countOf(name) === count))
      entry = this.cache.find(index, countOf);
    if (entry === undefined) {
      this.trace = new Set();
      this.countsRead = new Map();
      const plan = planAccessPattern(this.env, pattern);
      this.cache.planningWork += 1 + (pattern.type === "read" ? pattern.with.length : 0);
      const counts = [...this.countsRead];
      this.countsRead = undefined;
      entry = { keys: [], fingerprints: [], counts, plan, contributions: [], verifiedAt: 0 };
      const keys = this.trace;
      this.trace = undefined;
      this.cache.addReads(index, entry, keys);
      this.cache.add(index, entry);
    }
    return entry;
  }

  /** Brings one pattern's plan and contribution up to date; notes the containers to rebuild. */
  private refresh(index: number, rebuild: Set<string>): void {
    const pattern = this.workload.accessPatterns[index];
    if (pattern === undefined) return;
    const countOf = (name: string): number => this.base.partitions(name);
    const entry = this.entryOf(index, pattern);
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
    const found = entry.contributions.find(
      (c) =>
        c.rates.avg === pattern.rps.avg &&
        c.rates.peak === pattern.rps.peak &&
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
    const made: ContributionEntry = {
      rates: { avg: pattern.rps.avg, peak: pattern.rps.peak },
      leases: this.leasesRead,
      contribution,
    };
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
