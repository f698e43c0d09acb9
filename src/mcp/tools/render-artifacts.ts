/**
 * `render-artifacts`: a model's container definitions, Bicep, Terraform, Azure CLI script and
 * diagram, written into a folder inside the session folder (never over a file edited by hand
 * unless forced, never through a link that leads out of the session folder).
 */
import { z } from "zod";
import { formatIssue, issueToJson } from "../../common/issues.js";
import { MODEL_INPUT, readInputFile } from "../../files/io.js";
import { handEditedMessage, HandEditedError, writeOutputs } from "../../files/write-outputs.js";
import { loadModel } from "../../model/load-model.js";
import { expiringItemsOf } from "../../deliverables/render-deliverables.js";
import { renderModelArtifacts } from "../../render/artifacts.js";
import { failure, issueSchema, success } from "../support/results.js";
import { sessionWorkload } from "../support/session-workload.js";
import { defineTool, sessionPath } from "../support/tool-definition.js";

export const renderArtifactsTool = defineTool({
  name: "render-artifacts",
  title: "Render deployable artifacts",
  description:
    "Writes a model's container definitions (JSON), Bicep, Terraform, Azure CLI script and Mermaid diagram into a folder inside the session folder.",
  inputSchema: {
    model: sessionPath("model file (model format), e.g. model.yaml"),
    outDir: sessionPath("folder for the artifacts").default("artifacts"),
    force: z
      .boolean()
      .default(false)
      .describe("overwrite artifacts the user edited by hand since they were written"),
  },
  outputSchema: {
    outDir: z.string(),
    files: z.array(z.string()).describe("files written, relative to outDir"),
    unchanged: z.array(z.string()).describe("files that already had this content"),
    warnings: z.array(issueSchema),
  },
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  paths: { model: "read", outDir: "write" },
  async run({ dir, display }, args) {
    const shown = display(args.model);
    const text = await readInputFile(args.model, MODEL_INPUT);
    const workload = await sessionWorkload(dir);
    const model = loadModel(text, { file: shown, ...(workload === undefined ? {} : { workload }) });
    if (!model.ok) {
      return failure(`${shown} is not a valid model:\n${model.issues.map(formatIssue).join("\n")}`, {
        issues: model.issues.map(issueToJson),
      });
    }
    const files = renderModelArtifacts(
      model.value,
      workload === undefined
        ? {}
        : { scale: workload.scale, expiringItems: expiringItemsOf(workload, model.value) },
    );
    let report;
    try {
      report = await writeOutputs(args.outDir, files, args.force, { confine: true });
    } catch (error) {
      if (!(error instanceof HandEditedError)) throw error;
      return failure(
        `${handEditedMessage(error.dir, error.files, "call render-artifacts with force: true")} Ask the user before overwriting.`,
        { files: error.files },
      );
    }
    const names = [...report.written, ...report.unchanged];
    return success(
      `Wrote ${report.written.length} files in ${display(args.outDir)}:\n${names.map((n) => `- ${n}`).join("\n")}`,
      {
        outDir: display(args.outDir),
        files: [...report.written],
        unchanged: [...report.unchanged],
        warnings: model.issues.filter((issue) => issue.severity !== "error").map(issueToJson),
      },
    );
  },
});
