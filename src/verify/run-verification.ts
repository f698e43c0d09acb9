/**
 * Executes a verification plan against an endpoint: deploys the model, bulk-loads the synthetic
 * data, runs the write patterns through the generated data-access functions with their
 * maintenance (the change feed on a real endpoint; the same handlers called directly on the
 * embedded one, whose change feed does not deliver new changes), then runs every read pattern
 * through the generated functions and compares each answer with the oracle's. Records request
 * charges (real endpoints only) and latencies per pattern. The database is removed afterwards
 * unless `keep`.
 */
import type { RecordedCharge } from "./record-charges.js";
import type { Model } from "../model/types.js";
import { createRng } from "../synthetic/random.js";
import type { Workload } from "../workload/types.js";
import { overfullSets } from "./bounded-sets.js";
import { findStrayItems } from "./stray-items.js";
import { deployModel, type Deployment } from "./deploy.js";
import {
  EMBEDDED_LIMITATIONS,
  redactSecrets,
  type CosmosEndpoint,
  type EndpointCapabilities,
} from "./endpoint.js";
import { databaseWithFault, type MaintenanceState } from "./fault-database.js";
import { CrashSchedule, type CrashPoint } from "./crash-schedule.js";
import {
  startFeedMaintenance,
  startSimulatedFeedMaintenance,
  type FeedMaintenance,
} from "./feed-maintenance.js";
import { changeFeedModeOf } from "../render/code/model-data.js";
import { simulatedFeed } from "./simulated-feed.js";
import { loadItems } from "./load.js";
import { loadDataAccess } from "./load-data-access.js";
import type { ProbeOutcome } from "./probe-outcomes.js";
import { planProbes } from "./probe-plan.js";
import { runProbes } from "./run-probes.js";
import {
  failOverfullSets,
  failStrayItems,
  round,
  runReadPatterns,
  runWritePatterns,
  shareCarrierOutcomes,
  type CheckStatus,
  type PatternOutcome,
  type PatternRun,
  type VerifyProgress,
} from "./run-patterns.js";
import {
  buildVerificationPlan,
  type EndpointLimitation,
  type VerificationOptions,
  type VerificationPlan,
  type VerifyFault,
} from "./verification-plan.js";

export type { CheckStatus, PatternOutcome, VerifyProgress } from "./run-patterns.js";

export interface VerificationReport {
  readonly endpoint: { readonly kind: "embedded" | "real"; readonly url: string };
  readonly databaseId: string;
  readonly kept: boolean;
  readonly seed: number;
  readonly fault?: VerifyFault;
  readonly data: {
    readonly recordsPerEntity: Readonly<Record<string, number>>;
    readonly itemsPerContainer: Readonly<Record<string, number>>;
    readonly loaded: number;
    readonly loadMs: number;
    readonly writes: number;
  };
  /** Loading the data: failed when the model gives one id to several items of a partition. */
  readonly load: { readonly status: CheckStatus; readonly detail?: string };
  readonly patterns: readonly PatternOutcome[];
  /** Checks this endpoint could not run for the whole model, and why. */
  readonly limitations: readonly EndpointLimitation[];
  /** What no verify run checks, whatever the endpoint. */
  readonly outOfScope: readonly string[];
  readonly counts: { readonly passed: number; readonly failed: number; readonly notCheckable: number };
  /**
   * With `recordCharges`: each one-request read's measured charge and features, for `calibrate`
   * (not charge-bearing on the embedded endpoint).
   */
  readonly charges?: readonly RecordedCharge[];
  /**
   * The probes of the data-access layer's promises that apply to the model (concurrent counters,
   * a child changed and removed, paging, a change-feed processor restarted), each with its figures.
   */
  readonly probes: readonly ProbeOutcome[];
  readonly probeCounts: { readonly passed: number; readonly failed: number; readonly notCheckable: number };
  /** The simulated feed's run: maintenance steps taken and the crashes injected. */
  readonly simulatedFeed?: {
    readonly steps: number;
    readonly crashes: readonly { readonly step: number; readonly when: string; readonly what: string }[];
  };
  /** No pattern and no probe failed, and the data loaded. */
  readonly ok: boolean;
  readonly elapsedMs: number;
}

export interface RunOptions {
  /** Keep the database afterwards. */
  readonly keep?: boolean;
  /** Skip one kind of maintenance on purpose (tests: the checks must then fail). */
  readonly fault?: VerifyFault;
  readonly onProgress?: (progress: VerifyProgress) => void;
  /** Secrets to redact from error messages (the account key). */
  readonly secrets?: readonly string[];
  /** Change feed polling on a real endpoint (ms). Default 250. */
  readonly changeFeedPollMs?: number;
  /** Longest wait for the change feed to settle after a write pattern (ms). Default 60,000. */
  readonly changeFeedTimeoutMs?: number;
  /** Record the measured charge of each one-request read with its features (`charges` of the report). */
  readonly recordCharges?: boolean;
  /** Page sizes the paging probe reads every request at (default: a quarter of the largest answer). */
  readonly pagingPageSizes?: readonly number[];
  /**
   * Maintain derived data with the module's change-feed processors over a simulated feed (for an
   * endpoint without one), killed at `crashes` and restarted from their leases.
   */
  readonly simulatedFeed?: SimulatedFeedOptions;
}

/** The simulated change feed of a verify run (simulated-feed.ts) and its crash schedule. */
export interface SimulatedFeedOptions {
  /** Feed ranges (default 2). */
  readonly ranges?: number;
  /** Changes per feed page (default 100). */
  readonly maxItemCount?: number;
  readonly crashes?: readonly CrashPoint[];
}

/** Items the endpoint refused (409) on load: the model's duplicates or the endpoint's artifacts. */
type LoadConflicts = Awaited<ReturnType<typeof loadItems>>["conflicts"];

/**
 * The load's outcome: conflicts the model explains (two items with one id in a logical partition)
 * are its flaw; others come from an endpoint that keys hierarchical partitions by their first
 * level only, whose containers cannot be read reliably (`unreliable`).
 */
function loadOutcome(
  plan: VerificationPlan,
  conflicts: LoadConflicts,
  capabilities: EndpointCapabilities,
): { load: VerificationReport["load"]; unreliable: Set<string> } {
  const modelDuplicates = new Set(
    plan.duplicates.map((d) => JSON.stringify([d.container, d.partitionKey, d.id])),
  );
  const flawed = conflicts.filter((c) =>
    modelDuplicates.has(JSON.stringify([c.container, c.partitionKey, c.id])),
  );
  const artifacts = conflicts.filter(
    (c) => !modelDuplicates.has(JSON.stringify([c.container, c.partitionKey, c.id])),
  );
  const unreliable = new Set(capabilities.hierarchicalKeysFull ? [] : artifacts.map((c) => c.container));
  const first = flawed[0] ?? (capabilities.hierarchicalKeysFull ? artifacts[0] : undefined);
  const load: VerificationReport["load"] =
    first === undefined
      ? { status: "passed" }
      : {
          status: "failed",
          detail: `${flawed.length + (capabilities.hierarchicalKeysFull ? artifacts.length : 0)} items were refused as duplicates (409), e.g. ${first.itemType} item ${first.id} in container ${first.container} (partition key ${JSON.stringify(first.partitionKey)}): the model's id template is not unique within a logical partition`,
        };
  return { load, unreliable };
}

/** Containers whose items an endpoint keyed by the first partition key level only may refuse, and why. */
function hierarchicalRisk(
  plan: VerificationPlan,
  capabilities: EndpointCapabilities,
): { hierarchical: Set<string>; hierarchicalReason: string } {
  return {
    hierarchical: new Set(
      capabilities.hierarchicalKeysFull
        ? []
        : plan.model.containers.filter((c) => c.partitionKey.length > 1).map((c) => c.name),
    ),
    hierarchicalReason:
      plan.limitations.find((l) => l.capability === "hierarchicalKeysFull")?.reason ??
      "the endpoint keys items by the first partition key level only",
  };
}

/** The report of a run, its outcomes in the plan's order. */
function reportOf(
  endpoint: CosmosEndpoint,
  plan: VerificationPlan,
  options: RunOptions,
  run: {
    readonly deployment: Deployment;
    readonly loaded: { readonly loaded: number; readonly elapsedMs: number };
    readonly load: VerificationReport["load"];
    readonly outcomes: ReadonlyMap<string, PatternOutcome>;
    readonly probes: readonly ProbeOutcome[];
    readonly started: number;
    readonly schedule: CrashSchedule | undefined;
    readonly charges?: readonly RecordedCharge[];
  },
): VerificationReport {
  const secrets = options.secrets ?? [];
  const patterns = plan.patterns.flatMap((check) => run.outcomes.get(check.patternId) ?? []);
  const counts = {
    passed: patterns.filter((p) => p.status === "passed").length,
    failed: patterns.filter((p) => p.status === "failed").length,
    notCheckable: patterns.filter((p) => p.status === "notCheckable").length,
  };
  const probeCounts = {
    passed: run.probes.filter((p) => p.status === "passed").length,
    failed: run.probes.filter((p) => p.status === "failed").length,
    notCheckable: run.probes.filter((p) => p.status === "notCheckable").length,
  };
  return {
    endpoint: { kind: endpoint.kind, url: redactSecrets(endpoint.endpoint, secrets) },
    databaseId: run.deployment.databaseId,
    kept: options.keep === true,
    seed: plan.seed,
    ...(options.fault === undefined ? {} : { fault: options.fault }),
    data: {
      recordsPerEntity: Object.fromEntries(
        Object.entries(plan.dataset.entities).map(([entity, records]) => [entity, records.length]),
      ),
      itemsPerContainer: Object.fromEntries(plan.items.map((c) => [c.container, c.items.length])),
      loaded: run.loaded.loaded,
      loadMs: round(run.loaded.elapsedMs),
      writes: plan.writes.length,
    },
    load: run.load,
    patterns,
    limitations: plan.limitations,
    outOfScope: plan.outOfScope,
    counts,
    probes: run.probes,
    probeCounts,
    ...(run.schedule === undefined
      ? {}
      : { simulatedFeed: { steps: run.schedule.steps, crashes: [...run.schedule.crashes] } }),
    ...(run.charges === undefined ? {} : { charges: run.charges }),
    ok: counts.failed === 0 && probeCounts.failed === 0 && run.load.status !== "failed",
    elapsedMs: round(performance.now() - run.started),
  };
}

/**
 * Runs a verification plan on an endpoint and reports per pattern. Throws `CosmosModelerError`
 * only when the run cannot proceed (deploy, load or module failures); pattern failures are
 * outcomes.
 */
export async function runVerification(
  endpoint: CosmosEndpoint,
  plan: VerificationPlan,
  options: RunOptions = {},
): Promise<VerificationReport> {
  const started = performance.now();
  const capabilities = endpoint.capabilities;
  options.onProgress?.({ kind: "deploy" });
  const deployment: Deployment = await deployModel(endpoint.client, plan.deployedModel, {
    ...(options.keep === true ? { keep: true } : {}),
  });
  let dispose: (() => Promise<void>) | undefined;
  let feed: FeedMaintenance | undefined;
  try {
    const loaded = await loadItems(deployment.containers, plan.items, {
      onProgress: (done, total) => options.onProgress?.({ kind: "load", done, total }),
    });
    const { load, unreliable } = loadOutcome(plan, loaded.conflicts, capabilities);
    const state: MaintenanceState = { depth: 0 };
    const schedule =
      options.simulatedFeed === undefined ? undefined : new CrashSchedule(options.simulatedFeed.crashes);
    const faulty = databaseWithFault(deployment.database, options.fault, state);
    const simulated =
      options.simulatedFeed === undefined
        ? undefined
        : simulatedFeed(
            deployment.database,
            new Map(plan.deployedModel.containers.map((c) => [c.name, c.partitionKey[0] ?? "/id"])),
            { ...options.simulatedFeed, mode: changeFeedModeOf(plan.deployedModel) },
          );
    const database =
      schedule === undefined || simulated === undefined ? faulty : simulated.watch(schedule.database(faulty));
    const loadedModule = await loadDataAccess(plan.workload, plan.model, plan.plans, database, {
      // Batches with patch operations where the endpoint runs them atomically; else one by one.
      transactionalBatch: capabilities.atomicBatch && capabilities.patchInBatch,
      random: createRng(plan.seed, "replicas"),
    });
    dispose = loadedModule.dispose;
    const access = loadedModule.access;
    if (schedule !== undefined && simulated !== undefined) {
      feed = await startSimulatedFeedMaintenance(
        access,
        state,
        simulated,
        schedule,
        options.changeFeedTimeoutMs ?? 60_000,
        changeFeedModeOf(plan.deployedModel),
      );
    } else if (capabilities.changeFeed) {
      feed = await startFeedMaintenance(
        access,
        state,
        options.changeFeedPollMs ?? 250,
        options.changeFeedTimeoutMs ?? 60_000,
      );
    }
    const run: PatternRun = {
      plan,
      access,
      capabilities,
      state,
      feed,
      secrets: options.secrets ?? [],
      onProgress: options.onProgress,
      ...hierarchicalRisk(plan, capabilities),
      unreliable,
      ...(options.recordCharges === true ? { charges: [] } : {}),
    };
    const outcomes = await runWritePatterns(run);
    failOverfullSets(plan, outcomes, await overfullSets(deployment, plan.model));
    failStrayItems(
      plan,
      outcomes,
      await findStrayItems(deployment.containers, plan.model, plan.finalAddresses, unreliable),
    );
    shareCarrierOutcomes(plan, outcomes);
    await runReadPatterns(run, outcomes);
    // The probes write after the reads were checked (fresh keys): they change no checked answer.
    const probes = await runProbes(
      { ...run, containers: deployment.containers },
      planProbes(
        plan,
        options.pagingPageSizes === undefined ? {} : { pagingPageSizes: options.pagingPageSizes },
      ),
    );
    return reportOf(endpoint, plan, options, {
      deployment,
      loaded,
      load,
      outcomes,
      probes,
      started,
      schedule,
      ...(run.charges === undefined ? {} : { charges: run.charges }),
    });
  } finally {
    await feed?.stop();
    await dispose?.();
    await deployment.remove();
  }
}

/**
 * Plans and runs the verification of a model on an endpoint (the plan follows the endpoint's
 * capabilities; the reasons come from `EMBEDDED_LIMITATIONS`).
 * @example const report = await verifyOnEndpoint(await startEmbeddedEndpoint(), workload, model, { seed: 1 });
 */
export async function verifyOnEndpoint(
  endpoint: CosmosEndpoint,
  workload: Workload,
  model: Model,
  options: VerificationOptions & RunOptions = {},
): Promise<VerificationReport> {
  // A simulated change feed gives the endpoint one.
  const fed =
    options.simulatedFeed === undefined
      ? endpoint
      : { ...endpoint, capabilities: { ...endpoint.capabilities, changeFeed: true } };
  const plan = buildVerificationPlan(workload, model, fed.capabilities, EMBEDDED_LIMITATIONS, options);
  return runVerification(fed, plan, options);
}
