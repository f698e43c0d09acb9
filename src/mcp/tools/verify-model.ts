/**
 * `verify-model`: deploys a model to the embedded Cosmos DB endpoint, loads synthetic data shaped
 * like the workload, runs every access pattern through the generated data-access code (writes with
 * their maintenance) and checks each read's answer against the data, as `cosmos-modeler verify`
 * does. Only the embedded endpoint: an assistant cannot send it to an account.
 */
import { formatIssue, hasErrors, issueToJson } from "../../common/issues.js";
import { confinePath } from "../../files/confine.js";
import { MODEL_INPUT, readInputFile } from "../../files/io.js";
import { loadModel } from "../../model/load-model.js";
import { verifyOnEmbeddedEndpoint } from "../../session-store/deliverables.js";
import { DATA_MODEL_MODEL_FILE } from "../../session-store/session-files.js";
import { failure, success } from "../support/results.js";
import { workloadFor } from "../support/session-workload.js";
import { defineTool, READ_ONLY, sessionPath } from "../support/tool-definition.js";
import { verificationResult, verificationSchema } from "./verification-schema.js";

export const verifyModelTool = defineTool({
  name: "verify-model",
  title: "Verify a model",
  description:
    "Runs a model on the embedded Cosmos DB endpoint: deploys its containers, loads synthetic data shaped like the workload, runs every write pattern with its maintenance and every read pattern through the generated data-access code, and checks each answer against the data; then probes the generated code (counters under concurrent writes, a child changed and removed, paging). Returns each pattern's result (a failure with its first difference) and each probe with its figures. Default: the session's workload and the model.yaml write-data-model wrote. Reports progress; can be cancelled.",
  inputSchema: {
    model: sessionPath(`model file (model format); default: ${DATA_MODEL_MODEL_FILE}`).optional(),
    workload: sessionPath("workload file; default: the session's workload (it must be complete)").optional(),
  },
  outputSchema: { verification: verificationSchema },
  annotations: { ...READ_ONLY, idempotentHint: true },
  paths: { model: "read", workload: "read" },
  worker: true,
  async run({ dir, display, progress }, args) {
    const workload = await workloadFor(
      dir,
      args.workload,
      args.workload === undefined ? undefined : display(args.workload),
      "verify against",
    );
    if ("content" in workload) return workload;
    const shown = args.model === undefined ? DATA_MODEL_MODEL_FILE : display(args.model);
    let text: string;
    if (args.model !== undefined) text = await readInputFile(args.model, MODEL_INPUT);
    else {
      // the session's model.yaml is confined like any path argument (it may be a link)
      const path = await confinePath(dir, DATA_MODEL_MODEL_FILE, "read", "model");
      const read = await readInputFile(path).catch(() => undefined);
      if (read === undefined)
        return failure(
          `There is no ${DATA_MODEL_MODEL_FILE} in the session yet: call write-data-model first, or name a model file.`,
        );
      text = read;
    }
    const model = loadModel(text, { file: shown, workload });
    if (!model.ok || hasErrors(model.issues)) {
      return failure(`The model has errors:\n${model.issues.map(formatIssue).join("\n")}`, {
        issues: model.issues.map(issueToJson),
      });
    }
    const verification = await verifyOnEmbeddedEndpoint(workload, model.value, (done, step) =>
      progress(done, undefined, step),
    );
    const result = verificationResult(verification);
    const lines =
      verification.kind === "notRun"
        ? [`NOT VERIFIED: ${verification.reason}`]
        : [
            result.ok
              ? `Verified ${shown} on the embedded endpoint: ${result.counts?.passed ?? 0} of ${result.patterns?.length ?? 0} access patterns passed, ${verification.report.probeCounts.passed} of ${verification.report.probes.length} probes passed.`
              : `VERIFY FAILED for ${shown}: ${result.failed.length} of ${result.patterns?.length ?? 0} access patterns failed (${result.failed.join(", ")}), ${verification.report.probeCounts.failed} of ${verification.report.probes.length} probes failed.`,
            ...verification.report.patterns.map(
              (p) => `- ${p.patternId} ${p.type} ${p.status}${p.detail === undefined ? "" : `: ${p.detail}`}`,
            ),
            ...(result.probes ?? []).map((p) => `- probe ${p.status}: ${p.title} (${p.detail ?? p.figures})`),
          ];
    return success(lines.join("\n"), { verification: result });
  },
});
