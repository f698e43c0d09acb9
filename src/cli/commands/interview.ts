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
import type { SessionState } from "../../session/state.js";
import { formatTurnSummary, summarizeTurn } from "../../session/summarize-turn.js";
import { writeDataModel } from "../../session-store/deliverables.js";
import { openSession, saveSession, SessionFileChangedError } from "../../session-store/session-files.js";
import { HandEditedError } from "../../files/write-outputs.js";
import type { CommandRegistration } from "../support/command.js";
import { EXIT_OK } from "../support/output.js";
import { MENU_WORD, Prompter, SET_WORD, type PromptContext } from "./interview-prompter.js";
import { answerTurn, applyWhatCan, isInterruption } from "./interview-turn.js";
import { runEditMenu } from "./interview-edits.js";
import { EDIT_LINE_EXAMPLE, editLineExample, parseEditLine } from "./interview-lines.js";

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
      // Ctrl+C outside a prompt (while the design runs): files are written atomically, stop at once
      const onInterrupt = (): void => {
        process.stdout.write(
          "\nInterrupted. Every answer so far is saved; run the interview again to resume.\n",
        );
        process.exit(EXIT_INTERRUPTED);
      };
      process.on("SIGINT", onInterrupt);
      try {
        process.exitCode = await runInterview({ dir: resolve(options.dir) });
      } finally {
        process.off("SIGINT", onInterrupt);
      }
    });
};

type MenuChoice = "answer" | "set" | "edit" | "summary" | "design" | "quit";

/** Exit status after Ctrl+C (128 + SIGINT), as shells report an interrupted command. */
export const EXIT_INTERRUPTED = 130;

/** Runs the interview until the user quits, the data model is written, or the input ends. */
export async function runInterview(options: { dir: string; context?: PromptContext }): Promise<number> {
  const prompter = new Prompter(options.context);
  const opened = await openSession(options.dir);
  let state = opened.state;
  for (const notice of opened.notices) prompter.print(`Note: ${notice}`);
  let saved = await saveSession(options.dir, state, opened.baseline);
  prompter.print(
    `${
      opened.resumed
        ? `Resuming the session in ${options.dir} (${state.turn} answers so far).`
        : `New modeling session in ${options.dir}.`
    } Answers are saved as you give them. Type ${MENU_WORD} at a question (or choose the menu) to edit, see the summary, design or quit, or ${SET_WORD} and a change to change one value (${SET_WORD} ${EDIT_LINE_EXAMPLE.split(", ")[0] ?? ""}); Ctrl+C saves what you answered and stops.`,
  );
  prompter.print(renderSummaryTable(state.workload, saved.readiness));

  const filesOfTurn = new Set<string>();
  /** Applies changes, saves the files and prints the turn summary; false when nothing could be applied. */
  const commit = async (changes: readonly Change[], partial: boolean): Promise<boolean> => {
    const applied = partial ? applyWhatCan(state, changes) : applyChanges(state, changes);
    if (!applied.ok) {
      prompter.print("Those answers could not be applied (nothing was changed):");
      for (const issue of applied.issues) prompter.print(`  ${formatIssue(issue)}`);
      return false;
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
      return false;
    }
    state = applied.value.state;
    for (const notice of saved.notices) prompter.print(`Note: ${notice}`);
    for (const warning of applied.value.warnings) prompter.print(`  ${formatIssue(warning)}`);
    const summary = summarizeTurn({
      state,
      readiness: saved.readiness,
      learned: applied.value.learned,
      // the files were rewritten after each answer of the turn too
      filesUpdated: [...new Set([...filesOfTurn, ...saved.filesUpdated])],
    });
    filesOfTurn.clear();
    prompter.print(`\n${formatTurnSummary(summary)}`);
    return true;
  };

  const interrupted = (): number => {
    prompter.print(
      `\nInterrupted. Every answer so far is saved in ${options.dir}; run the interview again to resume.`,
    );
    return EXIT_INTERRUPTED;
  };
  /** Rewrites the files with the turn's answers so far (the turn's summary comes at its end). */
  const saveAnswers = async (changes: readonly Change[]): Promise<void> => {
    const applied = applyWhatCan(state, changes);
    if (!applied.ok) return;
    try {
      saved = await saveSession(options.dir, applied.value.state, saved.baseline);
      for (const file of saved.filesUpdated) filesOfTurn.add(file);
    } catch (error) {
      // a file changed by hand: the end of the turn says so and reloads it
      if (!(error instanceof SessionFileChangedError)) throw error;
    }
  };

  try {
    // the turn that completes the requirements goes on to the design without a menu
    let justAnswered = false;
    for (;;) {
      const questions = nextQuestions(state);
      const workloadNow = state.workload;
      prompter.editParser = (text) => parseEditLine(text, workloadNow);
      let choice: MenuChoice = "answer";
      if (questions.length === 0) {
        prompter.print("\nNo open questions.");
        choice = justAnswered ? "design" : await menu(prompter, false);
        justAnswered = false;
      } else {
        const turn = await answerTurn(prompter, questions, state, { onAnswer: saveAnswers });
        if (turn.kind === "answered") {
          justAnswered = await commit(turn.changes, false);
          continue;
        }
        if (turn.partial.length > 0) await commit(turn.partial, true);
        if (turn.kind === "interrupted") return interrupted();
        if (turn.kind === "edit") {
          await commit([turn.change], false);
          continue;
        }
        choice = await menu(prompter, true);
      }
      switch (choice) {
        case "answer":
          continue;
        case "quit":
          prompter.print(`Session saved in ${options.dir}.`);
          return EXIT_OK;
        case "summary":
          prompter.print(renderSummaryTable(state.workload, saved.readiness));
          continue;
        case "design":
          if (await designStep(prompter, options.dir, state)) return EXIT_OK;
          continue;
        case "edit": {
          const changes = await runEditMenu(prompter, state.workload);
          if (changes.length > 0) await commit(changes, false);
          continue;
        }
        case "set": {
          const workloadNow = state.workload;
          const text = await prompter.text(`The change, on one line (e.g. ${editLineExample(workloadNow)})`, {
            validate: (value) => {
              const parsed = parseEditLine(value, workloadNow);
              return parsed.ok ? true : parsed.problems.join("; ");
            },
          });
          const parsed = parseEditLine(text, workloadNow);
          if (parsed.ok) await commit([parsed.value], false);
          continue;
        }
        default:
          choice satisfies never;
      }
    }
  } catch (error) {
    if (isInterruption(error)) return interrupted();
    throw error;
  }
}

/** The menu between turns (only when the user asks for it, or when no question is open). */
async function menu(prompter: Prompter, questionsOpen: boolean): Promise<MenuChoice> {
  prompter.menu = false;
  return prompter.choose<MenuChoice>(
    "What next?",
    [
      ...(questionsOpen ? [{ value: "answer" as const, name: "Back to the questions" }] : []),
      { value: "set", name: `Change one value in one line (e.g. ${EDIT_LINE_EXAMPLE.split(", ")[0] ?? ""})` },
      { value: "edit", name: "Add, edit or remove entities, relationships, access patterns or scale" },
      { value: "summary", name: "Show the summary table" },
      { value: "design", name: "Design the model and write cosmosdb_data_model.md" },
      { value: "quit", name: "Quit (the session is saved; run again to resume)" },
    ],
    questionsOpen ? "answer" : "design",
  );
}

/** Writes the design when everything is confirmed; otherwise says why not. True when written. */
async function designStep(prompter: Prompter, dir: string, state: SessionState): Promise<boolean> {
  const outcome = await writeDataModel(dir, state, { dryRun: true });
  if (!outcome.ok) {
    prompter.print("The data model cannot be written yet:");
    for (const reason of outcome.reasons) prompter.print(`  - ${reason}`);
    return false;
  }
  prompter.print(
    "Everything is captured and confirmed: designing the model and writing cosmosdb_data_model.md and its artifacts.",
  );
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
  const files = [
    ...groupFiles(written.files),
    ...groupFiles(written.unchanged).map((file) => `${file} (unchanged)`),
  ];
  prompter.print(`Written in ${dir}:\n${files.map((file) => `  - ${file}`).join("\n")}`);
  return true;
}

/**
 * Files to list, with the files of a folder that holds more than three said once ("src/runtime/
 * (28 files)").
 */
export function groupFiles(files: readonly string[]): readonly string[] {
  const folderOf = (file: string): string => file.slice(0, file.lastIndexOf("/") + 1);
  const counts = new Map<string, number>();
  for (const file of files) counts.set(folderOf(file), (counts.get(folderOf(file)) ?? 0) + 1);
  const listed: string[] = [];
  for (const file of files) {
    const folder = folderOf(file);
    const count = counts.get(folder) ?? 0;
    if (folder === "" || count <= 3) listed.push(file);
    else if (!listed.includes(`${folder} (${count} files)`)) listed.push(`${folder} (${count} files)`);
  }
  return listed;
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
        e.key?.join(", ") ?? "?",
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
          r.via?.join(", ") ?? "-",
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
