/**
 * `get-next-questions`: the next questions of the interview (one, or at most three on one
 * subject), how to answer each with update-requirements, and the checklist.
 */
import { openSession } from "../../session-store/session-files.js";
import { success } from "../support/results.js";
import {
  formatQuestions,
  readinessOf,
  sessionStatus,
  sessionStatusShape,
} from "../support/session-status.js";
import { defineTool, READ_ONLY } from "../support/tool-definition.js";

export const getNextQuestionsTool = defineTool({
  name: "get-next-questions",
  title: "Get the next interview questions",
  description:
    "The next questions of the modeling interview (one, or at most three on one subject, most important first), how to answer each with update-requirements, and the checklist that gates the data model.",
  inputSchema: {},
  outputSchema: sessionStatusShape,
  annotations: READ_ONLY,
  async run({ dir }) {
    const opened = await openSession(dir, { keepEditedCopies: false });
    const result = sessionStatus(dir, opened.state, readinessOf(opened.state), opened.notices);
    const text =
      result.questions.length === 0
        ? result.ready
          ? "No open questions: every access pattern is captured and confirmed. Call write-data-model."
          : `No open questions, but the data model cannot be written yet: ${result.reasons.join("; ")}`
        : `Questions (ask these, at most three, nothing else this turn; the parts of a question belong together):\n${formatQuestions(result.questions)}`;
    return success(text, result);
  },
});
