/**
 * The pattern phases of a verify run (`runVerification`): the write patterns through the generated
 * data-access functions, each followed by its maintenance (the change feed on a real endpoint; the
 * same handlers called directly on the embedded one), the bounded sets checked after the writes,
 * then every read pattern through the generated functions, each answer compared with the
 * oracle's. Each phase turns what it ran into one outcome per pattern.
 */
import { recordRead, type RecordedCharge } from "./record-charges.js";
import type { RuEstimate } from "../estimator/operation.js";
import type { PlanStep, WritePlan } from "../planner/types.js";
import type { ReadPattern, WritePattern } from "../workload/types.js";
import { assembleReadAnswer, type ReadOutput } from "./assemble-answer.js";
import type { OverfullSet } from "./bounded-sets.js";
import { checkReadAnswer } from "./compare-answers.js";
import { answerReadPattern, entityOf } from "./oracle.js";
import { checkVectorAnswer } from "./search-oracle.js";
import { cosmosFailureOf, redactSecrets, type EndpointCapabilities } from "./endpoint.js";
import type { MaintenanceState } from "./fault-database.js";
import type { FeedMaintenance } from "./feed-maintenance.js";
import type { DataAccess, GeneratedChange, GeneratedWriteResult } from "./load-data-access.js";
import type { StrayItems } from "./stray-items.js";
import type { PatternCheckPlan, VerificationPlan } from "./verification-plan.js";
import { writeInputRecord } from "./write-input.js";

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

/** Progress of a run, for a progress bar. */
export type VerifyProgress =
  | { readonly kind: "deploy" }
  | { readonly kind: "load"; readonly done: number; readonly total: number }
  | { readonly kind: "write"; readonly done: number; readonly total: number }
  | { readonly kind: "read"; readonly done: number; readonly total: number };

/** What the pattern phases of one run share. */
export interface PatternRun {
  readonly plan: VerificationPlan;
  readonly access: DataAccess;
  readonly capabilities: EndpointCapabilities;
  readonly state: MaintenanceState;
  /** The change-feed processors on a real endpoint; undefined where the handlers are called directly. */
  readonly feed: FeedMaintenance | undefined;
  /** Secrets to redact from error messages. */
  readonly secrets: readonly string[];
  readonly onProgress: ((progress: VerifyProgress) => void) | undefined;
  /** Containers whose items an endpoint keyed by the first level only may refuse (409). */
  readonly hierarchical: ReadonlySet<string>;
  /** Why such an endpoint refuses them. */
  readonly hierarchicalReason: string;
  /** Containers that could not hold all their items (their reads are not checkable); writes add to it. */
  readonly unreliable: Set<string>;
  /** Where each one-request read's measured charge is recorded with its features (record-charges.ts). */
  readonly charges?: RecordedCharge[];
}

/** Requests done so far in a phase, for the progress bar. */
interface Progress {
  done: number;
}

export function errorText(error: unknown, secrets: readonly string[]): string {
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

export function round(value: number): number {
  return Math.round(value * 10) / 10;
}

/** Containers a plan's steps touch, inside batches and change-feed work too. */
export function containersOf(check: PatternCheckPlan): Set<string> {
  const flat = (steps: readonly PlanStep[]): PlanStep[] =>
    steps.flatMap((step) =>
      step.kind === "batch"
        ? [step, ...step.operations]
        : step.kind === "changeFeed"
          ? [step, ...flat(step.steps)]
          : [step],
    );
  const steps =
    check.kind === "read" ? check.plan.operations : [...check.plan.operations, ...check.plan.async];
  return new Set(flat(steps).map((step) => step.container));
}

/** The read items of a result whose item type is bucketed, hierarchical-keyed, etc. */
/** What a generated read function returned, as the checks read it. */
export function asReadOutput(value: Record<string, unknown>): ReadOutput {
  const items = Array.isArray(value["items"]) ? (value["items"] as Record<string, unknown>[]) : [];
  const followUps = Array.isArray(value["followUps"]) ? (value["followUps"] as ReadOutput["followUps"]) : [];
  const requestCharge = typeof value["requestCharge"] === "number" ? value["requestCharge"] : 0;
  return { items, followUps, requestCharge };
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

/** The outcome of a pattern that ran `requests` requests, failed at `detail` if any. */
function ranOutcome(
  run: PatternRun,
  check: PatternCheckPlan,
  detail: string | undefined,
  requests: number,
  charge: number,
  samples: readonly number[],
  results?: number,
): PatternOutcome {
  return {
    patternId: check.patternId,
    type: check.kind,
    name: check.name,
    status: detail === undefined ? "passed" : "failed",
    ...(detail === undefined ? {} : { detail }),
    requests,
    ...(results === undefined ? {} : { results }),
    ...(run.capabilities.measuresRequestCharge && requests > 0
      ? measuredRu(charge / requests, check.estimate)
      : {}),
    estimatedRu: check.estimate,
    ...latencyOf(samples),
  };
}

/** Writes, pattern by pattern, each followed by its maintenance: one outcome per write pattern. */
export async function runWritePatterns(run: PatternRun): Promise<Map<string, PatternOutcome>> {
  const outcomes = new Map<string, PatternOutcome>();
  const progress: Progress = { done: 0 };
  // The plan's execution order: creates and updates, then deletes (the records an update was
  // planned on still exist when it runs).
  const writes = run.plan.patterns.filter((check): check is WriteCheck => check.kind === "write");
  const isDelete = (check: WriteCheck) => deletes(run, check.patternId);
  for (const check of [...writes.filter((c) => !isDelete(c)), ...writes.filter(isDelete)]) {
    if (check.notCheckable !== undefined) {
      outcomes.set(check.patternId, notCheckable(check, check.notCheckable));
      progress.done += check.writes.length;
      continue;
    }
    outcomes.set(check.patternId, await runWritePattern(run, check, progress));
  }
  return outcomes;
}

type WriteCheck = Extract<PatternCheckPlan, { kind: "write" }>;

/** True when write pattern `id` deletes. */
function deletes(run: PatternRun, id: string): boolean {
  const pattern = run.plan.workload.accessPatterns.find((p) => p.id === id);
  return pattern?.type === "write" && pattern.operation === "delete";
}
export type ReadCheck = Extract<PatternCheckPlan, { kind: "read" }>;

/** One write pattern's writes, their maintenance, and its outcome. */
async function runWritePattern(
  run: PatternRun,
  check: WriteCheck,
  progress: Progress,
): Promise<PatternOutcome> {
  const { plan, access, feed, state } = run;
  const pattern = plan.workload.accessPatterns.find((p) => p.id === check.patternId) as WritePattern;
  const entityKey = plan.workload.entities.find((candidate) => candidate.name === pattern.entity)?.key ?? [];
  const samples: number[] = [];
  let charge = 0;
  let detail: string | undefined;
  let artifact: string | undefined;
  for (const write of check.writes) {
    try {
      const begin = performance.now();
      const input = writeInputRecord(plan.workload, plan.model, pattern, write.record);
      const result = (await access.pattern(pattern.id)(input, {
        parents: write.parents,
        ...(write.embeds === undefined ? {} : { embeds: write.embeds }),
        ...(write.linked === undefined ? {} : { linked: write.linked }),
        ...(write.bucket === undefined ? {} : { bucket: write.bucket }),
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
      const touched = [...containersOf(check)].find((name) => run.hierarchical.has(name));
      if (cosmosFailureOf(error).statusCode === 409 && touched !== undefined) {
        // Ids unique within the full hierarchical key collide on an endpoint keyed by the first level.
        // The refused write is missing from every container it writes or maintains (the copies
        // its change feed would have moved too), not only from the one that refused it.
        for (const name of containersOf(check)) run.unreliable.add(name);
        artifact ??= `container ${touched} refused an item as a duplicate (409) although its full partition key differs: ${run.hierarchicalReason}`;
      } else {
        const key =
          entityKey.length === 1
            ? write.record[entityKey[0] ?? ""]
            : entityKey.map((name) => write.record[name]);
        detail ??= `${pattern.id}: the ${pattern.operation} of ${pattern.entity} ${printable(key)} failed: ${errorText(error, run.secrets)}`;
      }
    }
    run.onProgress?.({ kind: "write", done: ++progress.done, total: plan.writes.length });
  }
  // Wait for the change feed only when the pattern triggers change-feed work.
  if (feed !== undefined && check.plan.async.length > 0 && check.writes.length > 0) {
    try {
      charge += await feed.settle();
    } catch (error) {
      detail ??= `${pattern.id}: change-feed maintenance failed: ${errorText(error, run.secrets)}`;
    }
  }
  if (detail === undefined && artifact !== undefined) return notCheckable(check, artifact);
  return ranOutcome(run, check, detail, check.writes.length, charge, samples);
}

/**
 * Trimming: after the writes, every bounded set (keepLatest) holds at most its count per logical
 * partition; an overfull set fails the passed write patterns whose change feed trims it.
 */
export function failOverfullSets(
  plan: VerificationPlan,
  outcomes: Map<string, PatternOutcome>,
  violations: readonly OverfullSet[],
): void {
  for (const violation of violations) {
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

/**
 * Stray items: an item the final data does not hold (a copy left under an old key, the old item
 * of a move) fails the passed write patterns that write or maintain its item type.
 */
export function failStrayItems(
  plan: VerificationPlan,
  outcomes: Map<string, PatternOutcome>,
  strays: readonly StrayItems[],
): void {
  for (const stray of strays) {
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
}

/** Child patterns written inside their parent's items share the parent's outcome. */
export function shareCarrierOutcomes(plan: VerificationPlan, outcomes: Map<string, PatternOutcome>): void {
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
}

/** Reads, against the data after every write: one outcome per read pattern, added to `outcomes`. */
export async function runReadPatterns(run: PatternRun, outcomes: Map<string, PatternOutcome>): Promise<void> {
  const reads = run.plan.patterns.filter((check): check is ReadCheck => check.kind === "read");
  const total = reads.reduce((sum, check) => sum + check.requests.length, 0);
  const progress: Progress = { done: 0 };
  for (const check of reads) {
    const pattern = run.plan.workload.accessPatterns.find((p) => p.id === check.patternId) as ReadPattern;
    const collided = [...containersOf(check)].find((name) => run.unreliable.has(name));
    const reason =
      check.notCheckable ??
      (collided === undefined
        ? undefined
        : `container ${collided} could not hold all its items (409 for ids that differ only in a lower partition key level): ${run.hierarchicalReason}`);
    if (reason !== undefined) {
      outcomes.set(check.patternId, notCheckable(check, reason));
      progress.done += check.requests.length;
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
      progress.done += check.requests.length;
      continue;
    }
    outcomes.set(check.patternId, await runReadPattern(run, check, pattern, () => ++progress.done, total));
  }
}

/** One read pattern's requests, each answer checked against the oracle's, and its outcome. */
async function runReadPattern(
  run: PatternRun,
  check: ReadCheck,
  pattern: ReadPattern,
  step: () => number,
  total: number,
): Promise<PatternOutcome> {
  const samples: number[] = [];
  let charge = 0;
  let detail: string | undefined;
  let results = 0;
  for (const request of check.requests) {
    try {
      const begin = performance.now();
      const output = asReadOutput(await run.access.pattern(pattern.id)(request.parameters));
      samples.push(performance.now() - begin);
      charge += output.requestCharge;
      const recorded =
        run.charges === undefined ? undefined : recordRead(check.plan, output.items, output.requestCharge);
      if (recorded !== undefined) run.charges?.push(recorded);
      const checked = checkOutput(run, check, pattern, request.parameters, output);
      results += checked.expected;
      detail ??= checked.detail;
    } catch (error) {
      detail ??= `${pattern.id}: the read with parameters ${printable(request.parameters)} failed: ${errorText(error, run.secrets)}`;
    }
    run.onProgress?.({ kind: "read", done: step(), total });
  }
  if (detail === undefined && check.designFailure !== undefined) {
    detail = `${pattern.id}: ${check.designFailure}`;
  }
  return ranOutcome(run, check, detail, check.requests.length, charge, samples, results);
}

/** A read's output assembled into answers and compared with the oracle's: results expected, first problem. */
export function checkOutput(
  run: PatternRun,
  check: ReadCheck,
  pattern: ReadPattern,
  parameters: ReadCheck["requests"][number]["parameters"],
  output: ReadOutput,
): { expected: number; detail: string | undefined } {
  const { workload, model } = run.plan;
  const search = pattern.search;
  if (search !== undefined && search.kind === "vector") {
    // Nearest neighbours: the keys returned against the oracle's exact k nearest, by recall.
    const key = entityOf(workload, pattern.entity).key;
    const keyOf = (record: Readonly<Record<string, unknown>>): string =>
      JSON.stringify(key.map((name) => record[name]));
    const expected = answerReadPattern(workload, run.plan.finalDataset, pattern, parameters);
    const problem = checkVectorAnswer(output.items.map(keyOf), expected.map(keyOf), search.recall);
    return {
      expected: expected.length,
      detail:
        problem === undefined ? undefined : `${pattern.id}: ${problem} (parameters ${printable(parameters)})`,
    };
  }
  const assembled = assembleReadAnswer(workload, model, pattern, check.plan, parameters, output);
  const result = checkReadAnswer(workload, run.plan.finalDataset, pattern, parameters, assembled.answers);
  const difference = result.differences[0];
  const after = run.plan.writes.length > 0 ? ", after the writes and their maintenance" : "";
  return {
    expected: result.expectedCount,
    detail:
      assembled.unresolved.length > 0
        ? `${pattern.id}: ${assembled.unresolved.join(", ")} answered neither by the items nor by the follow-up reads (parameters ${printable(parameters)})`
        : difference !== undefined
          ? `${difference.message} (parameters ${printable(parameters)}${after})`
          : assembled.leaks.length > 0
            ? `${pattern.id}: ${assembled.leaks.join("; ")} (parameters ${printable(parameters)})`
            : undefined,
  };
}
