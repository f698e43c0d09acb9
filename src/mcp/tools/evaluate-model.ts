/**
 * `evaluate-model`: how each access pattern executes on a model, its RU and RU/s, partitions, hot
 * partitions and monthly cost, from the same planner and cost model as `cosmos-modeler evaluate`.
 */
import { formatIssue, hasErrors, issueToJson } from "../../common/issues.js";
import { evaluateModel } from "../../cost/evaluate.js";
import { MODEL_INPUT, readInputFile } from "../../files/io.js";
import { resolvePrices } from "../../files/read-prices.js";
import { loadModel } from "../../model/load-model.js";
import { formatEvaluationReport } from "../../render/evaluation-report.js";
import { failure, success } from "../support/results.js";
import { workloadFor } from "../support/session-workload.js";
import { defineTool, READ_ONLY, sessionPath } from "../support/tool-definition.js";
import { evaluationShape } from "./evaluation-schema.js";

export const evaluateModelTool = defineTool({
  name: "evaluate-model",
  title: "Evaluate a model",
  description:
    "How each access pattern executes on a model (point read, single-partition or fan-out query, writes and change feed), its RU with range and RU/s at average and peak, and per container the physical partitions, storage, hottest partitions, throughput and monthly cost.",
  inputSchema: {
    model: sessionPath("model file (model format)"),
    workload: sessionPath("workload file; default: the session's workload (it must be complete)").optional(),
    prices: sessionPath("price file overriding the built-in dated price table").optional(),
  },
  outputSchema: evaluationShape,
  annotations: READ_ONLY,
  paths: { model: "read", workload: "read", prices: "read" },
  worker: true,
  async run({ dir, display, progress }, args) {
    const prices = await resolvePrices(args.prices);
    const workload = await workloadFor(
      dir,
      args.workload,
      args.workload === undefined ? undefined : display(args.workload),
      "evaluate against",
    );
    if ("content" in workload) return workload;
    const shown = display(args.model);
    const model = loadModel(await readInputFile(args.model, MODEL_INPUT), { file: shown, workload });
    if (!model.ok || hasErrors(model.issues)) {
      return failure(`The inputs have errors:\n${model.issues.map(formatIssue).join("\n")}`, {
        issues: model.issues.map(issueToJson),
      });
    }
    progress(0, 1, "evaluating");
    const evaluation = evaluateModel(workload, model.value, { prices });
    const data = JSON.parse(
      JSON.stringify({
        patterns: evaluation.patterns,
        containers: evaluation.containers,
        totals: evaluation.totals,
        issues: [...model.issues, ...evaluation.issues].map(issueToJson),
      }),
    ) as Record<string, unknown>;
    return success(formatEvaluationReport(workload, evaluation, prices), data);
  },
});
