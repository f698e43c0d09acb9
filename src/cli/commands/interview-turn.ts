/**
 * One turn of the terminal interview: the engine's questions asked one by one (each checked as
 * it is typed), their answers turned into changes and checked against the session, and a refused
 * answer asked again alone. `/menu` or Ctrl+C end the turn with the answers given so far.
 */
import type { Answer, Question } from "../../session/questions.js";
import { answeredChanges, answerSkips } from "../../session/questions.js";
import { applyChanges } from "../../session/apply-changes.js";
import type { Change } from "../../session/changes.js";
import type { SessionState } from "../../session/state.js";
import { formatIssue } from "../../common/issues.js";
import { askNumberLine, askQuestion } from "./interview-forms.js";
import { EditRequested, MenuRequested, type Prompter } from "./interview-prompter.js";

/** How a turn of questions ended. */
export type TurnOutcome =
  | { readonly kind: "answered"; readonly changes: readonly Change[] }
  /** The user asked for the menu (`/menu`) or pressed Ctrl+C: the answers given so far. */
  | { readonly kind: "menu" | "interrupted"; readonly partial: readonly Change[] }
  /** The user typed a one-line edit (`/set Q1 peak 60/s`): the answers so far, then the edit. */
  | { readonly kind: "edit"; readonly partial: readonly Change[]; readonly change: Change };

/** True for the prompt library's error on Ctrl+C (or an aborted prompt). */
export function isInterruption(error: unknown): boolean {
  return error instanceof Error && (error.name === "ExitPromptError" || error.name === "AbortPromptError");
}

/**
 * Asks the turn's questions, each checked as it is typed; then turns the answers into changes and
 * checks them against the session: an answer the session refuses (a peak below the average) is
 * asked again with the reason, and every other answer of the group is kept.
 */
export async function answerTurn(
  prompter: Prompter,
  questions: readonly Question[],
  state: SessionState,
  options: {
    /** Called with the turn's changes so far after every answer (the files are rewritten). */
    readonly onAnswer?: (changes: readonly Change[]) => Promise<void>;
  } = {},
): Promise<TurnOutcome> {
  const answers = new Map<number, Answer>();
  const forms = new Map<number, readonly Change[]>();
  const skipped = new Set<string>();
  const build = () => buildTurn(questions, answers, forms, skipped);
  let pending = questions.map((_, index) => index);
  prompter.menu = true;
  const record = (index: number, question: Question, answer: Answer | undefined): void => {
    if (answer === undefined) answers.delete(index);
    else answers.set(index, answer);
    for (const id of answerSkips(question, answer)) skipped.add(id);
    // "I don't know" a rate: the business figures are the next turn's questions
    if (answer?.kind === "unknown")
      for (const other of questions) if (other.group?.id === question.group?.id) skipped.add(other.id);
  };
  const answered = async (): Promise<void> => {
    if (options.onAnswer !== undefined) await options.onAnswer(build().changes);
  };
  try {
    // every question has an answer most applications give: one prompt takes them all
    if (await acceptSuggestions(prompter, questions)) {
      questions.forEach((question, index) => record(index, question, question.suggested?.answer));
      pending = [];
    }
    for (;;) {
      let group: string | undefined;
      for (let at = 0; at < pending.length; at += 1) {
        const index = pending[at] as number;
        const question = questions[index];
        if (question === undefined || skipped.has(question.id)) continue;
        if (question.group !== undefined && question.group.id !== group)
          prompter.print(`\n${question.group.text}`);
        group = question.group?.id;
        // the number questions that follow in the same group: one line for all of them
        const run = numberRun(questions, pending, at, skipped);
        if (run.length > 1) {
          const typed = await askNumberLine(
            prompter,
            run.map((i) => questions[i] as Question),
          );
          run.forEach((i, k) => record(i, questions[i] as Question, typed[k]));
          at += run.length - 1;
          await answered();
          continue;
        }
        const asked = await askQuestion(prompter, question, state.workload);
        forms.set(index, asked.formChanges);
        record(index, question, asked.answer);
        await answered();
      }
      const built = build();
      const again = new Set(built.problems.map((problem) => problem.question));
      // one line per distinct message (a list's items may share one)
      for (const message of new Set(built.problems.map((problem) => problem.message)))
        prompter.print(`  ${message}`);
      if (again.size === 0) {
        const applied = applyChanges(state, built.changes);
        if (applied.ok) return { kind: "answered", changes: built.changes };
        for (const issue of applied.issues) {
          const change = typeof issue.path[1] === "number" ? issue.path[1] : -1;
          // the answers the refused change came from; only the wrong field's when it is known
          const all = built.sources[change] ?? [];
          const field = issue.code === "session.changeRejected" ? issue.field : undefined;
          const named = all.filter((index) => {
            const fills = questions[index]?.fills?.field;
            return field !== undefined && (fills === field || fills?.endsWith(`.${field}`) === true);
          });
          const sources = named.length > 0 ? named : all;
          prompter.print(`  ${formatIssue(issue)}${sources.length > 0 ? ": asked again" : ": left out"}`);
          for (const source of sources) again.add(source);
          if (sources.length === 0)
            for (const [form, changes] of forms)
              if (changes.includes(built.changes[change] as Change)) forms.delete(form);
        }
        if (again.size === 0) {
          pending = [];
          continue;
        }
      }
      for (const index of again) answers.delete(index);
      pending = [...again].sort((a, b) => a - b);
    }
  } catch (error) {
    if (error instanceof MenuRequested) return { kind: "menu", partial: build().changes };
    if (error instanceof EditRequested)
      return { kind: "edit", partial: build().changes, change: error.change };
    if (isInterruption(error)) return { kind: "interrupted", partial: build().changes };
    throw error;
  } finally {
    prompter.menu = false;
  }
}

/**
 * The indexes, from `pending[at]` on, of consecutive number questions of one group (none skipped):
 * asked on one line when there are several.
 */
function numberRun(
  questions: readonly Question[],
  pending: readonly number[],
  at: number,
  skipped: ReadonlySet<string>,
): readonly number[] {
  const first = questions[pending[at] ?? -1];
  if (first?.answer.kind !== "number" || first.group === undefined) return [];
  const run: number[] = [];
  for (let k = at; k < pending.length; k += 1) {
    const index = pending[k] as number;
    const question = questions[index];
    if (question === undefined || skipped.has(question.id)) break;
    if (question.answer.kind !== "number" || question.group?.id !== first.group.id) break;
    // a number that decides whether the next questions apply is asked alone
    if (run.length > 0 && questions[run.at(-1) as number]?.skipsWhen !== undefined) break;
    run.push(index);
  }
  return run;
}

/**
 * When every question of the turn (two or more) has a suggested answer: one yes/no prompt that
 * takes them all ("session consistency, 1 region, a 12-month horizon, one write region").
 */
async function acceptSuggestions(prompter: Prompter, questions: readonly Question[]): Promise<boolean> {
  if (questions.length < 2 || questions.some((question) => question.suggested === undefined)) return false;
  const groups = [
    ...new Set(questions.map((question) => question.group?.text).filter((t) => t !== undefined)),
  ];
  if (groups.length > 0) prompter.print(`\n${groups.join("\n")}`);
  else for (const question of questions) prompter.print(`\n${question.text}`);
  for (const question of questions) if (question.impact !== undefined) prompter.print(`  ${question.impact}`);
  const labels = questions.map((question) => question.suggested?.label ?? "");
  return prompter.yes(`Keep ${labels.join(", ")}? (n to answer each)`, true);
}

/**
 * The changes of the answers given so far: the answers' own changes (each with the questions it
 * came from, by index) then the forms'; and the answers that cannot become changes, with why.
 */
function buildTurn(
  questions: readonly Question[],
  answers: ReadonlyMap<number, Answer>,
  forms: ReadonlyMap<number, readonly Change[]>,
  skipped: ReadonlySet<string>,
): {
  changes: readonly Change[];
  sources: readonly (readonly number[])[];
  problems: readonly { question: number; message: string }[];
} {
  const indexes = [...answers.keys()]
    .sort((a, b) => a - b)
    .filter((index) => !skipped.has(questions[index]?.id ?? ""));
  const answered = indexes.map((index) => ({
    question: questions[index] as Question,
    answer: answers.get(index) as Answer,
  }));
  const result = answeredChanges(answered);
  const formChanges = [...forms.entries()].sort(([a], [b]) => a - b).flatMap(([, changes]) => changes);
  return {
    changes: [...result.changes.map((c) => c.change), ...formChanges],
    sources: [
      ...result.changes.map((c) => c.answers.map((k) => indexes[k] ?? -1)),
      ...formChanges.map(() => []),
    ],
    problems: result.issues.map((issue) => ({
      question: indexes[typeof issue.path[1] === "number" ? issue.path[1] : -1] ?? -1,
      message: `${issue.message}: asked again`,
    })),
  };
}

/**
 * Applies as many of `changes` as the session accepts (for the answers of an interrupted turn):
 * the refused ones are left out, the others kept.
 */
export function applyWhatCan(
  state: SessionState,
  changes: readonly Change[],
): ReturnType<typeof applyChanges> {
  let remaining = [...changes];
  for (;;) {
    const applied = applyChanges(state, remaining);
    if (applied.ok || remaining.length === 0) return applied;
    const refused = new Set(applied.issues.map((issue) => issue.path[1]));
    const kept = remaining.filter((_, index) => !refused.has(index));
    if (kept.length === remaining.length) return applied;
    remaining = kept;
    if (remaining.length === 0) return applied;
  }
}
