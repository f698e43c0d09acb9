/**
 * Questions as data: what to ask, why, what kind of answer is expected (a number with a unit, a
 * choice, text, a list, or a form for a new entity, relationship or access pattern), and which
 * structured change the answer becomes. The terminal interview renders them as prompts; an
 * assistant over MCP reads them and sends the changes itself.
 */
import { formatPath, type Issue, type Result } from "../common/issues.js";
import { changeSchema, type Change } from "./changes.js";
import type { QuantityUnit } from "./quantity.js";
import { rangeProblem, type NumberRange } from "./value-ranges.js";

export type QuestionTopic =
  | "massive-scale"
  | "design-details"
  | "search"
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
  /**
   * `attribute-presence`: which attributes are missing on most records (set-attribute with
   * presence); `atomic-writes`: which writes commit together (update-access-pattern with atomicWith).
   */
  readonly form: "entity" | "relationship" | "access-pattern" | "attribute-presence" | "atomic-writes";
  /** Fields already decided (e.g. `{ type: "write", entity: "Session", operation: "create" }`). */
  readonly preset: Readonly<Record<string, unknown>>;
}

export interface Choice {
  readonly value: string;
  readonly label: string;
  /** The changes choosing it makes. */
  readonly changes: readonly Change[];
  /**
   * For a question that `fills` a change: the fields choosing it sets in that change (merged
   * with the other answers of the group), e.g. `{ owned: true }` or `{ binning: false }`.
   */
  readonly sets?: Readonly<Record<string, unknown>>;
  /** Questions of the same group that are not asked once this is chosen (their answers are dropped). */
  readonly skips?: readonly string[];
  /** A form to fill in after choosing it (e.g. "yes, add a write pattern"). */
  readonly form?: FormRequest;
}

/**
 * Questions asked together as one (an entity's count, size, growth and retention; a pattern's
 * average and peak): the turn limit counts groups, and their answers fill one change.
 */
export interface QuestionGroup {
  readonly id: string;
  readonly text: string;
}

export type AnswerSpec =
  | {
      readonly kind: "number";
      readonly unit: QuantityUnit;
      /** The values accepted (the workload format's range for the field). */
      readonly range: NumberRange;
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
  /** The group it is asked in, when it is one part of a larger question. */
  readonly group?: QuestionGroup;
  /**
   * What the answer changes, when the tool designed the unknown at a plausible low and high value
   * ("This decides how Invoice is partitioned ... and the cost: $432 a month at 20 items, $14,935
   * at ..."): set by `rankByImpact` (impact.ts), which also asks such questions first.
   */
  readonly impact?: string;
  /**
   * The answer most applications give (session consistency, one region, no latency target): the
   * terminal shows it and takes it on Enter; `label` says it in words.
   */
  readonly suggested?: { readonly answer: Answer; readonly label: string };
  /**
   * For a number question: the questions of its group that do not apply when the answer is at
   * most `atMost` (one region: multi-region writes are not asked); their answers are dropped.
   */
  readonly skipsWhen?: { readonly atMost: number; readonly skips: readonly string[] };
}

/** An answer to one question. */
export type Answer =
  | { readonly kind: "value"; readonly value: number | string | readonly string[] }
  | { readonly kind: "choice"; readonly value: string }
  | { readonly kind: "unknown" }
  /** Skipped; `said` is what closing it means, when known ("none" for a latency target). */
  | { readonly kind: "skip"; readonly said?: string };

/** A change made by answers, with the answers it came from (their indexes). */
export interface AnsweredChange {
  readonly change: Change;
  readonly answers: readonly number[];
}

/**
 * Turns answers to questions into the structured changes they mean, merging answers that fill
 * the same change (e.g. a pattern's average and peak rate become one `set-rate`).
 * @example answersToChanges([{ question, answer: { kind: "value", value: 12 } }])
 */
export function answersToChanges(
  answered: readonly { readonly question: Question; readonly answer: Answer }[],
): Result<readonly Change[]> {
  const result = answeredChanges(answered);
  return result.issues.length > 0
    ? { ok: false, issues: result.issues }
    : { ok: true, value: result.changes.map((c) => c.change), issues: [] };
}

/**
 * The changes the answers make, each with the answers it came from, and the problems of the
 * answers that cannot be turned into changes. Each answer is checked on its own (its range, its
 * choices, then the change it fills): every issue's path is `["answers", index]` of an answer
 * to ask again, so the valid answers can be kept.
 */
export function answeredChanges(
  answered: readonly { readonly question: Question; readonly answer: Answer }[],
): { readonly changes: readonly AnsweredChange[]; readonly issues: readonly Issue[] } {
  const collected = collector();
  const issues: Issue[] = [];
  // answers dropped because a choice (or a number) of their group said they do not apply
  const skipped = new Set(answered.flatMap(({ question, answer }) => answerSkips(question, answer)));
  answered.forEach(({ question, answer }, index) => {
    if (skipped.has(question.id)) return;
    const problem = collectAnswer(question, answer, index, collected);
    if (problem !== undefined) {
      issues.push({
        code: "session.invalidAnswer",
        severity: "error",
        path: ["answers", index],
        message: `${question.id}: ${problem}`,
      });
    }
  });
  const changes = checkedChanges(collected.made, answered, issues);
  return { changes, issues };
}

/** A change being made from answers (not yet checked against the change schema). */
interface CollectedChange {
  readonly change: unknown;
  readonly answers: number[];
}

/** The changes being made: the answers that fill one change are merged into it. */
interface Collector {
  readonly made: CollectedChange[];
  /** Sets fields of the change the question fills (made on its first answer). */
  fill(question: Question, values: Readonly<Record<string, unknown>>, index: number): void;
  /** A change of its own; an identical one already made only records the answer. */
  extra(change: Change, index: number): void;
}

function collector(): Collector {
  const merged = new Map<string, { change: Record<string, unknown>; answers: number[] }>();
  const made: CollectedChange[] = [];
  return {
    made,
    fill(question, values, index) {
      if (question.fills === undefined) return;
      const key = JSON.stringify(question.fills.change);
      let entry = merged.get(key);
      if (entry === undefined) {
        entry = {
          change: structuredClone({ ...question.fills.change }) as Record<string, unknown>,
          answers: [],
        };
        merged.set(key, entry);
        made.push(entry);
      }
      entry.answers.push(index);
      for (const [field, value] of Object.entries(values)) setField(entry.change, field, value);
    },
    extra(change, index) {
      const existing = made.find((other) => JSON.stringify(other.change) === JSON.stringify(change));
      if (existing === undefined) made.push({ change, answers: [index] });
      else existing.answers.push(index);
    },
  };
}

/** Collects the changes of one answer; returns what is wrong with it, if anything. */
function collectAnswer(
  question: Question,
  answer: Answer,
  index: number,
  collected: Collector,
): string | undefined {
  const { made } = collected;
  switch (answer.kind) {
    case "skip":
      if (!question.optional) return "this question cannot be skipped";
      made.push({
        change: {
          kind: "decline-question",
          question: question.id,
          ...(answer.said === undefined ? {} : { answer: answer.said }),
        },
        answers: [index],
      });
      return undefined;
    case "unknown":
      if (question.whenUnknown === undefined) return '"don\'t know" is not an answer to this question';
      for (const change of question.whenUnknown) made.push({ change, answers: [index] });
      break;
    case "choice": {
      const choices = questionChoices(question);
      const choice = choices.find((candidate) => candidate.value === answer.value);
      if (choice === undefined) {
        return choices.length === 0
          ? "expected a value, not a choice"
          : `"${answer.value}" is not one of ${choices.map((c) => c.value).join(", ")}`;
      }
      for (const change of choice.changes) made.push({ change, answers: [index] });
      if (choice.sets !== undefined) collected.fill(question, choice.sets, index);
      break;
    }
    case "value": {
      const problem = collectValue(question, answer.value, index, collected);
      if (problem !== undefined) return problem;
      break;
    }
    default:
      answer satisfies never;
  }
  for (const change of question.alsoChanges ?? []) collected.extra(change, index);
  return undefined;
}

/** A typed value: in range for a number; one change per item for a list; else the field filled. */
function collectValue(
  question: Question,
  value: unknown,
  index: number,
  collected: Collector,
): string | undefined {
  if (question.fills === undefined) return "this question is answered with a choice or a form";
  const { change, field } = question.fills;
  const spec = question.answer;
  if (spec.kind === "number") {
    if (typeof value !== "number") return `expected a number, got ${JSON.stringify(value)}`;
    const outside = rangeProblem(value, spec.range);
    if (outside !== undefined) return outside;
  }
  if (spec.kind === "list") {
    const values: readonly unknown[] = Array.isArray(value) ? value : [value];
    for (const item of values) {
      const listed = structuredClone({ ...change }) as Record<string, unknown>;
      setField(listed, field, item);
      collected.made.push({ change: listed, answers: [index] });
    }
  } else collected.fill(question, { [field]: value }, index);
  return undefined;
}

/** The collected changes the change schema accepts; the others become issues of their answers. */
function checkedChanges(
  made: readonly CollectedChange[],
  answered: readonly { readonly question: Question }[],
  issues: Issue[],
): AnsweredChange[] {
  const changes: AnsweredChange[] = [];
  for (const { change, answers } of made) {
    const result = changeSchema.safeParse(change);
    if (result.success) {
      changes.push({ change: result.data, answers });
      continue;
    }
    const message = result.error.issues
      .map((issue) => `${formatPath(issue.path.filter((s) => typeof s !== "symbol"))}: ${issue.message}`)
      .join("; ");
    for (const index of answers)
      issues.push({
        code: "session.invalidAnswer",
        severity: "error",
        path: ["answers", index],
        message: `${answered[index]?.question.id ?? ""}: ${message}`,
      });
  }
  return changes;
}

/** Sets `field` of `target`; a dotted field (`returns.avg`) sets a field of a nested object. */
export function setField(target: Record<string, unknown>, field: string, value: unknown): void {
  const [head = field, ...rest] = field.split(".");
  if (rest.length === 0) {
    target[head] = value;
    return;
  }
  const inner = target[head];
  const nested: Record<string, unknown> =
    typeof inner === "object" && inner !== null ? (inner as Record<string, unknown>) : {};
  target[head] = nested;
  setField(nested, rest.join("."), value);
}

/** The questions of a turn in their groups (a question without a group is its own), in order. */
export function groupQuestions(
  questions: readonly Question[],
): readonly { readonly group?: QuestionGroup; readonly questions: readonly Question[] }[] {
  const groups: { group?: QuestionGroup; questions: Question[] }[] = [];
  for (const question of questions) {
    const last = groups.at(-1);
    if (question.group !== undefined && last?.group?.id === question.group.id) last.questions.push(question);
    else
      groups.push({
        ...(question.group === undefined ? {} : { group: question.group }),
        questions: [question],
      });
  }
  return groups;
}

/** The questions of its group an answer says do not apply (a choice's `skips`, a number's `skipsWhen`). */
export function answerSkips(question: Question, answer: Answer | undefined): readonly string[] {
  if (answer?.kind === "choice")
    return questionChoices(question).find((choice) => choice.value === answer.value)?.skips ?? [];
  if (answer?.kind === "value" && typeof answer.value === "number" && question.skipsWhen !== undefined)
    return answer.value <= question.skipsWhen.atMost ? question.skipsWhen.skips : [];
  return [];
}

/** The choices a question offers: its choices, or the words a number question accepts instead of a number. */
export function questionChoices(question: Question): readonly Choice[] {
  if (question.answer.kind === "choice") return question.answer.choices;
  if (question.answer.kind === "number") return question.answer.alternatives ?? [];
  return [];
}

const SUBJECTS: readonly (readonly [RegExp, (...parts: string[]) => string])[] = [
  [/^application:description$/, () => "the application's description"],
  [/^design:latency$/, () => "the latency target"],
  [/^design:sparse-attributes$/, () => "sparse attributes"],
  [/^design:atomic-writes$/, () => "writes that commit together"],
  [/^distribution:horizon$/, () => "the planning horizon"],
  [/^distribution:(.+)$/, (what) => `the ${what.replace(/-/g, " ")}`],
  [/^size:([^:]+):retention$/, (entity) => `how long ${entity} items are kept`],
  [/^size:([^:]+):growth$/, (entity) => `new ${entity} items per month`],
  [/^size:([^:]+):maxBytes$/, (entity) => `the largest ${entity} item`],
  [/^size:([^:]+):(count|avgBytes)$/, (entity) => `the size of ${entity}`],
  [/^result-size:([^:]+)(?::limit)?$/, (pattern) => `the result size of ${pattern}`],
  [/^rate:([^:]+)(?::.*)?$/, (pattern) => `the rate of ${pattern}`],
  [/^pairing:?(.*)$/, () => "a read or write without its pair"],
  [/^relationship:([^:]+):(.+?)(?::.*)?$/, (parent, child) => `how ${parent} and ${child} are related`],
  [/^cardinality:(.+)$/, (what) => `the distinct values of ${what}`],
  [/^attribute:([^:]+):([^:]+):type$/, (entity, attribute) => `the type of ${entity}.${attribute}`],
];

/**
 * A question id in words, for what the user is told ("Skipped: the latency target."); the id
 * itself when it is none of the engine's kinds.
 * @example questionSubject("size:Order:retention") // "how long Order items are kept"
 */
export function questionSubject(id: string): string {
  for (const [pattern, say] of SUBJECTS) {
    const match = pattern.exec(id);
    if (match !== null) return say(...match.slice(1).map((part) => part ?? ""));
  }
  return `question ${id}`;
}
