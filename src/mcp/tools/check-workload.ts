/**
 * `check-workload`: validates a workload file in the session folder, inline text, or the
 * session's own workload.yaml: every error and warning with file, line and field path.
 */
import { join } from "node:path";
import { z } from "zod";
import { formatIssue, issueToJson } from "../../common/issues.js";
import { MAX_INPUT_BYTES, readInputFile, WORKLOAD_INPUT } from "../../files/io.js";
import { WORKLOAD_FILE } from "../../session-store/session-files.js";
import { checkWorkloadText, summarize } from "../../workload/check-report.js";
import { failure, issueSchema, success } from "../support/results.js";
import { defineTool, READ_ONLY, sessionPath } from "../support/tool-definition.js";

const inputSchema = {
  path: sessionPath("workload file; default: the session's workload.yaml").optional(),
  text: z
    .string()
    .min(1)
    .max(MAX_INPUT_BYTES)
    .optional()
    .describe("workload YAML or JSON given inline instead of a file (at most 10 MB)"),
};

const outputSchema = {
  ok: z.boolean().describe("true when the workload loads (warnings allowed)"),
  file: z.string(),
  summary: z.object({
    entities: z.number(),
    relationships: z.number(),
    accessPatterns: z.number(),
    errors: z.number(),
    warnings: z.number(),
  }),
  issues: z.array(issueSchema),
};

export const checkWorkloadTool = defineTool({
  name: "check-workload",
  title: "Check a workload",
  description:
    "Validates a workload file (format: resource cosmos-modeler://docs/workload-format.md): every error and warning with file, line and field path. Default: the session's workload.yaml.",
  inputSchema,
  outputSchema,
  annotations: READ_ONLY,
  paths: { path: "read" },
  async run({ dir, display }, args) {
    if (args.path !== undefined && args.text !== undefined)
      return failure("Give either path or text, not both.");
    const file =
      args.text !== undefined ? "(inline)" : args.path === undefined ? WORKLOAD_FILE : display(args.path);
    let text: string;
    try {
      text = args.text ?? (await readInputFile(args.path ?? join(dir, WORKLOAD_FILE), WORKLOAD_INPUT));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return failure(
        args.path === undefined && args.text === undefined
          ? `The session has no ${WORKLOAD_FILE} yet (${message}): answer get-next-questions first, or pass path or text.`
          : message,
      );
    }
    const report = checkWorkloadText(text, file);
    const lines = [summarize(report), ...report.issues.map(formatIssue)];
    return success(lines.join("\n"), { ...report, issues: report.issues.map(issueToJson) });
  },
});
