/**
 * The session as the assistant sees it after every call: the next questions (each with how to
 * answer it in changes), the checklist, and whether the data model may be written.
 */
import { z } from "zod";
import { checkReadiness, type Readiness } from "../../session/checklist.js";
import { nextQuestions } from "../../session/next-questions.js";
import type { Question } from "../../session/questions.js";
import type { SessionState } from "../../session/state.js";
import { WORKLOAD_FILE } from "../../session-store/session-files.js";

const looseRecord = z.record(z.string(), z.unknown());

/** A question as the assistant sees it, with how to answer it in changes. */
export const questionSchema = z.object({
  id: z.string(),
  topic: z.string(),
  text: z.string(),
  why: z.string(),
  answer: looseRecord.describe(
    "kind: number (with unit), text, list, choice (choices with their changes) or form",
  ),
  fills: z.object({ change: looseRecord, field: z.string() }).optional(),
  whenUnknown: z.array(looseRecord).optional(),
  alsoChanges: z.array(looseRecord).optional(),
  optional: z.boolean(),
  howToAnswer: z.string(),
});

const checklistItemSchema = z.object({
  id: z.string(),
  label: z.string(),
  done: z.boolean(),
  why: z.string(),
});

export const sessionStatusShape = {
  dir: z.string(),
  turn: z.number(),
  questions: z.array(questionSchema),
  checklist: z.array(checklistItemSchema),
  ready: z.boolean().describe("true when write-data-model may write the data model"),
  reasons: z.array(z.string()).describe("why the data model cannot be written yet"),
  notices: z.array(z.string()),
};

/** How to send the answer to `question` with update-requirements. */
export function howToAnswer(question: Question): string {
  const parts: string[] = [];
  const spec = question.answer;
  if (question.fills !== undefined) {
    const example = {
      ...question.fills.change,
      [question.fills.field]:
        spec.kind === "list"
          ? "<one change per item>"
          : `<${spec.kind === "number" ? `number in ${spec.unit}` : "text"}>`,
    };
    parts.push(`send ${JSON.stringify(example)}${spec.kind === "list" ? " for each item" : ""}`);
  }
  if (spec.kind === "choice" || (spec.kind === "number" && spec.alternatives !== undefined)) {
    const choices = spec.kind === "choice" ? spec.choices : (spec.alternatives ?? []);
    for (const choice of choices) {
      const form =
        choice.form === undefined
          ? ""
          : ` then add the ${choice.form.form} with preset ${JSON.stringify(choice.form.preset)}`;
      parts.push(`"${choice.label}": send ${JSON.stringify(choice.changes)}${form}`);
    }
  }
  if (spec.kind === "form")
    parts.push(`send add-${spec.request.form} changes (preset ${JSON.stringify(spec.request.preset)})`);
  if (question.whenUnknown !== undefined)
    parts.push(`if the user does not know: send ${JSON.stringify(question.whenUnknown)}`);
  if (question.alsoChanges !== undefined)
    parts.push(`with the answer also send ${JSON.stringify(question.alsoChanges)}`);
  if (question.optional)
    parts.push(`to skip: send ${JSON.stringify({ kind: "decline-question", question: question.id })}`);
  return parts.join("; ");
}

/** The status part of get-next-questions and update-requirements results. */
export function sessionStatus(
  dir: string,
  state: SessionState,
  readiness: Readiness,
  notices: readonly string[],
) {
  return {
    dir,
    turn: state.turn,
    questions: nextQuestions(state).map((question) => ({
      ...question,
      howToAnswer: howToAnswer(question),
    })),
    checklist: readiness.session.map((item) => ({ ...item })),
    ready: readiness.ready,
    reasons: [...readiness.reasons],
    notices: [...notices],
  };
}

/** The session's readiness, for a state just opened. */
export function readinessOf(state: SessionState): Readiness {
  return checkReadiness(state, WORKLOAD_FILE);
}
