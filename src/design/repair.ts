/**
 * Moves that repair what another move broke, so that the search can combine moves: a copy keyed
 * by a hot filter needs shards or replicas in the same step, a key that makes a frequent read fan
 * out needs a copy keyed by that read's filter. A candidate is scored after its repairs (at most
 * two levels deep), and the decision names the repairs it took.
 */
import type { EvaluationIssue } from "../common/issues.js";
import type { DetailedEvaluation } from "../cost/evaluate.js";
import type { Model } from "../model/types.js";
import type { ReadPattern, Workload } from "../workload/types.js";
import { fanOutCandidates } from "./rules-access.js";
import { relieveCandidates, spreadCandidates, type SpreadChoices } from "./rules-spread.js";
import {
  FREQUENT_FAN_OUT_RPS,
  headroomShortfalls,
  isBetter,
  scoreModel,
  type Candidate,
  type Scored,
} from "./search.js";

/**
 * What a move can leave broken: a hard-limit error at a container or pattern, a frequent fan-out,
 * or (`headroom`) a partition over the workload's target share of its limits but under them.
 */
export type Problem =
  | { readonly kind: "hotPartition"; readonly container: string; readonly headroom?: true }
  | { readonly kind: "largePartition"; readonly container: string; readonly headroom?: true }
  | { readonly kind: "fanOut"; readonly pattern: string };

/**
 * A problem's identity: a partition without headroom is not the error it may become, so that a
 * move that turns a reference's missing headroom into a hard limit is repaired (`broken`).
 */
function problemKey(problem: Problem): string {
  switch (problem.kind) {
    case "hotPartition":
    case "largePartition":
      return `${problem.kind}:${problem.container}${problem.headroom === true ? ":headroom" : ""}`;
    case "fanOut":
      return `fanOut:${problem.pattern}`;
    default:
      return problem satisfies never;
  }
}

/**
 * The repairable problems of an evaluated model: hard-limit errors, then frequent fan-outs, then
 * partitions without headroom.
 */
export function problemsOf(workload: Workload, evaluation: DetailedEvaluation): Problem[] {
  const found = new Map<string, Problem>();
  const add = (problem: Problem) => found.set(problemKey(problem), problem);
  for (const issue of evaluation.issues) {
    if (issue.severity !== "error") continue;
    switch (issue.code) {
      case "evaluate.hotPartition":
      case "evaluate.hotPhysicalPartition":
        add({ kind: "hotPartition", container: issue.container });
        break;
      case "evaluate.logicalPartitionTooLarge":
        add({ kind: "largePartition", container: issue.container });
        break;
      case "evaluate.fanOutCannotScale":
        add({ kind: "fanOut", pattern: issue.pattern });
        break;
      default:
        break;
    }
  }
  evaluation.patterns.forEach((evaluated, index) => {
    const pattern = workload.accessPatterns[index];
    const first = evaluated.plan.operations[0];
    if (
      pattern?.type === "read" &&
      pattern.rps.peak >= FREQUENT_FAN_OUT_RPS &&
      first?.kind === "query" &&
      first.scope === "fanOut" &&
      first.partitions > 1
    )
      add({ kind: "fanOut", pattern: pattern.id });
  });
  // Last, the least severe: a partition without headroom is spread like a hot one, or split like a large one.
  for (const [container, measure] of headroomShortfalls(evaluation)) {
    const kind = measure === "rus" ? "hotPartition" : "largePartition";
    if (!found.has(problemKey({ kind, container }))) add({ kind, container, headroom: true });
  }
  return [...found.values()];
}

/**
 * What a problem is, in the evaluation's words: its hard-limit error, or for a partition without
 * headroom, its `evaluate.noHeadroom`; undefined for a frequent fan-out that is not an error.
 */
export function problemContext(evaluation: DetailedEvaluation, problem: Problem): string | undefined {
  const issue = problemIssue(evaluation, problem);
  if (issue !== undefined) return issue.message;
  const headroom = evaluation.issues.find(
    (issue) =>
      issue.code === "evaluate.noHeadroom" &&
      issue.container === ("container" in problem ? problem.container : undefined) &&
      (issue.measure === "rus") === (problem.kind === "hotPartition"),
  );
  return headroom?.message;
}

/** The hard-limit error behind a problem, if the evaluation has one (a frequent fan-out may not). */
export function problemIssue(evaluation: DetailedEvaluation, problem: Problem): EvaluationIssue | undefined {
  return evaluation.issues.find((issue) => {
    if (issue.severity !== "error") return false;
    switch (issue.code) {
      case "evaluate.hotPartition":
      case "evaluate.hotPhysicalPartition":
        return problem.kind === "hotPartition" && issue.container === problem.container;
      case "evaluate.logicalPartitionTooLarge":
        return problem.kind === "largePartition" && issue.container === problem.container;
      case "evaluate.fanOutCannotScale":
        return problem.kind === "fanOut" && issue.pattern === problem.pattern;
      default:
        return false;
    }
  });
}

/** The moves that could repair one problem of `scored`'s model. */
export function repairCandidates(
  workload: Workload,
  model: Model,
  evaluation: DetailedEvaluation,
  problem: Problem,
  choices: SpreadChoices,
): Candidate[] {
  switch (problem.kind) {
    case "hotPartition":
      return [
        ...spreadCandidates(workload, model, evaluation, problem.container, choices, "throughput"),
        // Taking the load elsewhere needs repairs of its own: only when every choice is tried.
        ...(choices === "all" ? relieveCandidates(workload, model, problem.container) : []),
      ];
    case "largePartition":
      return spreadCandidates(workload, model, evaluation, problem.container, choices, "storage");
    case "fanOut": {
      const pattern = workload.accessPatterns.find(
        (p): p is ReadPattern => p.type === "read" && p.id === problem.pattern,
      );
      return pattern === undefined ? [] : fanOutCandidates(workload, model, evaluation, pattern);
    }
    default:
      return problem satisfies never;
  }
}

/** A scored candidate after its repairs, with the names of the repairs taken (none when it needed none). */
export interface Repaired {
  readonly scored: Scored;
  readonly repairs: readonly string[];
}

/**
 * Problems of `scored` not in `known` (what the move broke). A partition without headroom is not
 * repaired inside a move: the search's last step (`repairLimits`) spreads it once the model is
 * chosen, where its cost is weighed against the headroom (HEADROOM_PREMIUM).
 */
function broken(workload: Workload, scored: Scored, known: ReadonlySet<string>): Problem[] {
  return problemsOf(workload, scored.evaluation).filter(
    (p) => !known.has(problemKey(p)) && !("headroom" in p && p.headroom === true),
  );
}

/** Most problems repaired per level (the first ones: errors before fan-outs). */
const MAX_PROBLEMS_PER_LEVEL = 3;

/**
 * The best of `scored` and its repairs: every move that could repair a problem `scored` has and
 * `reference` had not (every problem when `reference` is absent) is applied, scored and repaired
 * again (`depth` levels), and the best by `isBetter` is kept.
 */
export function repairMove(
  workload: Workload,
  options: Parameters<typeof scoreModel>[2],
  scored: Scored,
  reference: Scored | undefined,
  depth = 2,
): Repaired {
  const known = new Set(
    reference === undefined ? [] : problemsOf(workload, reference.evaluation).map(problemKey),
  );
  return repairBroken(workload, options, scored, known, depth);
}

function repairBroken(
  workload: Workload,
  options: Parameters<typeof scoreModel>[2],
  scored: Scored,
  known: ReadonlySet<string>,
  depth: number,
): Repaired {
  if (depth <= 0) return { scored, repairs: [] };
  const problems = broken(workload, scored, known).slice(0, MAX_PROBLEMS_PER_LEVEL);
  let best: Repaired = { scored, repairs: [] };
  for (const problem of problems) {
    for (const candidate of repairCandidates(
      workload,
      scored.model,
      scored.evaluation,
      problem,
      "estimate",
    )) {
      const next = repairBroken(
        workload,
        options,
        scoreModel(workload, candidate.model, options),
        known,
        depth - 1,
      );
      if (isBetter(next.scored, best.scored))
        best = { scored: next.scored, repairs: [candidate.name, ...next.repairs] };
    }
  }
  return best;
}
