/**
 * The session as the assistant sees it after every call: the next questions (each with how to
 * answer it in changes), the checklist, and whether the data model may be written.
 */
import { z } from "zod";
import { checkReadiness, type Readiness } from "../../session/checklist.js";
import { nextQuestions } from "../../session/next-questions.js";
import {
  groupQuestions,
  questionChoices,
  setField,
  type FormRequest,
  type Question,
} from "../../session/questions.js";
import { describeRange } from "../../session/value-ranges.js";
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
  group: z
    .object({ id: z.string(), text: z.string() })
    .optional()
    .describe("questions of one group are one question with several parts: answer them together"),
  impact: z
    .string()
    .optional()
    .describe("what the answer changes: the design and the monthly cost at a plausible low and high value"),
  suggested: z
    .object({ answer: looseRecord, label: z.string() })
    .optional()
    .describe("the answer most applications give; the user may accept it"),
  skipsWhen: z
    .object({ atMost: z.number(), skips: z.array(z.string()) })
    .optional()
    .describe("questions of the group that do not apply when this number is at most atMost"),
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

/** A placeholder for a value in an example change: `<number: requests/s, a number of at least 0>`. */
function placeholder(question: Question): string {
  const spec = question.answer;
  const field = question.fills?.field ?? "";
  const choices = questionChoices(question).filter(
    (choice) => choice.sets !== undefined && field in choice.sets,
  );
  const alternatives = choices.map((choice) => `${JSON.stringify(choice.sets?.[field])} for ${choice.value}`);
  switch (spec.kind) {
    case "number":
      return `<number: ${spec.unit}, ${describeRange(spec.range)}${alternatives.length === 0 ? "" : `; or ${alternatives.join(", ")}`}>`;
    case "choice":
      return `<${choices.map((choice) => JSON.stringify(choice.sets?.[field])).join(" | ")}>`;
    case "text":
      return "<text>";
    case "list":
      return "<one change per item>";
    case "form":
      return "<form>";
    default:
      spec satisfies never;
      return "<value>";
  }
}

/** The change a question fills, with every field its group fills as a placeholder (numbers unquoted). */
function exampleChange(question: Question, turn: readonly Question[]): string | undefined {
  if (question.fills === undefined) return undefined;
  const key = JSON.stringify(question.fills.change);
  const fillers = turn.filter(
    (other) =>
      other.fills !== undefined &&
      JSON.stringify(other.fills.change) === key &&
      (other.group?.id ?? other.id) === (question.group?.id ?? question.id),
  );
  const tokens = new Map<string, string>();
  const change: Record<string, unknown> = structuredClone({ ...question.fills.change });
  for (const filler of fillers.length === 0 ? [question] : fillers) {
    const token = `@@${tokens.size}@@`;
    tokens.set(token, `${placeholder(filler)}${filler.optional ? " (optional)" : ""}`);
    setField(change, filler.fills?.field ?? "", token);
  }
  let text = JSON.stringify(change);
  for (const [token, shown] of tokens) text = text.replace(JSON.stringify(token), shown);
  return text;
}

/** What a form answer becomes, for an assistant that sends the changes itself. */
function formChanges(request: FormRequest): string {
  switch (request.form) {
    case "attribute-presence":
      return `send {"kind":"set-attribute","entity":<entity>,"name":<attribute>,"presence":<number: share of the records that have a value, more than 0 and at most 1>} for each sparse attribute (candidates ${JSON.stringify(request.preset.attributes)})`;
    case "atomic-writes":
      return `send {"kind":"update-access-pattern","id":<write id>,"atomicWith":[<the other write ids of the transaction>]} for each group of writes that commit together (writes ${JSON.stringify(request.preset.writes)})`;
    case "entity":
    case "relationship":
    case "access-pattern":
      return `send add-${request.form} changes (preset ${JSON.stringify(request.preset)})`;
    default:
      request.form satisfies never;
      return "";
  }
}

/** How to send the answer to `question` (one of the turn's `questions`) with update-requirements. */
export function howToAnswer(question: Question, turn: readonly Question[] = [question]): string {
  const { change, others } = answerParts(question, turn);
  return [...(change === undefined ? [] : [change]), ...others].join("; ");
}

/**
 * The answer in parts: the change the question's group fills (the same for every part of a
 * group), and what else its answer may be (choices, forms, "I don't know", a skip).
 */
function answerParts(
  question: Question,
  turn: readonly Question[],
): { readonly change?: string; readonly others: readonly string[] } {
  const others: string[] = [];
  const spec = question.answer;
  const example = exampleChange(question, turn);
  const grouped = turn.some(
    (other) => other !== question && other.group !== undefined && other.group.id === question.group?.id,
  );
  const change =
    example === undefined
      ? undefined
      : `send ${example}${spec.kind === "list" ? " for each item" : ""}${grouped ? " (one change with the answers of this group)" : ""}`;
  if (spec.kind === "list" && question.fills?.change.kind === "add-entity")
    others.push(
      'each may carry its key, attributes and what is known of its size, e.g. {"kind":"add-entity","name":"Order","key":"orderId","attributes":{"orderId":"string","customerId":"string"},"count":2000000,"avgBytes":1500,"maxBytes":6000,"growthPerMonth":100000,"ttlSeconds":7776000}',
    );
  for (const choice of questionChoices(question)) {
    if (choice.changes.length === 0 && choice.form === undefined) continue;
    const form =
      choice.form === undefined
        ? ""
        : `${choice.changes.length === 0 ? "" : " and "}${formChanges(choice.form)}`;
    others.push(
      `"${choice.label}": ${choice.changes.length === 0 ? "" : `send ${JSON.stringify(choice.changes)}`}${form}`,
    );
  }
  if (spec.kind === "form") others.push(formChanges(spec.request));
  if (question.whenUnknown !== undefined)
    others.push(`if the user does not know: send ${JSON.stringify(question.whenUnknown)}`);
  if (question.alsoChanges !== undefined)
    others.push(`with the answer also send ${JSON.stringify(question.alsoChanges)}`);
  if (question.optional)
    others.push(`to skip: send ${JSON.stringify({ kind: "decline-question", question: question.id })}`);
  return { ...(change === undefined ? {} : { change }), others };
}

/** The status part of get-next-questions and update-requirements results. */
export function sessionStatus(
  dir: string,
  state: SessionState,
  readiness: Readiness,
  notices: readonly string[],
) {
  const questions = nextQuestions(state);
  return {
    dir,
    turn: state.turn,
    questions: questions.map((question) => ({
      ...question,
      howToAnswer: howToAnswer(question, questions),
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

/**
 * The questions as numbered text: a group is one question with lettered parts; the change its
 * parts fill is shown once, after them.
 */
export function formatQuestions(questions: readonly Question[]): string {
  return groupQuestions(questions)
    .map(({ group, questions: parts }, index) => {
      if (group === undefined) {
        const [only] = parts;
        return only === undefined
          ? ""
          : `${index + 1}. ${only.text}\n   why: ${only.why}${only.impact === undefined ? "" : `\n   impact: ${only.impact}`}\n   answer: ${howToAnswer(only, questions)}`;
      }
      const changes = new Set<string>();
      const lines = parts.map((part, i) => {
        const { change, others } = answerParts(part, questions);
        if (change !== undefined) changes.add(change);
        return [
          `   ${String.fromCharCode(97 + (i % 26))}) ${part.text}${part.optional ? " (optional)" : ""}`,
          `      why: ${part.why}`,
          ...(part.impact === undefined ? [] : [`      impact: ${part.impact}`]),
          ...(others.length === 0 ? [] : [`      or: ${others.join("; ")}`]),
        ].join("\n");
      });
      return [
        `${index + 1}. ${group.text}`,
        ...lines,
        ...[...changes].map((change) => `   answer: ${change}`),
      ].join("\n");
    })
    .join("\n");
}
