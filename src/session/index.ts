/**
 * The interview engine (the `cosmos-modeler/session` subpath export): a pure session state that
 * asks at most three related questions per turn, applies structured answers as checked changes,
 * and renders the requirements document. The terminal interview and the MCP server both drive it.
 *
 * ```ts
 * import { createSession, nextQuestions, applyChanges } from "cosmos-modeler/session";
 * let state = createSession({ name: "Food delivery" });
 * const questions = nextQuestions(state); // at most MAX_QUESTIONS_PER_TURN
 * ```
 */
export {
  createSession,
  sessionToJson,
  sessionFromJson,
  type SessionState,
  type RateEstimate,
} from "./state.js";
export { applyChanges, type AppliedChanges } from "./apply-changes.js";
export { changeSchema, changesSchema, type Change } from "./changes.js";
export { nextQuestions, MAX_QUESTIONS_PER_TURN } from "./next-questions.js";
export {
  answersToChanges,
  groupQuestions,
  type Question,
  type QuestionGroup,
  type Answer,
  type AnswerSpec,
} from "./questions.js";
export { RANGES, describeRange, rangeProblem, type NumberRange } from "./value-ranges.js";
export { summarizeTurn, formatTurnSummary, type TurnSummary } from "./summarize-turn.js";
export { checkReadiness, sessionChecklist, serializeDraft, type Readiness } from "./checklist.js";
export { renderSessionRequirements } from "./render-session-requirements.js";
export { estimateRate, type BusinessFigures } from "./estimate-rate.js";
