/**
 * `cosmos-modeler interview [--dir DIR]`: the guided session in a terminal. Each turn shows the
 * engine's next questions (at most three, related), applies the answers as structured changes,
 * rewrites `workload.yaml` and `cosmosdb_requirements.md` atomically, and prints the four-part
 * summary. Interrupting loses nothing: the next start resumes the session. The data model is
 * written only after the user confirms and the checklist is complete.
 */
import { resolve } from "node:path";
import { formatIssue } from "../../common/issues.js";
import { applyChanges } from "../../session/apply-changes.js";
import type { Change } from "../../session/changes.js";
import type { Readiness } from "../../session/checklist.js";
import type { DraftWorkload } from "../../session/draft.js";
import { formatNumber } from "../../session/estimate-rate.js";
import { nextQuestions } from "../../session/next-questions.js";
import { answersToChanges, type Answer, type Question } from "../../session/questions.js";
import type { SessionState } from "../../session/state.js";
import { formatTurnSummary, summarizeTurn } from "../../session/summarize-turn.js";
import { writeDataModel } from "../../session-store/deliverables.js";
import { openSession, saveSession, SessionFileChangedError } from "../../session-store/session-files.js";
import { HandEditedError } from "../../files/write-outputs.js";
import type { CommandRegistration } from "../support/command.js";
import { EXIT_OK } from "../support/output.js";
import { askQuestion } from "./interview-forms.js";
import { Prompter, type PromptContext } from "./interview-prompter.js";
import { runEditMenu } from "./interview-edits.js";

export const register: CommandRegistration = (program) => {
  program
    .command("interview")
    .description(
      "guided session: capture the workload, write cosmosdb_requirements.md after every answer, then the data model",
    )
    .option(
      "--dir <dir>",
      "folder of the session (workload.yaml, cosmosdb_requirements.md, .cosmos-modeler/)",
      ".",
    )
    .action(async (options: { dir: string }) => {
      process.exitCode = await runInterview({ dir: resolve(options.dir) });
    });
};

type MenuChoice = "answer" | "edit" | "summary" | "design" | "quit";

/** Runs the interview until the user quits, the data model is written, or the input ends. */
export async function runInterview(options: { dir: string; context?: PromptContext }): Promise<number> {
  const prompter = new Prompter(options.context);
  const opened = await openSession(options.dir);
  let state = opened.state;
  for (const notice of opened.notices) prompter.print(`Note: ${notice}`);
  let saved = await saveSession(options.dir, state, opened.baseline);
  prompter.print(
    opened.resumed
      ? `Resuming the session in ${options.dir} (${state.turn} answers so far).`
      : `New modeling session in ${options.dir}. Answers are saved after each turn; press Ctrl+C at any time and run again to resume.`,
  );
  prompter.print(renderSummaryTable(state.workload, saved.readiness));
  // The questions are listed unless the turn summary just listed them.
  let listQuestions = true;
  try {
    for (;;) {
      const questions = nextQuestions(state);
      if (listQuestions) {
        prompter.print(
          questions.length === 0
            ? "\nNo open questions."
            : `\nQuestions:\n${questions.map((q) => `  - ${q.text.replace(/\n/g, "\n    ")}`).join("\n")}`,
        );
      }
      listQuestions = true;
      const choice = await prompter.choose<MenuChoice>(
        "What next?",
        [
          ...(questions.length > 0
            ? [
                {
                  value: "answer" as const,
                  name: `Answer ${questions.length === 1 ? "the next question" : `the next ${questions.length} questions`}`,
                },
              ]
            : []),
          { value: "edit", name: "Add, edit or remove entities, relationships, access patterns or scale" },
          { value: "summary", name: "Show the summary table" },
          { value: "design", name: "Design the model and write cosmosdb_data_model.md" },
          { value: "quit", name: "Quit (the session is saved; run again to resume)" },
        ],
        questions.length > 0 ? "answer" : "design",
      );
      if (choice === "quit") break;
      if (choice === "summary") {
        prompter.print(renderSummaryTable(state.workload, saved.readiness));
        continue;
      }
      if (choice === "design") {
        const done = await designStep(prompter, options.dir, state);
        if (done) break;
        continue;
      }
      const changes =
        choice === "answer"
          ? await answerTurn(prompter, questions, state.workload)
          : await runEditMenu(prompter, state.workload);
      if (changes === undefined || changes.length === 0) continue;
      const applied = applyChanges(state, changes);
      if (!applied.ok) {
        prompter.print("Those answers could not be applied (nothing was changed):");
        for (const issue of applied.issues) prompter.print(`  ${formatIssue(issue)}`);
        continue;
      }
      try {
        saved = await saveSession(options.dir, applied.value.state, saved.baseline);
      } catch (error) {
        if (!(error instanceof SessionFileChangedError)) throw error;
        prompter.print(error.message);
        const reopened = await openSession(options.dir);
        for (const notice of reopened.notices) prompter.print(`Note: ${notice}`);
        state = reopened.state;
        saved = await saveSession(options.dir, state, reopened.baseline);
        prompter.print(renderSummaryTable(state.workload, saved.readiness));
        continue;
      }
      state = applied.value.state;
      for (const notice of saved.notices) prompter.print(`Note: ${notice}`);
      for (const warning of applied.value.warnings) prompter.print(`  ${formatIssue(warning)}`);
      const summary = summarizeTurn({
        state,
        readiness: saved.readiness,
        learned: applied.value.learned,
        filesUpdated: saved.filesUpdated,
      });
      prompter.print(`\n${formatTurnSummary(summary)}`);
      listQuestions = false;
    }
  } catch (error) {
    if (error instanceof Error && (error.name === "ExitPromptError" || error.name === "AbortPromptError")) {
      prompter.print(
        `\nInterrupted. Every answer so far is saved in ${options.dir}; run the interview again to resume.`,
      );
      return EXIT_OK;
    }
    throw error;
  }
  prompter.print(`Session saved in ${options.dir}.`);
  return EXIT_OK;
}

/** Asks the turn's questions; returns the changes, or undefined when nothing was answered. */
async function answerTurn(
  prompter: Prompter,
  questions: readonly Question[],
  workload: DraftWorkload,
): Promise<readonly Change[] | undefined> {
  const answered: { question: Question; answer: Answer }[] = [];
  const formChanges: Change[] = [];
  for (const question of questions) {
    const asked = await askQuestion(prompter, question, workload);
    formChanges.push(...asked.formChanges);
    if (asked.answer === undefined) continue;
    answered.push({ question, answer: asked.answer });
    // "I don't know" for a rate: the figures to estimate it are the next turn's questions.
    if (asked.answer.kind === "unknown") break;
  }
  const changes = answersToChanges(answered);
  if (!changes.ok) {
    for (const issue of changes.issues) prompter.print(`  ${formatIssue(issue)}`);
    return undefined;
  }
  return [...changes.value, ...formChanges];
}

/** Writes the design when everything is confirmed; otherwise says why not. True when written. */
async function designStep(prompter: Prompter, dir: string, state: SessionState): Promise<boolean> {
  const outcome = await writeDataModel(dir, state, { dryRun: true });
  if (!outcome.ok) {
    prompter.print("The data model cannot be written yet:");
    for (const reason of outcome.reasons) prompter.print(`  - ${reason}`);
    return false;
  }
  if (
    !(await prompter.yes(
      "Everything is captured and confirmed. Design the model and write cosmosdb_data_model.md and its artifacts now?",
      true,
    ))
  ) {
    return false;
  }
  let written;
  try {
    written = await writeDataModel(dir, state);
  } catch (error) {
    if (!(error instanceof HandEditedError)) throw error;
    prompter.print(error.message);
    if (!(await prompter.yes("Overwrite those files?", false))) return false;
    written = await writeDataModel(dir, state, { force: true });
  }
  if (!written.ok) {
    for (const reason of written.reasons) prompter.print(`  - ${reason}`);
    return false;
  }
  for (const line of written.highlights) prompter.print(line);
  const files = [...written.files, ...written.unchanged.map((file) => `${file} (unchanged)`)];
  prompter.print(`Written in ${dir}:\n${files.map((file) => `  - ${file}`).join("\n")}`);
  return true;
}

/** The running summary: entities, relationships, access patterns and checklist progress. */
export function renderSummaryTable(workload: DraftWorkload, readiness: Readiness): string {
  const value = (n: number | undefined, suffix = ""): string =>
    n === undefined ? "?" : `${formatNumber(n)}${suffix}`;
  const lines: string[] = [
    `\n${workload.name ?? "(unnamed application)"}${workload.domain === undefined ? "" : ` - ${workload.domain}`}`,
  ];
  lines.push(
    textTable(
      ["Entity", "Key", "Items", "Avg bytes", "Growth/month"],
      workload.entities.map((e) => [
        e.name,
        e.key ?? "?",
        value(e.count),
        value(e.avgBytes),
        value(e.growthPerMonth),
      ]),
    ),
  );
  if (workload.relationships.length > 0) {
    lines.push(
      textTable(
        ["Parent", "Child", "Via", "Avg", "Max", "Owned"],
        workload.relationships.map((r) => [
          r.parent,
          r.child,
          r.via ?? "-",
          value(r.avg),
          r.max === null ? "unbounded" : value(r.max),
          r.owned === undefined ? "?" : r.owned ? "yes" : "no",
        ]),
      ),
    );
  }
  lines.push(
    textTable(
      ["Pattern", "Type", "Entity", "Description", "Avg/s", "Peak/s"],
      workload.accessPatterns.map((p) => [
        p.id,
        p.type,
        p.entity,
        p.name,
        value(p.rps?.avg),
        value(p.rps?.peak),
      ]),
    ),
  );
  const done = readiness.session.filter((item) => item.done).length;
  lines.push(
    `Checklist: ${done}/${readiness.session.length} done${readiness.ready ? " - ready to design" : ""}`,
  );
  return lines.join("\n");
}

function textTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  if (rows.length === 0) return `(no ${headers[0] === "Entity" ? "entities" : "access patterns"} yet)`;
  const clip = (text: string): string =>
    (text.length > 48 ? `${text.slice(0, 47)}…` : text).replace(/[\r\n\t]/g, " ");
  const widths = headers.map((header, i) =>
    Math.max(header.length, ...rows.map((row) => clip(row[i] ?? "").length)),
  );
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, i) => clip(cell).padEnd(widths[i] ?? 0))
      .join("  ")
      .trimEnd();
  return [line(headers), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}
