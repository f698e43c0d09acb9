/**
 * One change applied to a session (src/session/apply-changes.ts): the new state, what it taught
 * the session in words, and its warnings.
 */
import type { Change } from "./changes.js";
import type { DraftWorkload } from "./draft.js";
import type { SessionState } from "./state.js";

/** The change of one kind. */
export type ChangeOf<K extends Change["kind"]> = Extract<Change, { readonly kind: K }>;

export interface Step {
  readonly state: SessionState;
  readonly learned: readonly string[];
  readonly warnings: readonly string[];
  /** The access pattern the change added or edited, for the reference checks. */
  readonly pattern?: string;
}

/** The steps a change of `state` ends in: new state fields, or a new workload. */
export function stepper(state: SessionState): {
  done: (next: Partial<SessionState>, learned: string[], warnings?: string[]) => Step;
  withWorkload: (next: DraftWorkload, learned: string[], warnings?: string[]) => Step;
} {
  const done = (next: Partial<SessionState>, learned: string[], warnings: string[] = []): Step => ({
    state: { ...state, ...next },
    learned,
    warnings,
  });
  return {
    done,
    withWorkload: (next, learned, warnings = []) => done({ workload: next }, learned, warnings),
  };
}
