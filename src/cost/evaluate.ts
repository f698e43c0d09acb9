/**
 * Evaluates a model against a workload: plans every access pattern, solves the physical
 * partition count of each container as a fixed point (fan-out cost grows with partitions, and
 * the partitions follow the RU/s provisioned and the storage), finds hot logical and physical
 * partitions, decides the account's capacity mode, recommends throughput and prices the month.
 */
import { MAX_PHYSICAL_PARTITION_GB } from "../cosmos/limits.js";
import { DEFAULT_PRICES, type Prices } from "../cosmos/prices.js";
import type { EvaluationIssue } from "../common/issues.js";
import type { Container, Model } from "../model/types.js";
import { partitionKeyHashingOf } from "../planner/container-definition.js";
import { type PlanOptions } from "../planner/environment.js";
import type { Workload } from "../workload/types.js";
import { chooseAccountCapacity, type AccountCapacity } from "./capacity-mode.js";
import { containerLayout, EMPTY_LOAD, layoutModeOf } from "./container-layouts.js";
import { checkAccount, checkItemSizes, evaluateContainer, evaluatePatterns } from "./evaluate-findings.js";
import type { Evaluation } from "./evaluation-types.js";
import { type LayoutMode } from "./layout.js";
import { EvaluationCache } from "./evaluation-cache.js";
import { Solver, type Solved } from "./solver.js";
import { type ContainerLoad } from "./loads.js";
import { containerAnswerKey } from "./model-answers.js";
import { storageOf, type ContainerStorage } from "./storage.js";
import {
  chooseThroughput,
  priceThroughputOptions,
  withOwnOptions,
  type OwnOptions,
  type ThroughputChoice,
  type ThroughputOption,
  type ThroughputInput,
} from "./throughput.js";
import { atomicWriteIssues } from "./atomic-writes.js";
import { integratedCacheIssues, planIntegratedCache, withSavings } from "./integrated-cache-evaluation.js";
import { leaseIssues, soundnessIssues } from "./soundness.js";
import { formatInteger } from "../common/format-number.js";
import {
  fewestThatFit,
  growPartitions,
  type FixedPointOutcome,
  type PartitionSearch,
} from "./partition-fixed-point.js";

export { patternLoadOn } from "./partition-fixed-point.js";

export interface EvaluateOptions extends Omit<PlanOptions, "partitions"> {
  readonly prices?: Prices;
  /** Where `coefficients` come from, in words (the evaluation's `requestCharges.source`). */
  readonly coefficientsSource?: string;
  /** Most rounds of the partition-count fixed point over the containers (each settles its own). */
  readonly maxIterations?: number;
}

/** Everything the evaluation computed, including the plans and environment used. */
export interface DetailedEvaluation extends Evaluation {
  readonly partitions: Readonly<Record<string, number>>;
  /** How the partition-count fixed point ended (rounds, solves, whether it settled). */
  readonly fixedPoint: Omit<FixedPointOutcome, "state">;
}

/** Change-feed batches are read about once a second per lease under load (assumption of this model). */
const CHANGE_FEED_BATCHES_PER_SECOND = 1;

/**
 * Evaluates `model` for `workload`.
 * @example evaluateModel(workload, model).totals.monthlyCostUSD
 */
export function evaluateModel(
  workload: Workload,
  model: Model,
  options: EvaluateOptions = {},
): DetailedEvaluation {
  return evaluateWith(new EvaluationCache(workload), workload, model, options);
}

/**
 * An evaluator for many models of one workload (a design search): each evaluation equals
 * `evaluateModel`'s, and reuses the plans, loads and layouts of the models before it wherever
 * the model answers the same (`evaluation-cache.ts`).
 * @example const evaluate = createEvaluator(workload); evaluate(a); evaluate(b);
 */
export function createEvaluator(
  workload: Workload,
  options: EvaluateOptions = {},
): ((model: Model) => DetailedEvaluation) & { readonly planningWork: () => number } {
  const cache = new EvaluationCache(workload);
  return Object.assign((model: Model) => evaluateWith(cache, workload, model, options), {
    planningWork: () => cache.planningWork,
  });
}

function evaluateWith(
  evaluationCache: EvaluationCache,
  fullWorkload: Workload,
  model: Model,
  options: EvaluateOptions,
): DetailedEvaluation {
  const prices = options.prices ?? DEFAULT_PRICES;
  // With an integrated cache, the database serves the cached reads' misses only: the model is
  // planned and priced against that traffic (integrated-cache-evaluation.ts). The served workload
  // differs from the full one in read rates only, which no plan reads (planning reads the rates of
  // writes alone): the plans stay in the one cache, the loads and figures made from the rates are
  // kept apart by them (`Solver`, `evaluatePatterns`).
  const gateway = planIntegratedCache(fullWorkload, model, prices);
  const workload = gateway?.served ?? fullWorkload;
  const cache = evaluationCache;
  const issues: EvaluationIssue[] = [];
  const partitions: Record<string, number> = {};
  // A parent's children sit in one logical partition (or one per write shard), each read by one
  // change-feed lease that sums a batch's changes per parent: at most that many patches/s.
  const leasesOf = (name: string, itemType: string): number => {
    const shards =
      model.containers.find((c) => c.name === name)?.items.find((i) => i.type === itemType)?.shards ?? 1;
    return CHANGE_FEED_BATCHES_PER_SECOND * Math.min(shards, partitions[name] ?? 1);
  };
  const solver = new Solver(cache, workload, model, options, leasesOf);
  const storage = new Map<string, ContainerStorage>();
  for (const container of model.containers)
    storage.set(
      container.name,
      solver.remember(`storage ${container.name}`, [containerAnswerKey(container.name)], (env) =>
        storageOf(env, container),
      ),
    );
  for (const container of model.containers) {
    const gb = storage.get(container.name)?.totalGB ?? 0;
    partitions[container.name] =
      container.physicalPartitions ?? Math.max(1, Math.ceil(gb / MAX_PHYSICAL_PARTITION_GB));
  }
  const search: PartitionSearch = {
    workload,
    model,
    solver,
    storage,
    partitions,
    diverging: new Set(),
    modeHint: new Map(),
    issues,
  };
  const initialCounts = { ...partitions };
  const grown = growPartitions(search, solver.solve(partitions), options.maxIterations ?? 40);
  const state = fewestThatFit(search, grown.state);
  const maxRounds = options.maxIterations ?? 40;
  const followed = followChosenLayouts(search, cache, state, prices, () =>
    manualFixedPoint(search, cache, initialCounts, prices, maxRounds),
  );
  const { plans, loads } = followed.state;
  const patterns = evaluatePatterns(cache, workload, plans, loads, issues);
  const containers = model.containers.map((container, index) =>
    evaluateContainer(
      solver.environment,
      container,
      loads.get(container.name) ?? EMPTY_LOAD,
      storage.get(container.name),
      followed.priced.choices[index],
      issues,
    ),
  );
  checkAccount(followed.priced.account, containers, issues);
  checkItemSizes(solver.environment, model, issues);
  issues.push(...atomicWriteIssues(workload, model));
  issues.push(...soundnessIssues(workload, model), ...leaseIssues(model, plans));
  const integratedCache =
    gateway === undefined
      ? undefined
      : withSavings(gateway.cache, (id) => patterns.find((p) => p.id === id)?.ru.estimate ?? 0);
  if (integratedCache !== undefined) issues.push(...integratedCacheIssues(integratedCache));
  const gatewayUSD = integratedCache?.monthlyCostUSD ?? 0;
  const totals = {
    rus: {
      avg: containers.reduce((sum, c) => sum + c.rus.avg, 0),
      peak: containers.reduce((sum, c) => sum + c.rus.peak, 0),
    },
    monthlyCostUSD: containers.reduce((sum, c) => sum + c.monthlyCostUSD, 0) + gatewayUSD,
    monthlyCostRange: {
      lowUSD: containers.reduce((sum, c) => sum + c.monthlyCostRange.lowUSD, 0) + gatewayUSD,
      highUSD: containers.reduce((sum, c) => sum + c.monthlyCostRange.highUSD, 0) + gatewayUSD,
    },
  };
  return {
    patterns,
    containers,
    totals,
    account: followed.priced.account,
    ...(integratedCache === undefined ? {} : { integratedCache }),
    issues,
    ...(options.coefficients === undefined
      ? {}
      : {
          requestCharges: {
            source: options.coefficientsSource ?? "coefficients given to the evaluation",
            coefficients: options.coefficients,
          },
        }),
    partitions: { ...partitions },
    fixedPoint: { rounds: grown.rounds, settled: grown.settled, solves: grown.solves },
  };
}

/** One provisioned mode's own fixed point: the counts it reached and the options priced there. */
interface ModeFixedPoint {
  readonly partitions: Readonly<Record<string, number>>;
  readonly diverging: ReadonlySet<string>;
  readonly options: readonly (readonly ThroughputOption[])[];
}

/**
 * The fixed point of the containers the model leaves the mode of, with their layouts in manual
 * throughput (created with RU/s / 6,000 partitions, not autoscale's max RU/s / 10,000): a search
 * of its own (its counts, stopped containers and findings), from the counts storage gives: not
 * from autoscale's, since manual can settle lower (a manual layout whose busiest partition needs
 * more than the 6,000 RU/s a manual creation gives stops growing, where autoscale grows on).
 * Its findings are not the evaluation's: they are of a mode the choice may not take.
 */
function manualFixedPoint(
  search: PartitionSearch,
  cache: EvaluationCache,
  initialCounts: Readonly<Record<string, number>>,
  prices: Prices,
  maxRounds: number,
): ModeFixedPoint {
  const manual: PartitionSearch = {
    ...search,
    partitions: { ...initialCounts },
    diverging: new Set(),
    modeHint: new Map(search.model.containers.map((c) => [c.name, "manual" as const])),
    issues: [],
  };
  const grown = growPartitions(manual, search.solver.solve(manual.partitions), maxRounds);
  const state = fewestThatFit(manual, grown.state);
  const { workload, model, storage } = search;
  const priced = priceContainers(cache, workload, model, state.loads, storage, prices, plannedOf(manual));
  return { partitions: manual.partitions, diverging: manual.diverging, options: priced.options };
}

/** The counts the search planned with, and whether each is frozen (a fan-out that cannot scale). */
function plannedOf(search: PartitionSearch): Map<string, { partitions: number; fixed: boolean }> {
  return new Map(
    search.model.containers.map((c) => [
      c.name,
      { partitions: search.partitions[c.name] ?? 1, fixed: search.diverging.has(c.name) },
    ]),
  );
}

/**
 * The options of each container whose mode the model leaves open, each provisioned mode priced
 * at its own fixed point (manual at the manual search's counts, autoscale at the search's), and
 * the counts of the cheaper of the two (the cheapest allowed, as `chooseThroughput` chooses).
 * A container that cannot settle in manual has manual not allowed (and keeps autoscale's).
 */
function ownFixedPoints(
  search: PartitionSearch,
  autoscale: readonly (readonly ThroughputOption[])[],
  manual: ModeFixedPoint,
): Map<string, { own: OwnOptions; partitions: number; mode: LayoutMode }> {
  const out = new Map<string, { own: OwnOptions; partitions: number; mode: LayoutMode }>();
  for (const [index, container] of search.model.containers.entries()) {
    const name = container.name;
    if (!opensMode(container) || search.diverging.has(name)) continue;
    const manualPriced = manual.options[index]?.find((o) => o.mode === "manual");
    const autoscaleOwn = autoscale[index]?.find((o) => o.mode === "autoscale");
    if (manualPriced === undefined || autoscaleOwn === undefined) continue;
    // Created with manual throughput its fan-out never settles (each partition needs another):
    // manual is not possible, whatever it would cost where the search stopped.
    const manualOwn: ThroughputOption = manual.diverging.has(name)
      ? {
          ...manualPriced,
          allowed: false,
          why: `with manual throughput (RU/s / 6,000 partitions at creation) its fan-out cannot settle: each partition added needs another (stopped at ${formatInteger(manual.partitions[name] ?? 1)} partitions)`,
        }
      : manualPriced;
    const pair = [manualOwn, autoscaleOwn];
    const allowed = pair.filter((o) => o.allowed);
    const pool = allowed.length > 0 ? allowed : pair;
    const cheaper = pool.reduce((a, b) => (b.monthlyThroughputUSD < a.monthlyThroughputUSD ? b : a));
    out.set(name, {
      own: { manual: manualOwn, autoscale: autoscaleOwn },
      partitions: cheaper.mode === "manual" ? (manual.partitions[name] ?? 1) : (search.partitions[name] ?? 1),
      mode: cheaper.mode,
    });
  }
  return out;
}

/** The model leaves the container's throughput mode and partition count to the evaluation. */
function opensMode(container: Container): boolean {
  return container.throughput === undefined && container.physicalPartitions === undefined;
}

/**
 * Prices every mode on its own layout, each provisioned mode at its own partition fixed point
 * (the search's counts follow autoscale; manual gets a search of its own), decides the account's
 * capacity mode, and follows the chosen layouts (a mode's partition count changes fan-out costs,
 * so it re-plans once one moves).
 */
function followChosenLayouts(
  search: PartitionSearch,
  cache: EvaluationCache,
  initial: Solved,
  prices: Prices,
  manualSearch: () => ModeFixedPoint,
): { state: Solved; priced: { account: AccountCapacity; choices: ThroughputChoice[] } } {
  const { workload, model, partitions, diverging, storage } = search;
  let state = initial;
  let priced = priceContainers(cache, workload, model, state.loads, storage, prices, plannedOf(search));
  let own = new Map<string, { own: OwnOptions; partitions: number; mode: LayoutMode }>();
  if (model.containers.some((c) => opensMode(c) && !diverging.has(c.name))) {
    own = ownFixedPoints(search, priced.options, manualSearch());
    for (const [name, fixedPoint] of own) {
      search.modeHint.set(name, fixedPoint.mode);
      partitions[name] = fixedPoint.partitions;
    }
    // Always solved again: the manual search's solves left the solver (and the environment the
    // findings read) at its counts.
    state = search.solver.solve(partitions);
    priced = priceContainers(cache, workload, model, state.loads, storage, prices, plannedOf(search), own);
  }
  for (let round = 0; round < MAX_LAYOUT_ROUNDS; round++) {
    let moved = false;
    for (const [index, container] of model.containers.entries()) {
      const choice = priced.choices[index];
      if (choice === undefined || diverging.has(container.name) || container.physicalPartitions !== undefined)
        continue;
      search.modeHint.set(container.name, choice.chosen.mode);
      if (choice.chosen.layout.partitions !== partitions[container.name]) {
        partitions[container.name] = choice.chosen.layout.partitions;
        moved = true;
      }
    }
    if (!moved) break;
    state = search.solver.solve(partitions);
    priced = priceContainers(cache, workload, model, state.loads, storage, prices, plannedOf(search), own);
  }
  return { state, priced };
}

function withoutPin(input: ThroughputInput): ThroughputInput {
  const { pinned: _ignored, ...rest } = input;
  return rest;
}

/** What identifies a container's own-fixed-point options in the memo keys. */
function ownKey(own: OwnOptions): string {
  return [own.manual, own.autoscale]
    .map((o) =>
      o === undefined
        ? "-"
        : `${o.provisionedRus}/${o.layout.partitions}/${o.layout.hottest}/${o.monthlyThroughputUSD}/${o.allowed}`,
    )
    .join(",");
}

/** Rounds of "choose modes, follow their layouts, re-plan" (it settles in one or two). */
const MAX_LAYOUT_ROUNDS = 3;

/** Every container priced in every mode, the account's capacity mode, and each container's choice. */
function priceContainers(
  cache: EvaluationCache,
  workload: Workload,
  model: Model,
  loads: ReadonlyMap<string, ContainerLoad>,
  storage: ReadonlyMap<string, ContainerStorage>,
  prices: Prices,
  planned: Map<string, { readonly partitions: number; readonly fixed: boolean }>,
  ownPoints: ReadonlyMap<string, { readonly own: OwnOptions }> = new Map(),
): { account: AccountCapacity; choices: ThroughputChoice[]; options: ThroughputOption[][] } {
  const priced = model.containers.map((container) => {
    const own = ownPoints.get(container.name)?.own ?? {};
    const load = loads.get(container.name) ?? EMPTY_LOAD;
    const storageGB = storage.get(container.name)?.totalGB ?? 0;
    const plannedHere = planned.get(container.name);
    const layout = (mode: LayoutMode) => containerLayout(container, mode, load, storageGB, plannedHere);
    const input: ThroughputInput = {
      peak: load.peak,
      avg: load.avg,
      storageGB,
      regions: workload.scale.regions,
      multiRegionWrites: workload.scale.multiRegionWrites,
      layouts: { manual: layout("manual"), autoscale: layout("autoscale"), serverless: layout("serverless") },
      ...(workload.scale.trafficProfile === undefined
        ? {}
        : { trafficProfile: workload.scale.trafficProfile }),
      ...(container.throughput === undefined ? {} : { pinned: container.throughput }),
    };
    // What the prices read besides the load (the workload and the prices are the cache's own).
    const hashing = partitionKeyHashingOf(container);
    const key = [
      storageGB,
      hashing.kind,
      hashing.version,
      container.physicalPartitions,
      JSON.stringify(container.throughput ?? null),
      plannedHere?.partitions,
      plannedHere?.fixed,
      ownKey(own),
    ].join("|");
    return {
      input,
      load,
      key,
      own,
      options: cache.memo(load, `options ${key}`, () =>
        withOwnOptions(priceThroughputOptions(input, prices), own),
      ),
    };
  });
  const account = chooseAccountCapacity(
    model.containers.map((container, index) => ({ container, options: priced[index]?.options ?? [] })),
  );
  const choices = priced.map(({ input, load, key, own }) => {
    // A container whose setting the account cannot honour is priced in the account's mode.
    const unpinned =
      input.pinned !== undefined && !account.modes.includes(layoutModeOf(input.pinned, "autoscale"));
    return cache.memo(load, `choice ${key}|${unpinned}|${account.modes.join(",")}`, () =>
      chooseThroughput(unpinned ? withoutPin(input) : input, prices, account.modes, own),
    );
  });
  return { account, choices, options: priced.map((p) => p.options) };
}
