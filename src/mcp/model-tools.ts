/**
 * MCP tools over models: evaluate a model against the workload (how each access pattern
 * executes, its RU and RU/s, partitions, hot partitions and monthly cost). The numbers come from
 * the same planner and cost model as `cosmos-modeler evaluate`.
 */
import { resolve } from "node:path";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { formatEvaluationReport } from "../cli/evaluation-report.js";
import { readInputFile } from "../cli/io.js";
import { readWorkloadAndModel } from "../cli/load-inputs.js";
import { resolvePrices } from "../cli/prices-option.js";
import { evaluateModel } from "../cost/evaluate.js";
import { formatIssue, hasErrors } from "../issues.js";
import { loadModel } from "../model/load-model.js";
import { WORKLOAD_FILE } from "../session-store/session-files.js";
import { failure, issueSchema, success } from "./results.js";
import { sessionWorkload } from "./file-tools.js";

const rate = z.object({ avg: z.number(), peak: z.number() });

export const evaluateModelInput = {
  model: z.string().min(1).describe("model file (model format), relative to the session folder"),
  workload: z
    .string()
    .min(1)
    .optional()
    .describe(
      "workload file relative to the session folder; default: the session's workload (it must be complete)",
    ),
  prices: z.string().min(1).optional().describe("price file overriding the built-in dated price table"),
};

export const evaluateModelOutput = {
  patterns: z.array(
    z.looseObject({
      id: z.string(),
      fanOut: z.boolean(),
      ru: z.looseObject({ estimate: z.number(), low: z.number(), high: z.number(), async: z.number() }),
      rus: rate,
      plan: z.looseObject({ kind: z.string() }),
    }),
  ),
  containers: z.array(
    z.looseObject({
      name: z.string(),
      physicalPartitions: z.number(),
      storageGB: z.number(),
      rus: rate,
      monthlyCostUSD: z.number(),
    }),
  ),
  totals: z.object({ rus: rate, monthlyCostUSD: z.number() }),
  issues: z.array(issueSchema),
};

/** `evaluate-model`: the evaluation of a model file against the session's (or a named) workload. */
export async function evaluateModelTool(
  dir: string,
  args: { model: string; workload?: string | undefined; prices?: string | undefined },
): Promise<CallToolResult> {
  const prices = await resolvePrices(args.prices === undefined ? undefined : resolve(dir, args.prices));
  let inputs;
  if (args.workload !== undefined) {
    inputs = await readWorkloadAndModel(resolve(dir, args.workload), resolve(dir, args.model));
  } else {
    const workload = await sessionWorkload(dir);
    if (workload === undefined) {
      return failure(
        `The session's ${WORKLOAD_FILE} is not complete yet, so there is nothing to evaluate against: answer get-next-questions first, or pass a workload file.`,
      );
    }
    const model = loadModel(await readInputFile(resolve(dir, args.model)), { file: args.model, workload });
    inputs =
      model.ok && !hasErrors(model.issues)
        ? { ok: true as const, value: { workload, model: model.value }, issues: model.issues }
        : { ok: false as const, issues: model.issues };
  }
  if (!inputs.ok) {
    return failure(`The inputs have errors:\n${inputs.issues.map(formatIssue).join("\n")}`, {
      issues: inputs.issues,
    });
  }
  const { workload, model } = inputs.value;
  const evaluation = evaluateModel(workload, model, { prices });
  const data = JSON.parse(
    JSON.stringify({
      patterns: evaluation.patterns,
      containers: evaluation.containers,
      totals: evaluation.totals,
      issues: [...inputs.issues, ...evaluation.issues],
    }),
  ) as Record<string, unknown>;
  return success(formatEvaluationReport(workload, evaluation, prices), data);
}
