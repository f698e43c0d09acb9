/**
 * The changes to the session's access patterns: added, edited, removed, their rates set, marked
 * unknown, estimated and the estimates accepted or rejected, latency targets. Pure.
 */
import { compact, type DraftAccessPattern } from "./draft.js";
import { describeRate } from "./describe-changes.js";
import {
  ChangeRejected,
  checkPattern,
  checkSearch,
  forgetPatterns,
  missingAttributes,
  nextPatternId,
  requireEntity,
  requirePattern,
} from "./draft-edits.js";
import { estimateRate } from "./estimate-rate.js";
import type { SessionState } from "./state.js";
import { stepper, type ChangeOf, type Step } from "./apply-step.js";

export function addAccessPattern(state: SessionState, change: ChangeOf<"add-access-pattern">): Step {
  const workload = state.workload;
  const { done } = stepper(state);
  const entity = requireEntity(workload, change.entity);
  const { kind: _kind, id, ...fields } = change;
  const patternId = id ?? nextPatternId(workload, change.type);
  if (workload.accessPatterns.some((pattern) => pattern.id === patternId))
    throw new ChangeRejected(`access pattern ${patternId} already exists`);
  const pattern = checkSearch(
    entity,
    checkPattern(compact({ id: patternId, ...fields }) as DraftAccessPattern),
  );
  return {
    ...done(
      {
        workload: { ...workload, accessPatterns: [...workload.accessPatterns, pattern] },
        confirmed: { ...state.confirmed, accessPatternsComplete: false },
      },
      [`Access pattern ${patternId} (${pattern.type}): ${pattern.name}${describeRate(pattern)}.`],
      missingAttributes(entity, pattern),
    ),
    pattern: patternId,
  };
}

export function updateAccessPattern(state: SessionState, change: ChangeOf<"update-access-pattern">): Step {
  const workload = state.workload;
  const { done } = stepper(state);
  const existing = requirePattern(workload, change.id);
  const { kind: _kind, id: _id, ...fields } = change;
  const entity = requireEntity(workload, fields.entity ?? existing.entity);
  const pattern = checkSearch(
    entity,
    checkPattern({ ...existing, ...compact(fields) } as DraftAccessPattern),
  );
  const rateChanged = fields.rps !== undefined;
  return {
    ...done(
      {
        workload: {
          ...workload,
          accessPatterns: workload.accessPatterns.map((p) => (p.id === pattern.id ? pattern : p)),
        },
        ...(rateChanged ? forgetPatterns(state, [pattern.id]) : {}),
      },
      [
        `Access pattern ${pattern.id} updated: ${Object.keys(compact(fields)).join(", ")}${rateChanged ? describeRate(pattern) : ""}.`,
      ],
      missingAttributes(entity, pattern),
    ),
    pattern: pattern.id,
  };
}

export function removeAccessPattern(state: SessionState, change: ChangeOf<"remove-access-pattern">): Step {
  const workload = state.workload;
  const { done } = stepper(state);
  requirePattern(workload, change.id);
  // writes that committed with it no longer name it
  const partners = workload.accessPatterns.filter((p) => p.atomicWith?.includes(change.id));
  const accessPatterns = workload.accessPatterns
    .filter((pattern) => pattern.id !== change.id)
    .map((pattern) => {
      if (!pattern.atomicWith?.includes(change.id)) return pattern;
      const { atomicWith, ...rest } = pattern;
      const others = atomicWith.filter((id) => id !== change.id);
      return others.length === 0 ? rest : { ...rest, atomicWith: others };
    });
  return done({ workload: { ...workload, accessPatterns }, ...forgetPatterns(state, [change.id]) }, [
    `Removed access pattern ${change.id}${partners.length === 0 ? "" : ` (and from the atomicWith of ${partners.map((p) => p.id).join(", ")})`}.`,
  ]);
}

export function setLatencyTarget(state: SessionState, change: ChangeOf<"set-latency-target">): Step {
  const workload = state.workload;
  const { withWorkload } = stepper(state);
  const reads = workload.accessPatterns.filter((p) => p.type === "read");
  const ids = change.patterns ?? reads.filter((p) => p.latencyMs === undefined).map((p) => p.id);
  for (const id of ids) {
    const pattern = requirePattern(workload, id);
    if (pattern.type !== "read")
      throw new ChangeRejected(`${id} is a write; a latency target applies to reads`);
  }
  const accessPatterns = workload.accessPatterns.map((p) =>
    ids.includes(p.id) ? { ...p, latencyMs: change.latencyMs } : p,
  );
  return withWorkload({ ...workload, accessPatterns }, [
    ids.length === 0
      ? "Every read already has a latency target."
      : `Latency target ${change.latencyMs} ms (p99) for ${ids.join(", ")}.`,
  ]);
}

export function setRate(state: SessionState, change: ChangeOf<"set-rate">): Step {
  const workload = state.workload;
  const { done } = stepper(state);
  const existing = requirePattern(workload, change.pattern);
  const rps = compact({ ...existing.rps, ...compact({ avg: change.avg, peak: change.peak }) });
  const pattern = checkPattern({ ...existing, rps });
  return done(
    {
      workload: {
        ...workload,
        accessPatterns: workload.accessPatterns.map((p) => (p.id === pattern.id ? pattern : p)),
      },
      ...forgetPatterns(state, [pattern.id]),
    },
    [`${pattern.id} (${pattern.name})${describeRate(pattern)}.`],
  );
}

export function markRateUnknown(state: SessionState, change: ChangeOf<"mark-rate-unknown">): Step {
  const workload = state.workload;
  const { done } = stepper(state);
  const pattern = requirePattern(workload, change.pattern);
  return done({ unknownRates: [...state.unknownRates.filter((id) => id !== pattern.id), pattern.id] }, [
    `The rate of ${pattern.id} is not known yet: it will be estimated from business figures, with the arithmetic shown.`,
  ]);
}

export function estimatePatternRate(state: SessionState, change: ChangeOf<"estimate-rate">): Step {
  const workload = state.workload;
  const { done } = stepper(state);
  const pattern = requirePattern(workload, change.pattern);
  const estimate = estimateRate(pattern.id, change);
  return done(
    {
      estimates: [...state.estimates.filter((e) => e.pattern !== pattern.id), estimate],
      unknownRates: state.unknownRates.filter((id) => id !== pattern.id),
    },
    [`Estimated rate of ${pattern.id} (not applied until you accept it): ${estimate.arithmetic.join("; ")}.`],
  );
}

export function acceptEstimate(state: SessionState, change: ChangeOf<"accept-estimate">): Step {
  const workload = state.workload;
  const { done } = stepper(state);
  const estimate = state.estimates.find((e) => e.pattern === change.pattern);
  if (estimate === undefined)
    throw new ChangeRejected(`there is no estimate for ${change.pattern} to accept`);
  const existing = requirePattern(workload, change.pattern);
  const pattern = { ...existing, rps: { avg: estimate.avg, peak: estimate.peak } };
  return done(
    {
      workload: {
        ...workload,
        accessPatterns: workload.accessPatterns.map((p) => (p.id === pattern.id ? pattern : p)),
      },
      ...forgetPatterns(state, [pattern.id]),
    },
    [`Accepted the estimate for ${pattern.id}${describeRate(pattern)}.`],
  );
}

export function rejectEstimate(state: SessionState, change: ChangeOf<"reject-estimate">): Step {
  const { done } = stepper(state);
  if (!state.estimates.some((e) => e.pattern === change.pattern))
    throw new ChangeRejected(`there is no estimate for ${change.pattern}`);
  return done(forgetPatterns(state, [change.pattern]), [
    `Dropped the estimate for ${change.pattern}; its rate will be asked again.`,
  ]);
}
