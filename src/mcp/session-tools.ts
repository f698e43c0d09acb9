/**
 * The session tools of the MCP server: apply structured changes to the session in the working
 * folder, and read the next questions. Each call reads the session from disk and writes it back
 * atomically, so the terminal interview and an assistant can take turns on the same folder.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { Issue } from "../common/issues.js";
import { applyChanges } from "../session/apply-changes.js";
import { changesSchema } from "../session/changes.js";
import { checkReadiness, type Readiness } from "../session/checklist.js";
import { nextQuestions } from "../session/next-questions.js";
import type { Question } from "../session/questions.js";
import type { SessionState } from "../session/state.js";
import { formatTurnSummary, summarizeTurn } from "../session/summarize-turn.js";
import { openSession, saveSession, WORKLOAD_FILE } from "../session-store/session-files.js";
import { failure, issueSchema, success } from "./results.js";

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

const sessionStatusShape = {
  dir: z.string(),
  turn: z.number(),
  questions: z.array(questionSchema),
  checklist: z.array(checklistItemSchema),
  ready: z.boolean().describe("true when write-data-model may write the data model"),
  reasons: z.array(z.string()).describe("why the data model cannot be written yet"),
  notices: z.array(z.string()),
};

export const getNextQuestionsOutput = sessionStatusShape;

export const updateRequirementsInput = {
  changes: changesSchema.describe("structured changes, applied together or not at all"),
};

export const updateRequirementsOutput = {
  ...sessionStatusShape,
  learned: z.array(z.string()),
  filesUpdated: z.array(z.string()),
  nextSteps: z.array(z.string()),
  warnings: z.array(issueSchema),
  summary: z
    .string()
    .describe("the four-part turn summary: what I learned, files updated, next steps, questions"),
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

function status(dir: string, state: SessionState, readiness: Readiness, notices: readonly string[]) {
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

/** `get-next-questions`: the next questions (at most three, related) and the checklist. */
export async function getNextQuestions(dir: string): Promise<CallToolResult> {
  const opened = await openSession(dir, { keepEditedCopies: false });
  const readiness = checkReadiness(opened.state, WORKLOAD_FILE);
  const result = status(dir, opened.state, readiness, opened.notices);
  const text =
    result.questions.length === 0
      ? result.ready
        ? "No open questions: every access pattern is captured and confirmed. Call write-data-model."
        : `No open questions, but the data model cannot be written yet: ${result.reasons.join("; ")}`
      : `Questions (ask these, at most three, nothing else this turn):\n${result.questions.map((q, i) => `${i + 1}. ${q.text}\n   why: ${q.why}\n   answer: ${q.howToAnswer}`).join("\n")}`;
  return success(text, result);
}

/** `update-requirements`: applies changes, rewrites the files, returns the turn summary. */
export async function updateRequirements(
  dir: string,
  args: { changes: z.infer<typeof changesSchema> },
): Promise<CallToolResult> {
  const opened = await openSession(dir);
  const applied = applyChanges(opened.state, args.changes);
  if (!applied.ok) {
    return failure(
      `Nothing was applied: ${applied.issues.length} problem(s).\n${applied.issues.map(formatProblem).join("\n")}`,
      { applied: false, issues: applied.issues },
    );
  }
  const state = applied.value.state;
  const saved = await saveSession(dir, state, opened.baseline);
  const summary = summarizeTurn({
    state,
    readiness: saved.readiness,
    learned: applied.value.learned,
    filesUpdated: saved.filesUpdated,
  });
  const text = formatTurnSummary(summary);
  return success(text, {
    ...status(dir, state, saved.readiness, [...opened.notices, ...saved.notices]),
    learned: [...summary.learned],
    filesUpdated: [...summary.filesUpdated],
    nextSteps: [...summary.nextSteps],
    warnings: [...applied.value.warnings],
    summary: text,
  });
}

function formatProblem(issue: Issue): string {
  return `- ${issue.path}: ${issue.message}${issue.suggestion === undefined ? "" : ` (${issue.suggestion})`}`;
}
