/**
 * Why a hot partition stays over the limit after the search, in figures: for a container whose
 * hottest logical partition is a key of a replicated item type (a copy or a bounded set kept with
 * `{key}-{replica}` keys), how much of that key's load is reads and how much writes, and what the
 * larger replica counts would give.
 *
 * The decision behind it (issue 11, "newest 20 by status" at 38,000 requests/s): a bounded set per
 * status is small and its reads cheap, but at 8 replicas a key of the hottest status takes 6,519
 * RU/s of reads (Q1's queries, and the change feed's membership reads, which go to one replica)
 * and 3,876 RU/s of writes (every new ticket of the status and its trimming, written to every
 * replica): about 52,000 RU/s of reads for the status against 3,876 of writes. Reads are the
 * heat, so replicas are the spread (write shards of the set would lower only the writes: each
 * read must merge the newest of every shard, so every shard takes every read; the planner plans
 * a sharded set as a fan-out). Every replica takes every write of its key, so no replica count
 * brings a key under its writes; 16 replicas bring the key under the 10,000 RU/s of a logical
 * partition (7,136 RU/s), but 80 such keys share physical partitions by hash (the busiest of 99
 * needs 25,619 RU/s), and 64 replicas leave keys of 4,691 RU/s of which several share one (18,805
 * RU/s). No spread meets the limit: the design says so, with these figures, and names what would
 * (a cache in front of the reads, or a lower rate).
 */
import { formatInteger } from "../common/format-number.js";
import type { DetailedEvaluation, EvaluateOptions } from "../cost/evaluate.js";
import { loadContribution } from "../cost/loads.js";
import type { ItemType, Model } from "../model/types.js";
import { createPlanEnvironment } from "../planner/environment.js";
import type { Plan, PlanStep } from "../planner/types.js";
import type { AccessPattern, Workload } from "../workload/types.js";
import { REPLICA_CHOICES } from "./rules-spread.js";

/** The reconciliation tolerance of a key's reads plus writes with the evaluation's figure. */
const RECONCILE_SHARE = 0.001;

/** The steps of a plan step that write (the change feed's reads and a plan's queries left out). */
function writeSteps(step: PlanStep): PlanStep[] {
  switch (step.kind) {
    case "write":
    case "batch":
      return [step];
    case "changeFeed":
      return [{ ...step, steps: step.steps.flatMap(writeSteps) }];
    case "pointRead":
    case "query":
      return [];
    default:
      return step satisfies never;
  }
}

/**
 * RU/s at peak on one logical key of a container: `writes`, by the write steps of every plan
 * (each replica takes them all), and `reads`, the rest (the read patterns' requests and the
 * change feed's reads, which go to one replica of the set).
 */
function keyLoadByKind(
  workload: Workload,
  model: Model,
  evaluation: DetailedEvaluation,
  options: EvaluateOptions,
  container: string,
  key: string,
): { reads: number; writes: number; readers: string[] } {
  const env = createPlanEnvironment(workload, model, { ...options, partitions: evaluation.partitions });
  const onKey = (plan: Plan, pattern: AccessPattern): number => {
    // No counter sums per parent here: a key whose load they change does not reconcile, and gets
    // no explanation (see `hotReplicatedKeyWhy`).
    const contribution = loadContribution(env, plan, pattern, {
      counterPatchesPerSecondPerParent: () => Number.POSITIVE_INFINITY,
    });
    let sum = 0;
    for (const change of contribution.changes.get(container) ?? [])
      if (change.kind === "key" && change.name === key) sum += change.peak;
    return sum;
  };
  let total = 0;
  let writes = 0;
  const readers: string[] = [];
  evaluation.patterns.forEach((evaluated, index) => {
    const pattern = workload.accessPatterns[index];
    if (pattern === undefined) return;
    const all = onKey(evaluated.plan, pattern);
    total += all;
    if (pattern.type === "read") {
      if (all > 0) readers.push(pattern.id);
      return;
    }
    const plan = evaluated.plan;
    const written: Plan =
      plan.type === "write"
        ? {
            ...plan,
            operations: plan.operations.flatMap(writeSteps),
            async: plan.async.flatMap((step) => writeSteps(step).filter((s) => s.kind === "changeFeed")),
          }
        : plan;
    writes += onKey(written, pattern);
  });
  return { reads: total - writes, writes, readers };
}

/** The model with `type` in `container` kept in `replicas` replicas. */
function withReplicas(model: Model, container: string, type: string, replicas: number): Model {
  return {
    ...model,
    containers: model.containers.map((c) =>
      c.name !== container
        ? c
        : { ...c, items: c.items.map((i): ItemType => (i.type === type ? { ...i, replicas } : i)) },
    ),
  };
}

/**
 * Why no replica count brings the hottest partition of `container` within the limit, when that
 * partition is a key of a replicated item type; undefined otherwise (or when the key's reads and
 * writes do not add up to the evaluation's figure). `evaluate` evaluates a variant of the model.
 */
export function hotReplicatedKeyWhy(
  workload: Workload,
  model: Model,
  evaluation: DetailedEvaluation,
  options: EvaluateOptions,
  container: string,
  evaluate: (model: Model) => DetailedEvaluation,
): string | undefined {
  const evaluated = evaluation.containers.find((c) => c.name === container);
  const replicated = model.containers
    .find((c) => c.name === container)
    ?.items.find((i) => (i.replicas ?? 1) > 1);
  if (evaluated === undefined || replicated === undefined) return undefined;
  const { key, rus } = evaluated.hottestLogicalPartition;
  const { reads, writes, readers } = keyLoadByKind(workload, model, evaluation, options, container, key);
  if (Math.abs(reads + writes - rus) > rus * RECONCILE_SHARE || reads <= 0) return undefined;
  const current = replicated.replicas ?? 1;
  const tried = REPLICA_CHOICES.filter((n) => n > current).map((replicas) => {
    const variant = evaluate(withReplicas(model, container, replicated.type, replicas));
    const at = variant.containers.find((c) => c.name === container);
    return at === undefined
      ? ""
      : `${replicas}: hottest key ${formatInteger(at.hottestLogicalPartition.rus)} RU/s, busiest of ${formatInteger(at.physicalPartitions)} physical partitions ${formatInteger(at.hottestPhysicalPartition.rus)} RU/s`;
  });
  const more = tried.filter((t) => t !== "");
  return (
    `${container}: its hottest logical partition (${key}, ${current} replicas of ${replicated.type}) takes ` +
    `${formatInteger(reads)} RU/s of reads (${readers.join(", ")}, and the change feed's reads of one replica) and ${formatInteger(writes)} RU/s of writes at peak. ` +
    `Every replica takes every write of its key, so replicas lower only the reads: no replica count brings a key under ${formatInteger(writes)} RU/s; ` +
    `write shards would lower only the writes (each read merges the newest of every shard). ` +
    (more.length > 0
      ? `More replicas (the keys share physical partitions by hash): ${more.join("; ")}. `
      : "") +
    `Serve ${readers.join(", ")} from a cache (the integrated cache of a dedicated gateway, or the application's) or lower their rate of requests.`
  );
}
