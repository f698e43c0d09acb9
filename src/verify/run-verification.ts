/**
 * Executes a verification plan against an endpoint: deploys the model, bulk-loads the synthetic
 * data, runs the write patterns through the generated data-access functions with their
 * maintenance (the change feed on a real endpoint; the same handlers called directly on the
 * embedded one, whose change feed does not deliver new changes), then runs every read pattern
 * through the generated functions and compares each answer with the oracle's. Records request
 * charges (real endpoints only) and latencies per pattern. The database is removed afterwards
 * unless `keep`.
 */
import { CosmosModelerError } from "../common/errors.js";
import type { ReadPattern, WritePattern } from "../workload/types.js";
import type { PlanStep, WritePlan } from "../planner/types.js";
import { findStrayItems } from "./stray-items.js";
import { assembleReadAnswer, type ReadOutput } from "./assemble-answer.js";
import { checkReadAnswer } from "./compare-answers.js";
import { deployModel, type Deployment } from "./deploy.js";
import {
  cosmosFailureOf,
  EMBEDDED_LIMITATIONS,
  redactSecrets,
  wrapCosmosError,
  type CosmosEndpoint,
} from "./endpoint.js";
import { databaseWithFault, type MaintenanceState } from "./fault-database.js";
import { loadItems } from "./load.js";
import {
  loadDataAccess,
  type DataAccess,
  type GeneratedChange,
  type GeneratedWriteResult,
} from "./load-data-access.js";
import { createRng } from "../synthetic/random.js";
import {
  buildVerificationPlan,
  type EndpointLimitation,
  type PatternCheckPlan,
  type VerificationOptions,
  type VerificationPlan,
  type VerifyFault,
} from "./verification-plan.js";
import type { Model } from "../model/types.js";
import type { Workload } from "../workload/types.js";
import type { RuEstimate } from "../estimator/operation.js";

export type CheckStatus = "passed" | "failed" | "notCheckable";

/** The outcome of one access pattern. */
export interface PatternOutcome {
  readonly patternId: string;
  readonly type: "read" | "write";
  readonly name: string;
  readonly status: CheckStatus;
  /** Failed: the first difference (or error); not checkable: why. */
  readonly detail?: string;
  /** Requests run. */
  readonly requests: number;
  /** Reads: results the oracle expected over all requests (0 would make a pass vacuous). */
  readonly results?: number;
  /** Mean measured charge per request; absent where charges are not measured (embedded). */
  readonly measuredRu?: number;
  readonly estimatedRu: RuEstimate;
  /** Where the measured charge falls against the estimate's range (real endpoints only). */
  readonly ruVersusEstimate?: "within" | "below" | "above";
  /** Latency per request in milliseconds (writes: the write itself, without maintenance). */
  readonly latencyMs?: { readonly p50: number; readonly max: number };
}

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
  readonly ok: boolean;
  readonly elapsedMs: number;
}

/** Progress of a run, for a progress bar. */
export type VerifyProgress =
  | { readonly kind: "deploy" }
  | { readonly kind: "load"; readonly done: number; readonly total: number }
  | { readonly kind: "write"; readonly done: number; readonly total: number }
  | { readonly kind: "read"; readonly done: number; readonly total: number };

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
}

function errorText(error: unknown, secrets: readonly string[]): string {
  const failure = cosmosFailureOf(error);
  const status = failure.statusCode === undefined ? "" : `status ${failure.statusCode}: `;
  const message = error instanceof Error ? error.message : String(error);
  const line = redactSecrets(message, secrets).split("\n")[0] ?? "";
  return `${status}${line.length > 300 ? `${line.slice(0, 300)}...` : line}`;
}

/** A measured mean charge and where it falls against the estimate's range. */
function measuredRu(
  mean: number,
  estimate: RuEstimate,
): { measuredRu: number; ruVersusEstimate: "within" | "below" | "above" } {
  const value = round(mean);
  return {
    measuredRu: value,
    ruVersusEstimate: value < estimate.low ? "below" : value > estimate.high ? "above" : "within",
  };
}

/** JSON with invisible characters escaped (a range bound ends in U+FFFF). */
function printable(value: unknown): string {
  return (JSON.stringify(value) ?? "undefined").replace(
    /[\u007f-\u009f\u2028\u2029\ufff0-\uffff]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

function latency(samples: readonly number[]): { p50: number; max: number } | undefined {
  if (samples.length === 0) return undefined;
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    p50: round(sorted[Math.floor((sorted.length - 1) / 2)] ?? 0),
    max: round(sorted[sorted.length - 1] ?? 0),
  };
}

function latencyOf(samples: readonly number[]): { latencyMs?: { p50: number; max: number } } {
  const measured = latency(samples);
  return measured === undefined ? {} : { latencyMs: measured };
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

/** Containers a plan's steps touch. */
function containersOf(check: PatternCheckPlan): Set<string> {
  const steps =
    check.kind === "read" ? check.plan.operations : [...check.plan.operations, ...check.plan.async];
  return new Set(steps.map((step) => step.container));
}

/** Every write step of a write plan, inside batches and change-feed work too. */
function writeSteps(plan: WritePlan): PlanStep[] {
  const flat = (steps: readonly PlanStep[]): PlanStep[] =>
    steps.flatMap((step) =>
      step.kind === "batch"
        ? [step, ...step.operations]
        : step.kind === "changeFeed"
          ? flat(step.steps)
          : [step],
    );
  return flat([...plan.operations, ...plan.async]).filter(
    (step) => step.kind === "write" || step.kind === "batch",
  );
}

/** Change-feed maintenance on a real endpoint: processors, and a way to wait until they settle. */
interface FeedMaintenance {
  settle(): Promise<number>;
  stop(): Promise<void>;
}

async function startFeedMaintenance(
  access: DataAccess,
  state: MaintenanceState,
  pollMs: number,
  timeoutMs: number,
): Promise<FeedMaintenance> {
  let inFlight = 0;
  let lastActivity = performance.now();
  let charge = 0;
  const errors: unknown[] = [];
  const processors = access.startChangeFeedProcessors({
    pollMs,
    onError: (error) => errors.push(error),
    applyChanges: async (changes, cascade) => {
      inFlight++;
      state.depth++;
      try {
        const result = await access.applyChanges(changes, cascade);
        charge += result.requestCharge;
        return result;
      } finally {
        state.depth--;
        inFlight--;
        lastActivity = performance.now();
      }
    },
  });
  // Let every processor read its starting point before the first write.
  await new Promise((resolve) => setTimeout(resolve, pollMs * 4));
  return {
    async settle() {
      const started = performance.now();
      const quiet = Math.max(2000, pollMs * 8);
      for (;;) {
        await new Promise((resolve) => setTimeout(resolve, pollMs));
        const now = performance.now();
        if (inFlight === 0 && now - lastActivity >= quiet && now - started >= quiet) break;
        if (now - started > timeoutMs) {
          throw new CosmosModelerError(
            "verify.changeFeedTimeout",
            `the change feed maintenance did not settle within ${timeoutMs} ms`,
          );
        }
      }
      const error = errors.shift();
      if (error !== undefined) throw error;
      const spent = charge;
      charge = 0;
      return spent;
    },
    stop: () => processors.stop(),
  };
}

/** The read items of a result whose item type is bucketed, hierarchical-keyed, etc. */
function asReadOutput(value: Record<string, unknown>): ReadOutput {
  const items = Array.isArray(value["items"]) ? (value["items"] as Record<string, unknown>[]) : [];
  const followUps = Array.isArray(value["followUps"]) ? (value["followUps"] as ReadOutput["followUps"]) : [];
  const requestCharge = typeof value["requestCharge"] === "number" ? value["requestCharge"] : 0;
  return { items, followUps, requestCharge };
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
  const secrets = options.secrets ?? [];
  const capabilities = endpoint.capabilities;
  const { workload, model } = plan;
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
    // Conflicts the model explains are its flaw; others come from an endpoint that keys
    // hierarchical partitions by their first level only.
    const modelDuplicates = new Set(
      plan.duplicates.map((d) => JSON.stringify([d.container, d.partitionKey, d.id])),
    );
    const flawed = loaded.conflicts.filter((c) =>
      modelDuplicates.has(JSON.stringify([c.container, c.partitionKey, c.id])),
    );
    const artifacts = loaded.conflicts.filter(
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

    const state: MaintenanceState = { depth: 0 };
    const database = databaseWithFault(deployment.database, options.fault, state);
    const loadedModule = await loadDataAccess(workload, model, plan.plans, database, {
      // Batches with patch operations where the endpoint runs them atomically; else one by one.
      transactionalBatch: capabilities.atomicBatch && capabilities.patchInBatch,
      random: createRng(plan.seed, "replicas"),
    });
    dispose = loadedModule.dispose;
    const access = loadedModule.access;
    if (capabilities.changeFeed) {
      feed = await startFeedMaintenance(
        access,
        state,
        options.changeFeedPollMs ?? 250,
        options.changeFeedTimeoutMs ?? 60_000,
      );
    }

    const outcomes = new Map<string, PatternOutcome>();
    // Containers whose items an endpoint keyed by the first level only may refuse (409).
    const hierarchical = new Set(
      capabilities.hierarchicalKeysFull
        ? []
        : model.containers.filter((c) => c.partitionKey.length > 1).map((c) => c.name),
    );
    const hierarchicalReason =
      plan.limitations.find((l) => l.capability === "hierarchicalKeysFull")?.reason ??
      "the endpoint keys items by the first partition key level only";
    const entityKey = (entity: string): string =>
      workload.entities.find((candidate) => candidate.name === entity)?.key ?? "";
    // Writes, pattern by pattern, each followed by its maintenance.
    let writesDone = 0;
    for (const check of plan.patterns) {
      if (check.kind !== "write") continue;
      const pattern = workload.accessPatterns.find((p) => p.id === check.patternId) as WritePattern;
      if (check.notCheckable !== undefined) {
        outcomes.set(check.patternId, notCheckable(check, check.notCheckable));
        writesDone += check.writes.length;
        continue;
      }
      const samples: number[] = [];
      let charge = 0;
      let detail: string | undefined;
      let artifact: string | undefined;
      for (const write of check.writes) {
        try {
          const begin = performance.now();
          const result = (await access.pattern(pattern.id)(write.record, {
            parents: write.parents,
            ...(write.embeds === undefined ? {} : { embeds: write.embeds }),
          })) as unknown as GeneratedWriteResult;
          samples.push(performance.now() - begin);
          charge += result.requestCharge;
          if (feed === undefined) {
            state.depth++;
            try {
              charge += (await access.applyChanges(result.changes as GeneratedChange[])).requestCharge;
            } finally {
              state.depth--;
            }
          }
        } catch (error) {
          const touched = [...containersOf(check)].find((name) => hierarchical.has(name));
          if (cosmosFailureOf(error).statusCode === 409 && touched !== undefined) {
            // Ids unique within the full hierarchical key collide on an endpoint keyed by the first level.
            unreliable.add(touched);
            artifact ??= `container ${touched} refused an item as a duplicate (409) although its full partition key differs: ${hierarchicalReason}`;
          } else {
            const key = write.record[entityKey(pattern.entity)];
            detail ??= `${pattern.id}: the ${pattern.operation} of ${pattern.entity} ${printable(key)} failed: ${errorText(error, secrets)}`;
          }
        }
        options.onProgress?.({ kind: "write", done: ++writesDone, total: plan.writes.length });
      }
      // Wait for the change feed only when the pattern triggers change-feed work.
      if (feed !== undefined && check.plan.async.length > 0 && check.writes.length > 0) {
        try {
          charge += await feed.settle();
        } catch (error) {
          detail ??= `${pattern.id}: change-feed maintenance failed: ${errorText(error, secrets)}`;
        }
      }
      if (detail === undefined && artifact !== undefined) {
        outcomes.set(check.patternId, notCheckable(check, artifact));
        continue;
      }
      outcomes.set(check.patternId, {
        patternId: check.patternId,
        type: "write",
        name: check.name,
        status: detail === undefined ? "passed" : "failed",
        ...(detail === undefined ? {} : { detail }),
        requests: check.writes.length,
        ...(capabilities.measuresRequestCharge && check.writes.length > 0
          ? measuredRu(charge / check.writes.length, check.estimate)
          : {}),
        estimatedRu: check.estimate,
        ...latencyOf(samples),
      });
    }

    // Trimming: after the writes, every bounded set (keepLatest) holds at most its count per
    // logical partition; an overfull set fails the write patterns whose change feed trims it.
    for (const violation of await overfullSets(deployment, model)) {
      for (const check of plan.patterns) {
        if (check.kind !== "write" || check.writes.length === 0) continue;
        const trims = check.plan.async.some(
          (step) => step.container === violation.container && step.itemType === violation.itemType,
        );
        const outcome = outcomes.get(check.patternId);
        if (!trims || outcome === undefined || outcome.status !== "passed") continue;
        outcomes.set(check.patternId, {
          ...outcome,
          status: "failed",
          detail: `${check.patternId}: ${violation.container}/${violation.itemType} holds ${violation.size} items in logical partition ${printable(violation.partitionKey)} after the writes, more than its keepLatest ${violation.count} (the set was not trimmed)`,
        });
      }
    }

    // Stray items: an item the final data does not hold (a copy left under an old key, the old
    // item of a move) fails the write patterns that write or maintain its item type.
    for (const stray of await findStrayItems(deployment.containers, model, plan.finalAddresses, unreliable)) {
      for (const check of plan.patterns) {
        if (check.kind !== "write" || check.writes.length === 0) continue;
        const outcome = outcomes.get(check.patternId);
        if (outcome === undefined || outcome.status !== "passed") continue;
        const touches = writeSteps(check.plan).some(
          (step) => step.container === stray.container && step.itemType === stray.itemType,
        );
        if (!touches) continue;
        outcomes.set(check.patternId, {
          ...outcome,
          status: "failed",
          detail: `${check.patternId}: ${stray.container}/${stray.itemType} holds ${stray.count} item(s) the data no longer has after the writes, e.g. id ${printable(stray.example.id)} in logical partition ${printable(stray.example.partitionKey)} (a copy or item left under an old key)`,
        });
      }
    }

    // Child patterns written inside their parent's items share the parent's outcome.
    for (const check of plan.patterns) {
      if (check.kind !== "write" || check.writtenWith === undefined) continue;
      const carrier = outcomes.get(check.writtenWith);
      outcomes.set(check.patternId, {
        patternId: check.patternId,
        type: "write",
        name: check.name,
        status: carrier?.status ?? "failed",
        detail:
          carrier?.status === "failed"
            ? `${check.patternId}: written with ${check.writtenWith}, which failed: ${carrier.detail ?? ""}`
            : `written inside the items of ${check.writtenWith} (${check.companionWrites ?? 0} records, as the model embeds them); the reads check them`,
        requests: check.companionWrites ?? 0,
        estimatedRu: check.estimate,
      });
    }

    // Reads, against the data after every write.
    const reads = plan.patterns.filter((check) => check.kind === "read");
    const totalReads = reads.reduce((sum, check) => sum + check.requests.length, 0);
    let readsDone = 0;
    for (const check of reads) {
      const pattern = workload.accessPatterns.find((p) => p.id === check.patternId) as ReadPattern;
      const collided = [...containersOf(check)].find((name) => unreliable.has(name));
      const reason =
        check.notCheckable ??
        (collided === undefined
          ? undefined
          : `container ${collided} could not hold all its items (409 for ids that differ only in a lower partition key level): ${hierarchicalReason}`);
      if (reason !== undefined) {
        outcomes.set(check.patternId, notCheckable(check, reason));
        readsDone += check.requests.length;
        continue;
      }
      if (check.plan.operations.length === 0) {
        outcomes.set(check.patternId, {
          patternId: check.patternId,
          type: "read",
          name: check.name,
          status: "failed",
          detail: `${pattern.id}: the model cannot answer this pattern: ${check.plan.notes.join("; ") || "no plan"}`,
          requests: 0,
          estimatedRu: check.estimate,
        });
        readsDone += check.requests.length;
        continue;
      }
      const samples: number[] = [];
      let charge = 0;
      let detail: string | undefined;
      let results = 0;
      for (const request of check.requests) {
        try {
          const begin = performance.now();
          const output = asReadOutput(await access.pattern(pattern.id)(request.parameters));
          samples.push(performance.now() - begin);
          charge += output.requestCharge;
          const assembled = assembleReadAnswer(
            workload,
            model,
            pattern,
            check.plan,
            request.parameters,
            output,
          );
          if (detail === undefined && assembled.leaks.length > 0) {
            detail = `${pattern.id}: ${assembled.leaks.join("; ")} (parameters ${printable(request.parameters)})`;
          }
          if (detail === undefined && assembled.unresolved.length > 0) {
            detail = `${pattern.id}: ${assembled.unresolved.join(", ")} answered neither by the items nor by the follow-up reads (parameters ${printable(request.parameters)})`;
          }
          const result = checkReadAnswer(
            workload,
            plan.finalDataset,
            pattern,
            request.parameters,
            assembled.answers,
          );
          results += result.expectedCount;
          const difference = result.differences[0];
          if (detail === undefined && difference !== undefined) {
            detail = `${difference.message} (parameters ${printable(request.parameters)}${plan.writes.length > 0 ? ", after the writes and their maintenance" : ""})`;
          }
        } catch (error) {
          detail ??= `${pattern.id}: the read with parameters ${printable(request.parameters)} failed: ${errorText(error, secrets)}`;
        }
        options.onProgress?.({ kind: "read", done: ++readsDone, total: totalReads });
      }
      if (detail === undefined && check.designFailure !== undefined) {
        detail = `${pattern.id}: ${check.designFailure}`;
      }
      outcomes.set(check.patternId, {
        patternId: check.patternId,
        type: "read",
        name: check.name,
        status: detail === undefined ? "passed" : "failed",
        ...(detail === undefined ? {} : { detail }),
        requests: check.requests.length,
        results,
        ...(capabilities.measuresRequestCharge && check.requests.length > 0
          ? measuredRu(charge / check.requests.length, check.estimate)
          : {}),
        estimatedRu: check.estimate,
        ...latencyOf(samples),
      });
    }

    const patterns = plan.patterns.flatMap((check) => outcomes.get(check.patternId) ?? []);
    const counts = {
      passed: patterns.filter((p) => p.status === "passed").length,
      failed: patterns.filter((p) => p.status === "failed").length,
      notCheckable: patterns.filter((p) => p.status === "notCheckable").length,
    };
    return {
      endpoint: { kind: endpoint.kind, url: redactSecrets(endpoint.endpoint, secrets) },
      databaseId: deployment.databaseId,
      kept: options.keep === true,
      seed: plan.seed,
      ...(options.fault === undefined ? {} : { fault: options.fault }),
      data: {
        recordsPerEntity: Object.fromEntries(
          Object.entries(plan.dataset.entities).map(([entity, records]) => [entity, records.length]),
        ),
        itemsPerContainer: Object.fromEntries(plan.items.map((c) => [c.container, c.items.length])),
        loaded: loaded.loaded,
        loadMs: round(loaded.elapsedMs),
        writes: plan.writes.length,
      },
      load,
      patterns,
      limitations: plan.limitations,
      outOfScope: plan.outOfScope,
      counts,
      ok: counts.failed === 0 && load.status !== "failed",
      elapsedMs: round(performance.now() - started),
    };
  } finally {
    await feed?.stop();
    await dispose?.();
    await deployment.remove();
  }
}

/** A bounded set (keepLatest) holding more items than its count in one logical partition. */
interface OverfullSet {
  readonly container: string;
  readonly itemType: string;
  readonly partitionKey: readonly unknown[];
  readonly size: number;
  readonly count: number;
}

/** The fullest logical partition of every bounded set that holds more than its count. */
async function overfullSets(deployment: Deployment, model: Model): Promise<OverfullSet[]> {
  const found: OverfullSet[] = [];
  for (const container of model.containers) {
    const cosmos = deployment.containers.get(container.name);
    if (cosmos === undefined) continue;
    const paths = container.partitionKey.map((path) => path.split("/").filter((part) => part !== ""));
    for (const itemType of container.items) {
      if (itemType.keepLatest === undefined) continue;
      let items: Record<string, unknown>[];
      try {
        ({ resources: items } = await cosmos.items
          .query<Record<string, unknown>>({
            query: "SELECT * FROM c WHERE c.type = @type",
            parameters: [{ name: "@type", value: itemType.type }],
          })
          .fetchAll());
      } catch (error) {
        throw wrapCosmosError(error, {
          code: "verify.requestFailed",
          action: `read the ${itemType.type} items of container ${container.name}`,
        });
      }
      const sizes = new Map<string, { key: unknown[]; size: number }>();
      for (const item of items) {
        const key = paths.map((segments) =>
          segments.reduce<unknown>(
            (value, segment) =>
              typeof value === "object" && value !== null
                ? (value as Record<string, unknown>)[segment]
                : undefined,
            item,
          ),
        );
        const text = JSON.stringify(key);
        const entry = sizes.get(text) ?? { key, size: 0 };
        sizes.set(text, { key, size: entry.size + 1 });
      }
      const fullest = [...sizes.values()].sort((a, b) => b.size - a.size)[0];
      if (fullest !== undefined && fullest.size > itemType.keepLatest.count) {
        found.push({
          container: container.name,
          itemType: itemType.type,
          partitionKey: fullest.key,
          size: fullest.size,
          count: itemType.keepLatest.count,
        });
      }
    }
  }
  return found;
}

function notCheckable(check: PatternCheckPlan, reason: string): PatternOutcome {
  return {
    patternId: check.patternId,
    type: check.kind,
    name: check.name,
    status: "notCheckable",
    detail: reason,
    requests: 0,
    estimatedRu: check.estimate,
  };
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
  const plan = buildVerificationPlan(workload, model, endpoint.capabilities, EMBEDDED_LIMITATIONS, options);
  return runVerification(endpoint, plan, options);
}
