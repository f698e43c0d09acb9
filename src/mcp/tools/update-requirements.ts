/**
 * `update-requirements`: applies the structured changes of the user's answers to the session (all
 * or none), rewrites workload.yaml and cosmosdb_requirements.md, and returns the four-part turn
 * summary with the next questions. Each call reads the session from disk and writes it back
 * atomically, so the terminal interview and an assistant can take turns on the same folder.
 */
import { z } from "zod";
import { formatPath, issueToJson, type Issue } from "../../common/issues.js";
import { applyChanges } from "../../session/apply-changes.js";
import { changesSchema } from "../../session/changes.js";
import { formatTurnSummary, summarizeTurn } from "../../session/summarize-turn.js";
import { openSession, saveSession } from "../../session-store/session-files.js";
import { failure, issueSchema, success } from "../support/results.js";
import { sessionStatus, sessionStatusShape } from "../support/session-status.js";
import { defineTool } from "../support/tool-definition.js";

function formatProblem(issue: Issue): string {
  return `- ${formatPath(issue.path)}: ${issue.message}${issue.suggestion === undefined ? "" : ` (${issue.suggestion})`}`;
}

export const updateRequirementsTool = defineTool({
  name: "update-requirements",
  title: "Update the requirements",
  description:
    "Applies structured changes from the user's answers (entities, attributes, relationships, access patterns, rates, scale, estimates, confirmations) to the session, all or none; rewrites workload.yaml and cosmosdb_requirements.md; returns the four-part turn summary, warnings and the next questions.",
  inputSchema: {
    changes: changesSchema.describe("structured changes, applied together or not at all"),
  },
  outputSchema: {
    ...sessionStatusShape,
    learned: z.array(z.string()),
    filesUpdated: z.array(z.string()),
    nextSteps: z.array(z.string()),
    warnings: z.array(issueSchema),
    summary: z
      .string()
      .describe("the four-part turn summary: what I learned, files updated, next steps, questions"),
  },
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: false,
  },
  async run({ dir }, args) {
    const opened = await openSession(dir);
    const applied = applyChanges(opened.state, args.changes);
    if (!applied.ok) {
      return failure(
        `Nothing was applied: ${applied.issues.length} problem(s).\n${applied.issues.map(formatProblem).join("\n")}`,
        { applied: false, issues: applied.issues.map(issueToJson) },
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
      ...sessionStatus(dir, state, saved.readiness, [...opened.notices, ...saved.notices]),
      learned: [...summary.learned],
      filesUpdated: [...summary.filesUpdated],
      nextSteps: [...summary.nextSteps],
      warnings: applied.value.warnings.map(issueToJson),
      summary: text,
    });
  },
});
