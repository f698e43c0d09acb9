/**
 * The four-part answer of every turn, as the expert prompt structures it: what I learned, files
 * updated, next steps, questions (at most three, related).
 */
import type { Readiness } from "./checklist.js";
import { nextQuestions } from "./next-questions.js";
import { groupQuestions, type Question } from "./questions.js";
import type { SessionState } from "./state.js";

export interface TurnSummary {
  readonly learned: readonly string[];
  readonly filesUpdated: readonly string[];
  readonly nextSteps: readonly string[];
  readonly questions: readonly Question[];
}

/** Builds the turn summary after changes were applied and the files written. */
export function summarizeTurn(input: {
  readonly state: SessionState;
  readonly readiness: Readiness;
  readonly learned: readonly string[];
  readonly filesUpdated: readonly string[];
}): TurnSummary {
  const questions = nextQuestions(input.state);
  const open = input.readiness.session.filter((item) => !item.done);
  const nextSteps: string[] = [];
  if (questions.length > 0) nextSteps.push(`Ask about ${topicLabel(questions[0]?.topic ?? "")}.`);
  for (const item of open.slice(0, 3)) nextSteps.push(`${item.label} (${item.why}).`);
  if (input.readiness.ready) {
    nextSteps.push(
      "Everything is captured and confirmed: design the model and write cosmosdb_data_model.md.",
    );
  } else if (questions.length === 0) {
    nextSteps.push(...input.readiness.reasons.slice(0, 3).map((reason) => `Resolve: ${reason}.`));
  }
  return { learned: input.learned, filesUpdated: input.filesUpdated, nextSteps, questions };
}

/** The summary as text: four numbered parts. */
export function formatTurnSummary(summary: TurnSummary): string {
  const list = (items: readonly string[], empty: string): string =>
    items.length === 0
      ? `   - ${empty}`
      : items.map((item) => `   - ${item.replace(/\n/g, "\n     ")}`).join("\n");
  return [
    "1. What I learned:",
    list(summary.learned, "nothing new this turn"),
    "2. Files updated:",
    list(summary.filesUpdated, "none"),
    "3. Next steps:",
    list(summary.nextSteps, "none"),
    "4. Questions:",
    list(
      groupQuestions(summary.questions).map(({ group, questions }) =>
        group === undefined
          ? (questions[0]?.text ?? "")
          : [group.text, ...questions.map((question) => `  - ${question.text}`)].join("\n"),
      ),
      "none: the requirements are complete",
    ),
  ].join("\n");
}

function topicLabel(topic: string): string {
  const labels: Record<string, string> = {
    "massive-scale": "the massive-scale questions (binning, writer buffering, acceptable staleness)",
    "design-details": "result sizes, latency, sparse attributes and atomic writes",
    search: "the search reads' results (k) and recall",
    application: "the application and its domain",
    entities: "the entities",
    "access-patterns": "the access patterns",
    rates: "request rates",
    "read-write-pairs": "reads without writes (or writes without reads)",
    attributes: "attribute types",
    sizes: "item counts and sizes",
    relationships: "relationships and their bounds",
    cardinality: "the number of distinct values of filtered attributes",
    distribution: "consistency, regions, the planning horizon and multi-region writes",
    confirmation: "whether every access pattern is captured",
  };
  return labels[topic] ?? topic;
}
