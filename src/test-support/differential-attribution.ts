/**
 * Which static finding answers for which execution failure: the attribution rules of the
 * differential bench (src/test-support/differential.ts). Pure functions over the evaluation's
 * issues, the plans and the verify failures.
 *
 * The rules, strict but fair:
 * - Only error-severity findings count, and only the ones that can explain a wrong answer or a
 *   refused write (`correctness`: a pattern not served, a bounded set too small to serve, a key
 *   changed in place, a copy or counter the maintenance cannot reach). Capacity findings (hot
 *   partitions, fan-outs that cannot scale, throughput and storage limits, items over 2 MB at the
 *   workload's sizes) say nothing about the answers verify compares: a user who fixes them still
 *   has the wrong answer. They are listed beside the failure (`capacityInScope`) but never catch
 *   it. Writes that cannot commit together (`atomicity`) are a flaw verify does not exercise (it
 *   runs one write at a time): they neither catch a failure nor count as a false alarm.
 *   `findingKind` classifies every code (a new code breaks the build until it is classified).
 * - A finding's scope: the patterns it names (`pattern`, `partner`, or a path into
 *   `accessPatterns[i]`), the item types it names (`container` + `itemType`, or a path
 *   `containers.<name>.items.<type>`) and the containers it names as a whole (`container`
 *   without an item type, `containers`, the capacity modes' lists).
 * - A failed pattern (read or write) is caught by a finding that names it, or names an item type
 *   its plan reads or writes (any step: follow-ups, batches, change-feed work, moves, refills) or
 *   the item type such a copy is kept from (`source`, transitively), or names as a whole a
 *   container its plan touches.
 * - A failed paging probe is judged as its pattern. A failed counter probe (concurrent counter,
 *   child lifecycle, feed restart) is caught by a finding on its holder item type (or the
 *   holder's container as a whole, or, for the lifecycle, on an item type copying the child) or
 *   on a write pattern of its counted child's entity.
 * - A failed data load (duplicate ids) is caught by a finding on a colliding item type or on its
 *   container as a whole.
 * - A verify run that crashed is caught only by a model-wide refusal (a model or workload that
 *   does not load, an evaluation that throws): those are judged before verify runs (the whole
 *   model counts as reported), so a crash of a model evaluate accepted is always silent.
 */
import type { EvaluationIssue, EvaluationIssueCode } from "../common/issues.js";
import type { Model } from "../model/types.js";
import type { Plan, PlanStep } from "../planner/types.js";
import type { ProbeOutcome } from "../verify/probe-outcomes.js";
import type { ItemTypeRef } from "../verify/probe-plan.js";
import type { Workload } from "../workload/types.js";

/**
 * Whether a finding can explain a wrong answer or refused write (`correctness`), is about the
 * service's limits at the workload's scale (`capacity`), or about writes committing together,
 * which verify does not exercise (`atomicity`).
 */
export type FindingKind = "correctness" | "capacity" | "atomicity";

/** What a finding is about. */
export interface IssueScope {
  readonly patterns: readonly string[];
  readonly itemTypes: readonly ItemTypeRef[];
  /** Containers named as a whole (not one item type of them). */
  readonly containers: readonly string[];
}

/** What verify found wrong. */
export type VerifyFailure =
  | {
      readonly kind: "pattern";
      readonly patternId: string;
      readonly type: "read" | "write";
      readonly detail: string;
    }
  | {
      readonly kind: "probe";
      readonly outcome: ProbeOutcome;
      readonly title: string;
      readonly detail: string;
    }
  | {
      readonly kind: "load";
      /** The item types whose items collided (one id twice in a logical partition). */
      readonly duplicates: readonly ItemTypeRef[];
      readonly detail: string;
    }
  | { readonly kind: "crash"; readonly detail: string };

/** One verify failure and the findings that answer for it. */
export interface FailureVerdict {
  readonly failure: VerifyFailure;
  readonly status: "caught" | "silent";
  /** The correctness errors attributable to the failure (none when silent). */
  readonly caughtBy: readonly EvaluationIssue[];
  /** Capacity errors on the failure's scope: shown, never counted. */
  readonly capacityInScope: readonly EvaluationIssue[];
}

/** What the attribution needs to know of the model: the workload and every pattern's plan. */
export interface AttributionContext {
  readonly workload: Workload;
  readonly plans: readonly Plan[];
  /** The model: a copy (`source`) holds what its source item type holds. */
  readonly model?: Model;
}

/**
 * Whether an evaluation finding can explain a wrong answer (see the module's rules).
 * @example findingKind("evaluate.counterNotAddressable") // "correctness"
 */
export function findingKind(code: EvaluationIssueCode): FindingKind {
  switch (code) {
    case "evaluate.patternNotServed":
    case "evaluate.boundedSetTooSmall":
    case "evaluate.keyChangedInPlace":
    case "evaluate.copyNotMaintainable":
    case "evaluate.copySourceUnreadable":
    case "evaluate.embedNotAddressable":
    case "evaluate.embedReparented":
    case "evaluate.boundedSetNotRefilled":
    case "evaluate.counterNotAddressable":
    case "evaluate.idNotUnique":
    case "evaluate.keyTooLong":
    case "evaluate.ttlOff":
    case "evaluate.leaseContainerMissing":
      return "correctness";
    case "evaluate.notAtomic":
      return "atomicity";
    case "evaluate.fanOut":
    case "evaluate.fanOutCannotScale":
    case "evaluate.hotPartition":
    case "evaluate.hotPhysicalPartition":
    case "evaluate.pinnedPartitionsOverloaded":
    case "evaluate.logicalPartitionTooLarge":
    case "evaluate.logicalPartitionGrowth":
    case "evaluate.noHeadroom":
    case "evaluate.underProvisioned":
    case "evaluate.overContainerMaximum":
    case "evaluate.mixedCapacityModes":
    case "evaluate.serverlessNotPossible":
    case "evaluate.integratedCacheTooSmall":
    case "evaluate.integratedCacheFewNodes":
    case "evaluate.itemTooLarge":
      return "capacity";
    default:
      return code satisfies never;
  }
}

/** The patterns, item types and containers a finding names (its payload, then its path). */
export function issueScope(issue: EvaluationIssue, workload: Workload): IssueScope {
  const patterns: string[] = [];
  const itemTypes: ItemTypeRef[] = [];
  const containers: string[] = [];
  switch (issue.code) {
    case "evaluate.patternNotServed":
    case "evaluate.boundedSetTooSmall":
    case "evaluate.fanOut":
      patterns.push(issue.pattern);
      break;
    case "evaluate.notAtomic":
      patterns.push(issue.pattern, issue.partner);
      break;
    case "evaluate.fanOutCannotScale":
      patterns.push(issue.pattern);
      containers.push(issue.container);
      break;
    case "evaluate.keyChangedInPlace":
    case "evaluate.copyNotMaintainable":
    case "evaluate.copySourceUnreadable":
    case "evaluate.embedNotAddressable":
    case "evaluate.embedReparented":
    case "evaluate.boundedSetNotRefilled":
    case "evaluate.counterNotAddressable":
      patterns.push(issue.pattern);
      itemTypes.push({ container: issue.container, itemType: issue.itemType });
      break;
    case "evaluate.logicalPartitionGrowth":
    case "evaluate.itemTooLarge":
    case "evaluate.idNotUnique":
    case "evaluate.keyTooLong":
      itemTypes.push({ container: issue.container, itemType: issue.itemType });
      break;
    case "evaluate.hotPartition":
    case "evaluate.hotPhysicalPartition":
    case "evaluate.pinnedPartitionsOverloaded":
    case "evaluate.logicalPartitionTooLarge":
    case "evaluate.noHeadroom":
    case "evaluate.underProvisioned":
    case "evaluate.serverlessNotPossible":
    case "evaluate.ttlOff":
      containers.push(issue.container);
      break;
    case "evaluate.overContainerMaximum":
    case "evaluate.leaseContainerMissing":
      containers.push(...issue.containers);
      break;
    case "evaluate.integratedCacheTooSmall":
    case "evaluate.integratedCacheFewNodes":
      break;
    case "evaluate.mixedCapacityModes":
      containers.push(...issue.serverless, ...issue.provisioned);
      break;
    default:
      return issue satisfies never;
  }
  const [first, second, third, fourth] = issue.path;
  if (first === "accessPatterns" && typeof second === "number") {
    const pattern = workload.accessPatterns[second];
    if (pattern !== undefined) patterns.push(pattern.id);
  }
  if (first === "containers" && typeof second === "string") {
    if (third === "items" && typeof fourth === "string")
      itemTypes.push({ container: second, itemType: fourth });
    else if (third === undefined && itemTypes.length === 0) containers.push(second);
  }
  return { patterns, itemTypes, containers };
}

/** Every item type a plan reads or writes: each step, follow-ups, change-feed work, moves, refills. */
export function planItemTypes(plan: Plan): ItemTypeRef[] {
  const found: ItemTypeRef[] = [];
  const add = (ref: ItemTypeRef): void => {
    if (!found.some((known) => sameItemType(known, ref)))
      found.push({ container: ref.container, itemType: ref.itemType });
  };
  const visit = (steps: readonly PlanStep[]): void => {
    for (const step of steps) {
      add(step);
      if (step.kind === "batch") visit(step.operations);
      if (step.kind === "changeFeed") {
        add(step.from);
        visit(step.steps);
      }
    }
  };
  if (plan.type === "read") {
    add(plan);
    visit(plan.operations);
  } else {
    visit(plan.operations);
    visit(plan.async);
    for (const move of plan.moves ?? []) {
      add(move);
      if (move.helper !== undefined) add(move.helper);
    }
    for (const refill of plan.refills ?? []) {
      add(refill);
      add(refill.query);
    }
  }
  return found;
}

/** What a failure is about: the patterns, item types and containers a finding must name. */
export interface FailureTarget {
  readonly patterns: readonly string[];
  readonly itemTypes: readonly ItemTypeRef[];
  readonly containers: readonly string[];
}

/** The target of a failure under the module's rules. */
export function failureTarget(failure: VerifyFailure, context: AttributionContext): FailureTarget {
  switch (failure.kind) {
    case "pattern":
      return patternTarget(failure.patternId, context);
    case "probe": {
      const outcome = failure.outcome;
      if (outcome.probe === "paging") return patternTarget(outcome.patternId, context);
      const copies = outcome.probe === "childLifecycle" ? outcome.copies.map((c) => c.copy) : [];
      return {
        patterns: context.workload.accessPatterns
          .filter((p) => p.type === "write" && p.entity === outcome.counter.child)
          .map((p) => p.id),
        itemTypes: [outcome.counter.holder, ...copies],
        containers: [outcome.counter.holder.container],
      };
    }
    case "load":
      return {
        patterns: [],
        itemTypes: failure.duplicates,
        containers: [...new Set(failure.duplicates.map((d) => d.container))],
      };
    case "crash":
      return { patterns: [], itemTypes: [], containers: [] };
    default:
      return failure satisfies never;
  }
}

function patternTarget(patternId: string, context: AttributionContext): FailureTarget {
  const plan = context.plans.find((p) => p.patternId === patternId);
  const itemTypes = withSources(plan === undefined ? [] : planItemTypes(plan), context.model);
  return {
    patterns: [patternId],
    itemTypes,
    containers: [...new Set(itemTypes.map((t) => t.container))],
  };
}

/**
 * `itemTypes` with the item types their copies are kept from (`source`, transitively): a copy
 * holds what its source holds, so a finding that its source's records cannot be written answers
 * for a read of the copy that misses them (independent seed 101: devices that W4 could not create,
 * missing from their copy in vehicles).
 */
function withSources(itemTypes: readonly ItemTypeRef[], model: Model | undefined): ItemTypeRef[] {
  const found = [...itemTypes];
  for (let index = 0; index < found.length && model !== undefined; index++) {
    const ref = found[index];
    const source = model.containers
      .find((c) => c.name === ref?.container)
      ?.items.find((i) => i.type === ref?.itemType)?.source;
    if (source === undefined) continue;
    const next = { container: source.container, itemType: source.type };
    if (!found.some((known) => sameItemType(known, next))) found.push(next);
  }
  return found;
}

/** True when a finding of this scope names something of the target. */
export function scopeMatches(scope: IssueScope, target: FailureTarget): boolean {
  return (
    scope.patterns.some((p) => target.patterns.includes(p)) ||
    scope.itemTypes.some((t) => target.itemTypes.some((u) => sameItemType(t, u))) ||
    scope.containers.some((c) => target.containers.includes(c))
  );
}

/**
 * Judges one verify failure against the evaluation's error-severity findings.
 * @example attributeFailure({ kind: "crash", detail: "..." }, errors, context).status // "silent"
 */
export function attributeFailure(
  failure: VerifyFailure,
  errors: readonly EvaluationIssue[],
  context: AttributionContext,
): FailureVerdict {
  const target = failureTarget(failure, context);
  const inScope = errors.filter(
    (issue) => issue.severity === "error" && scopeMatches(issueScope(issue, context.workload), target),
  );
  const caughtBy = inScope.filter((issue) => findingKind(issue.code) === "correctness");
  return {
    failure,
    status: caughtBy.length > 0 ? "caught" : "silent",
    caughtBy,
    capacityInScope: inScope.filter((issue) => findingKind(issue.code) === "capacity"),
  };
}

/** One line naming a failure: the pattern, probe, load or crash. */
export function failureTitle(failure: VerifyFailure): string {
  switch (failure.kind) {
    case "pattern":
      return `${failure.type} ${failure.patternId}`;
    case "probe":
      return `probe ${failure.outcome.probe} ${failure.title}`;
    case "load":
      return `load of ${failure.duplicates.map((d) => `${d.container}/${d.itemType}`).join(", ")}`;
    case "crash":
      return "verify crashed";
    default:
      return failure satisfies never;
  }
}

function sameItemType(a: ItemTypeRef, b: ItemTypeRef): boolean {
  return a.container === b.container && a.itemType === b.itemType;
}
