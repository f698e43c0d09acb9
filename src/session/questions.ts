/**
 * Questions as data: what to ask, why, what kind of answer is expected (a number with a unit, a
 * choice, text, a list, or a form for a new entity, relationship or access pattern), and which
 * structured change the answer becomes. The terminal interview renders them as prompts; an
 * assistant over MCP reads them and sends the changes itself.
 */
import type { Issue, Result } from "../common/issues.js";
import { changeSchema, type Change } from "./changes.js";
import type { QuantityUnit } from "./quantity.js";

export type QuestionTopic =
  | "massive-scale"
  | "application"
  | "entities"
  | "access-patterns"
  | "rates"
  | "read-write-pairs"
  | "attributes"
  | "sizes"
  | "relationships"
  | "cardinality"
  | "distribution"
  | "confirmation";

/** A form that creates or edits something with several fields at once. */
export interface FormRequest {
  readonly form: "entity" | "relationship" | "access-pattern";
  /** Fields already decided (e.g. `{ type: "write", entity: "Session", operation: "create" }`). */
  readonly preset: Readonly<Record<string, unknown>>;
}

export interface Choice {
  readonly value: string;
  readonly label: string;
  /** The changes choosing it makes. */
  readonly changes: readonly Change[];
  /** A form to fill in after choosing it (e.g. "yes, add a write pattern"). */
  readonly form?: FormRequest;
}

export type AnswerSpec =
  | {
      readonly kind: "number";
      readonly unit: QuantityUnit;
      readonly integer: boolean;
      /** Words accepted instead of a number (e.g. "unbounded"), answered as a choice. */
      readonly alternatives?: readonly Choice[];
    }
  | { readonly kind: "text" }
  | { readonly kind: "list" }
  | { readonly kind: "choice"; readonly choices: readonly Choice[] }
  | { readonly kind: "form"; readonly request: FormRequest };

export interface Question {
  /** Stable id, e.g. `rate:Q1:avg`; used to decline a question (`decline-question`). */
  readonly id: string;
  readonly topic: QuestionTopic;
  readonly text: string;
  /** Why the answer matters for the design, in one sentence. */
  readonly why: string;
  readonly answer: AnswerSpec;
  /**
   * For number, text and list answers: the change the answer goes into (`field` is set to the
   * answer; a list makes one change per item). Answers to questions of one turn that fill the
   * same change are merged into one change.
   */
  readonly fills?: { readonly change: Readonly<Record<string, unknown>>; readonly field: string };
  /** Changes to make when the user says "I don't know" (only rate questions offer it). */
  readonly whenUnknown?: readonly Change[];
  /** Changes made once when any question of the turn is answered (e.g. recording a confirmation). */
  readonly alsoChanges?: readonly Change[];
  /** The user may skip it (recorded with `decline-question`, not asked again). */
  readonly optional: boolean;
}

/** An answer to one question. */
export type Answer =
  | { readonly kind: "value"; readonly value: number | string | readonly string[] }
  | { readonly kind: "choice"; readonly value: string }
  | { readonly kind: "unknown" }
  | { readonly kind: "skip" };

/**
 * Turns answers to questions into the structured changes they mean, merging answers that fill
 * the same change (e.g. a pattern's average and peak rate become one `set-rate`).
 */
export function answersToChanges(
  answered: readonly { readonly question: Question; readonly answer: Answer }[],
): Result<readonly Change[]> {
  const merged = new Map<string, Record<string, unknown>>();
  const changes: unknown[] = [];
  const issues: Issue[] = [];
  const extra: Change[] = [];
  answered.forEach(({ question, answer }, index) => {
    const problem = (message: string): void => {
      issues.push({
        code: "session.invalidAnswer",
        severity: "error",
        path: ["answers", index],
        message: `${question.id}: ${message}`,
      });
    };
    switch (answer.kind) {
      case "skip":
        if (!question.optional) return problem("this question cannot be skipped");
        changes.push({ kind: "decline-question", question: question.id });
        return;
      case "unknown":
        if (question.whenUnknown === undefined)
          return problem('"don\'t know" is not an answer to this question');
        changes.push(...question.whenUnknown);
        break;
      case "choice": {
        const choices = questionChoices(question);
        const choice = choices.find((candidate) => candidate.value === answer.value);
        if (choice === undefined) {
          return problem(
            choices.length === 0
              ? "expected a value, not a choice"
              : `"${answer.value}" is not one of ${choices.map((c) => c.value).join(", ")}`,
          );
        }
        changes.push(...choice.changes);
        break;
      }
      case "value": {
        if (question.fills === undefined) return problem("this question is answered with a choice or a form");
        const { change, field } = question.fills;
        const values =
          Array.isArray(answer.value) && question.answer.kind === "list" ? answer.value : [answer.value];
        if (question.answer.kind === "list") {
          for (const value of values) changes.push({ ...change, [field]: value });
        } else {
          const key = JSON.stringify(change);
          const existing = merged.get(key);
          if (existing === undefined) {
            const created = { ...change, [field]: answer.value };
            merged.set(key, created);
            changes.push(created);
          } else existing[field] = answer.value;
        }
        break;
      }
      default:
        answer satisfies never;
    }
    for (const change of question.alsoChanges ?? []) {
      if (!extra.some((other) => JSON.stringify(other) === JSON.stringify(change))) extra.push(change);
    }
  });
  const all = [...changes, ...extra];
  const parsed: Change[] = [];
  all.forEach((change, index) => {
    const result = changeSchema.safeParse(change);
    if (result.success) parsed.push(result.data);
    else
      issues.push({
        code: "session.invalidAnswer",
        severity: "error",
        path: ["changes", index],
        message: result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; "),
      });
  });
  return issues.length > 0 ? { ok: false, issues } : { ok: true, value: parsed, issues: [] };
}

/** The choices a question offers: its choices, or the words a number question accepts instead of a number. */
export function questionChoices(question: Question): readonly Choice[] {
  if (question.answer.kind === "choice") return question.answer.choices;
  if (question.answer.kind === "number") return question.answer.alternatives ?? [];
  return [];
}
