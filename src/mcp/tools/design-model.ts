/**
 * `design-model`: the cheapest model that respects every limit for the session's workload (or a
 * named file), each decision with its alternatives; writes nothing.
 */
import { z } from "zod";
import { issueToJson } from "../../common/issues.js";
import { designModel } from "../../design/design-model.js";
import { resolvePrices } from "../../files/read-prices.js";
import { modelToFile } from "../../model/serialize-model.js";
import { formatDecisions } from "../../render/decisions-report.js";
import { success } from "../support/results.js";
import { workloadFor } from "../support/session-workload.js";
import { defineTool, READ_ONLY, sessionPath } from "../support/tool-definition.js";
import { evaluationShape } from "./evaluation-schema.js";

const decisionSchema = z.looseObject({
  id: z.string(),
  title: z.string(),
  chosen: z.string(),
  alternatives: z.array(z.looseObject({ name: z.string(), rusPeak: z.number(), monthlyCostUSD: z.number() })),
  why: z.string(),
});

export const designModelTool = defineTool({
  name: "design-model",
  title: "Design a model",
  description:
    "Designs the cheapest model that respects every Cosmos DB limit for the session's workload (or a named file): containers, partition keys, embedding, denormalized copies and counters, indexing, throughput; each decision with its alternatives and their RU/s and monthly cost. Writes nothing: discuss the decisions with the user. Reports progress; can be cancelled.",
  inputSchema: {
    workload: sessionPath("workload file; default: the session's workload (it must be complete)").optional(),
    prices: sessionPath("price file overriding the built-in dated price table").optional(),
  },
  outputSchema: {
    model: z.looseObject({ version: z.number(), containers: z.array(z.looseObject({ name: z.string() })) }),
    evaluation: z.object(evaluationShape),
    decisions: z.array(decisionSchema),
    baseline: z.object({ monthlyCostUSD: z.number(), rusPeak: z.number(), errors: z.number() }),
  },
  annotations: READ_ONLY,
  paths: { workload: "read", prices: "read" },
  worker: true,
  async run({ dir, display, progress }, args) {
    const workload = await workloadFor(
      dir,
      args.workload,
      args.workload === undefined ? undefined : display(args.workload),
      "design",
    );
    if ("content" in workload) return workload;
    const prices = await resolvePrices(args.prices);
    const result = designModel(workload, { prices, onProgress: progress });
    const data = JSON.parse(
      JSON.stringify({
        model: modelToFile(result.model),
        evaluation: {
          patterns: result.evaluation.patterns,
          containers: result.evaluation.containers,
          totals: result.evaluation.totals,
          issues: result.evaluation.issues.map(issueToJson),
        },
        decisions: result.decisions,
        baseline: result.baseline,
      }),
    ) as Record<string, unknown>;
    return success(formatDecisions(workload, result), data);
  },
});
