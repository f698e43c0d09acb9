/**
 * Applies structured changes to a session: all of them, or none when any is invalid (every
 * problem is reported at once). Returns the new state and, for the turn summary, what was
 * learned in words. Pure: the caller writes the files.
 */
import type { Issue, Result } from "../common/issues.js";
import type { Change } from "./changes.js";
import { questionSubject } from "./questions.js";
import { compact } from "./draft.js";
import { ChangeRejected } from "./draft-edits.js";
import { stepper, type ChangeOf, type Step } from "./apply-step.js";
import {
  addEntity,
  putRelationship,
  removeAttribute,
  removeEntity,
  removeRelationship,
  setAttribute,
  updateEntity,
} from "./apply-entity-changes.js";
import {
  acceptEstimate,
  addAccessPattern,
  estimatePatternRate,
  markRateUnknown,
  rejectEstimate,
  removeAccessPattern,
  setLatencyTarget,
  setRate,
  updateAccessPattern,
} from "./apply-pattern-changes.js";
import {
  checkPatternReferences,
  fillImpliedFacts,
  missingWithRelationships,
  untimedLatest,
  newDesignWarnings,
} from "./answer-checks.js";
import type { SessionState } from "./state.js";

export interface AppliedChanges {
  readonly state: SessionState;
  /** What the changes taught the session, one sentence each (the turn summary's first part). */
  readonly learned: readonly string[];
  /** Things worth telling the user that do not stop the changes. */
  readonly warnings: readonly Issue[];
}

/**
 * Applies `changes` in order to `state`.
 * @example applyChanges(createSession(), [{ kind: "add-entity", name: "User", key: "userId" }])
 */
export function applyChanges(state: SessionState, changes: readonly Change[]): Result<AppliedChanges> {
  const issues: Issue[] = [];
  const learned: string[] = [];
  const warnings: Issue[] = [];
  let current = state;
  const reject = (index: number, kind: string, error: ChangeRejected): void => {
    issues.push({
      code: "session.changeRejected",
      change: kind,
      severity: "error",
      path: ["changes", index],
      message: error.message,
      ...(error.suggestion === undefined ? {} : { suggestion: error.suggestion }),
      ...(error.field === undefined ? {} : { field: error.field }),
    });
  };
  const warn = (index: number, message: string): void => {
    warnings.push({ code: "session.warning", severity: "warning", path: ["changes", index], message });
  };
  // The patterns each change added or edited: their references are checked once every change
  // is applied (a write may name, in atomicWith, a write added later in the same answer).
  const touched: { index: number; kind: string; id: string }[] = [];
  changes.forEach((change, index) => {
    try {
      const step = applyOne(current, change);
      current = step.state;
      learned.push(...step.learned);
      for (const message of step.warnings) warn(index, message);
      if (step.pattern !== undefined) touched.push({ index, kind: change.kind, id: step.pattern });
    } catch (error) {
      if (!(error instanceof ChangeRejected)) throw error;
      reject(index, change.kind, error);
    }
  });
  for (const { index, kind, id } of touched) {
    const pattern = current.workload.accessPatterns.find((p) => p.id === id);
    if (pattern === undefined) continue;
    try {
      checkPatternReferences(current.workload, pattern);
      for (const message of missingWithRelationships(current.workload, pattern)) warn(index, message);
      for (const message of untimedLatest(current.workload, pattern)) warn(index, message);
    } catch (error) {
      if (!(error instanceof ChangeRejected)) throw error;
      reject(index, kind, error);
    }
  }
  if (issues.length > 0) return { ok: false, issues };
  const implied = fillImpliedFacts(current.workload);
  learned.push(...implied.learned);
  warnings.push(...newDesignWarnings(state.workload, implied.workload));
  return {
    ok: true,
    value: {
      state: { ...current, workload: implied.workload, turn: state.turn + 1 },
      learned: lastPerRelationship(learned),
      warnings,
    },
    issues: warnings,
  };
}

/** Applies one change; throws ChangeRejected when the session refuses it. */
function applyOne(state: SessionState, change: Change): Step {
  switch (change.kind) {
    case "add-entity":
      return addEntity(state, change);
    case "update-entity":
      return updateEntity(state, change);
    case "remove-entity":
      return removeEntity(state, change);
    case "set-attribute":
      return setAttribute(state, change);
    case "remove-attribute":
      return removeAttribute(state, change);
    case "add-relationship":
    case "update-relationship":
      return putRelationship(state, change);
    case "remove-relationship":
      return removeRelationship(state, change);
    case "add-access-pattern":
      return addAccessPattern(state, change);
    case "update-access-pattern":
      return updateAccessPattern(state, change);
    case "remove-access-pattern":
      return removeAccessPattern(state, change);
    case "set-latency-target":
      return setLatencyTarget(state, change);
    case "set-rate":
      return setRate(state, change);
    case "mark-rate-unknown":
      return markRateUnknown(state, change);
    case "estimate-rate":
      return estimatePatternRate(state, change);
    case "accept-estimate":
      return acceptEstimate(state, change);
    case "reject-estimate":
      return rejectEstimate(state, change);
    case "set-application":
      return setApplication(state, change);
    case "add-note":
      return addNote(state, change);
    case "set-scale":
      return setScale(state, change);
    case "decline-question":
      return declineQuestion(state, change);
    case "confirm":
      return confirm(state, change);
    default:
      change satisfies never;
      throw new ChangeRejected("unknown change");
  }
}

function setApplication(state: SessionState, change: ChangeOf<"set-application">): Step {
  const workload = state.workload;
  const { withWorkload } = stepper(state);
  const { kind: _kind, ...fields } = change;
  const set = compact(fields);
  const said = Object.entries(set).map(([field, value]) => `${field}: ${String(value)}`);
  return withWorkload({ ...workload, ...set }, said.length === 0 ? [] : [`Application ${said.join("; ")}.`]);
}

function addNote(state: SessionState, change: ChangeOf<"add-note">): Step {
  const { done } = stepper(state);
  return done({ notes: [...state.notes, change.text] }, [`Business context: ${change.text}`]);
}

function setScale(state: SessionState, change: ChangeOf<"set-scale">): Step {
  const workload = state.workload;
  const { withWorkload } = stepper(state);
  const { kind: _kind, ...fields } = change;
  const set = compact(fields);
  const regions = set.regionNames !== undefined ? { regions: set.regionNames.length } : {};
  if (set.regionNames !== undefined && set.regions !== undefined && set.regions !== set.regionNames.length) {
    throw new ChangeRejected(
      `regions is ${set.regions} but ${set.regionNames.length} region names are listed`,
    );
  }
  const scale = { ...workload.scale, ...set, ...regions };
  const labels: Readonly<Record<string, string>> = {
    regions: "Regions",
    regionNames: "Region names",
    multiRegionWrites: "Multi-region writes",
    consistency: "Consistency",
    horizonMonths: "Planning horizon (months)",
  };
  const said = Object.entries(set).map(([field, value]) => {
    const shown = Array.isArray(value)
      ? value.join(", ")
      : typeof value === "boolean"
        ? value
          ? "yes"
          : "no"
        : String(value);
    return `${labels[field] ?? field}: ${shown}.`;
  });
  return withWorkload({ ...workload, scale }, said);
}

function declineQuestion(state: SessionState, change: ChangeOf<"decline-question">): Step {
  const { done } = stepper(state);
  return done({ declined: [...new Set([...state.declined, change.question])] }, [
    change.answer === undefined
      ? `Skipped: ${questionSubject(change.question)}.`
      : `${questionSubject(change.question).replace(/^./, (c) => c.toUpperCase())}: ${change.answer}.`,
  ]);
}

function confirm(state: SessionState, change: ChangeOf<"confirm">): Step {
  const { done } = stepper(state);
  const sentence =
    change.subject === "access-patterns-complete"
      ? change.value
        ? "You confirmed that every read and write access pattern is captured."
        : "There are more access patterns to capture."
      : change.value
        ? "You confirmed consistency, regions, the horizon and multi-region writes."
        : "Consistency, regions, the horizon and multi-region writes are still open.";
  const key = change.subject === "access-patterns-complete" ? "accessPatternsComplete" : "distribution";
  return done({ confirmed: { ...state.confirmed, [key]: change.value } }, [sentence]);
}

/** Several changes to one relationship in a turn are said once, in their final form. */
function lastPerRelationship(learned: readonly string[]): readonly string[] {
  const pair = (line: string): string | undefined =>
    /^Relationship (\S+) \S+ (\S+)/.exec(line)?.slice(1).join(" ");
  return learned.filter((line, index) => {
    const key = pair(line);
    return key === undefined || !learned.slice(index + 1).some((later) => pair(later) === key);
  });
}
