/**
 * MCP tools over models: evaluate a model against the workload (how each access pattern
 * executes, its RU and RU/s, partitions, hot partitions and monthly cost). The numbers come from
 * the same planner and cost model as `cosmos-modeler evaluate`.
 */
import { resolve } from "node:path";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { formatDecisions } from "../render/decisions-report.js";
import { formatEvaluationReport } from "../render/evaluation-report.js";
import { readInputFile } from "../files/io.js";
import { readWorkloadAndModel, readWorkloadFile } from "../files/load-inputs.js";
import { resolvePrices } from "../files/read-prices.js";
import { evaluateModel } from "../cost/evaluate.js";
import { CosmosModelerError } from "../common/errors.js";
import { formatIssue, hasErrors } from "../common/issues.js";
import { designModel } from "../design/design-model.js";
import { loadModel } from "../model/load-model.js";
import { modelToFile } from "../model/serialize-model.js";
import { writeDataModel } from "../session-store/deliverables.js";
import { openSession, WORKLOAD_FILE } from "../session-store/session-files.js";
import type { Workload } from "../workload/types.js";
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

const decisionSchema = z.looseObject({
  id: z.string(),
  title: z.string(),
  chosen: z.string(),
  alternatives: z.array(z.looseObject({ name: z.string(), rusPeak: z.number(), monthlyCostUSD: z.number() })),
  why: z.string(),
});

export const designModelInput = {
  workload: z
    .string()
    .min(1)
    .optional()
    .describe(
      "workload file relative to the session folder; default: the session's workload (it must be complete)",
    ),
  prices: z.string().min(1).optional().describe("price file overriding the built-in dated price table"),
};

export const designModelOutput = {
  model: z.looseObject({ version: z.number(), containers: z.array(z.looseObject({ name: z.string() })) }),
  evaluation: z.object(evaluateModelOutput),
  decisions: z.array(decisionSchema),
  baseline: z.object({ monthlyCostUSD: z.number(), rusPeak: z.number(), errors: z.number() }),
};

async function workloadFor(dir: string, path: string | undefined): Promise<Workload | CallToolResult> {
  if (path !== undefined) {
    const loaded = await readWorkloadFile(resolve(dir, path));
    return loaded.ok
      ? loaded.value
      : failure(`${path} has errors:\n${loaded.issues.map(formatIssue).join("\n")}`, {
          issues: loaded.issues,
        });
  }
  const workload = await sessionWorkload(dir);
  return (
    workload ??
    failure(
      `The session's ${WORKLOAD_FILE} is not complete yet, so there is nothing to design: answer get-next-questions first, or pass a workload file.`,
    )
  );
}

/** `design-model`: the cheapest model that respects every limit, with its decisions and evaluation (writes nothing). */
export async function designModelTool(
  dir: string,
  args: { workload?: string | undefined; prices?: string | undefined },
): Promise<CallToolResult> {
  const workload = await workloadFor(dir, args.workload);
  if ("content" in workload) return workload;
  const prices = await resolvePrices(args.prices === undefined ? undefined : resolve(dir, args.prices));
  const result = designModel(workload, { prices });
  const data = JSON.parse(
    JSON.stringify({
      model: modelToFile(result.model),
      evaluation: {
        patterns: result.evaluation.patterns,
        containers: result.evaluation.containers,
        totals: result.evaluation.totals,
        issues: result.evaluation.issues,
      },
      decisions: result.decisions,
      baseline: result.baseline,
    }),
  ) as Record<string, unknown>;
  return success(formatDecisions(workload, result), data);
}

export const writeDataModelInput = {
  force: z
    .boolean()
    .default(false)
    .describe("overwrite deliverables the user edited by hand since they were written"),
  prices: z.string().min(1).optional().describe("price file overriding the built-in dated price table"),
};

export const writeDataModelOutput = {
  files: z.array(z.string()).describe("files written, relative to the session folder"),
  unchanged: z.array(z.string()),
  highlights: z.array(z.string()),
  totals: z.object({ rus: rate, monthlyCostUSD: z.number() }),
};

/**
 * `write-data-model`: designs the session's workload and writes cosmosdb_data_model.md, model.yaml,
 * evaluation.json and the artifacts; refused until the user confirmed every access pattern and
 * the checklist is complete.
 */
export async function writeDataModelTool(
  dir: string,
  args: { force: boolean; prices?: string | undefined },
): Promise<CallToolResult> {
  const opened = await openSession(dir, { keepEditedCopies: false });
  const prices = await resolvePrices(args.prices === undefined ? undefined : resolve(dir, args.prices));
  let outcome;
  try {
    outcome = await writeDataModel(dir, opened.state, { force: args.force, prices });
  } catch (error) {
    if (!(error instanceof CosmosModelerError && error.code === "cli.handEdited")) throw error;
    return failure(
      `${error.message.replace(/run again with --force/, "call write-data-model with force: true")} Ask the user before overwriting.`,
      { files: error.context.files },
    );
  }
  if (!outcome.ok) {
    return failure(
      `The data model is not written yet. It is written only after the user confirms that every access pattern is captured and the checklist is complete. Open items:\n${outcome.reasons.map((r) => `- ${r}`).join("\n")}`,
      { reasons: outcome.reasons },
    );
  }
  const totals = outcome.design?.evaluation.totals ?? { rus: { avg: 0, peak: 0 }, monthlyCostUSD: 0 };
  return success(
    [
      ...outcome.highlights,
      "",
      `Written in ${dir}: ${[...outcome.files, ...outcome.unchanged].join(", ")}`,
    ].join("\n"),
    {
      files: [...outcome.files],
      unchanged: [...outcome.unchanged],
      highlights: [...outcome.highlights],
      totals: JSON.parse(JSON.stringify(totals)) as unknown,
    },
  );
}
