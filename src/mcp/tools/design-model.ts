/**
 * `design-model`: the cheapest model that respects every limit for the session's workload (or a
 * named file), each decision with its alternatives; writes nothing.
 */
import { z } from "zod";
import { issueToJson } from "../../common/issues.js";
import { designModel } from "../../design/design-model.js";
import { resolvePrices } from "../../files/read-prices.js";
import { modelToFile } from "../../model/serialize-model.js";
import { formatDecisions, formatDesignSummary } from "../../render/decisions-report.js";
import type { DesignResult } from "../../design/design-model.js";
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
    detail: z
      .enum(["summary", "full"])
      .optional()
      .describe(
        "summary (default): the model, each pattern's and container's figures, and the decisions that change the cost most, sized for an assistant's context (under 100 KB); full: every plan and every decision in full",
      ),
  },
  outputSchema: {
    model: z
      .looseObject({ version: z.number(), containers: z.array(z.looseObject({ name: z.string() })) })
      .optional()
      .describe("the model; in a summary only when its JSON is under 40 KB"),
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
    if (args.detail === "full") {
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
    }
    const summary = designSummary(result);
    return success(
      `${formatDesignSummary(workload, result, undefined, [], false)}${summary.omitted === 0 ? "" : `\nThis is a summary (the busiest patterns, the costliest containers, the decisions that change the cost most${"model" in summary.data ? "" : "; the model is too large to include"}). Every plan, decision and container: call design-model with detail: "full", or write-data-model (the files list them all).\n`}`,
      summary.data,
    );
  },
});

/** Decisions listed in a summary result, those that change the monthly cost most. */
const SUMMARY_DECISIONS = 20;
/** Longest `why` of a decision in a summary result. */
const SUMMARY_WHY = 600;
/** Findings listed in a summary result (errors first). */
const SUMMARY_ISSUES = 50;
/** Patterns (the busiest at peak) and containers (the costliest) listed in a summary result. */
const SUMMARY_ROWS = 40;
/** A model's JSON up to this size is in a summary result; a larger one only with detail "full". */
const SUMMARY_MODEL_BYTES = 40_000;

/**
 * The design sized for an assistant's context: the model, each pattern's figures without its
 * plan's steps, each container's headline figures, the findings (errors first), and the decisions
 * whose alternatives differ most in monthly cost, their reasons cut. A 300-entity design's full
 * result is megabytes; this stays under 100 KB for it (test/mcp/data-model.test.ts).
 */
function designSummary(result: DesignResult): { data: Record<string, unknown>; omitted: number } {
  const spread = (d: DesignResult["decisions"][number]): number => {
    const costs = d.alternatives.map((a) => a.monthlyCostUSD);
    return costs.length < 2 ? 0 : Math.max(...costs) - Math.min(...costs);
  };
  const decisions = [...result.decisions]
    .sort((a, b) => spread(b) - spread(a))
    .slice(0, SUMMARY_DECISIONS)
    .map((d) => ({
      ...d,
      why: d.why.length > SUMMARY_WHY ? `${d.why.slice(0, SUMMARY_WHY - 3)}...` : d.why,
    }));
  const model = modelToFile(result.model);
  const modelJson = JSON.stringify(model);
  const order = { error: 0, warning: 1, info: 2 } as const;
  const issues = [...result.evaluation.issues].sort((a, b) => order[a.severity] - order[b.severity]);
  const data = JSON.parse(
    JSON.stringify({
      ...(modelJson.length <= SUMMARY_MODEL_BYTES ? { model } : {}),
      evaluation: {
        patterns: [...result.evaluation.patterns]
          .sort((a, b) => b.rus.peak - a.rus.peak)
          .slice(0, SUMMARY_ROWS)
          .map((p) => ({
            id: p.id,
            fanOut: p.fanOut,
            ru: p.ru,
            rus: p.rus,
            plan: { kind: p.plan.kind },
          })),
        containers: [...result.evaluation.containers]
          .sort((a, b) => b.monthlyCostUSD - a.monthlyCostUSD)
          .slice(0, SUMMARY_ROWS)
          .map((c) => ({
            name: c.name,
            physicalPartitions: c.physicalPartitions,
            storageGB: c.storageGB,
            rus: c.rus,
            monthlyCostUSD: c.monthlyCostUSD,
            throughput: { mode: c.throughput.mode, provisionedRus: c.throughput.provisionedRus },
          })),
        totals: result.evaluation.totals,
        issues: issues.slice(0, SUMMARY_ISSUES).map(issueToJson),
        counts: {
          patterns: result.evaluation.patterns.length,
          containers: result.evaluation.containers.length,
          decisions: result.decisions.length,
        },
        issueCounts: {
          error: issues.filter((i) => i.severity === "error").length,
          warning: issues.filter((i) => i.severity === "warning").length,
          info: issues.filter((i) => i.severity === "info").length,
        },
      },
      decisions,
      baseline: result.baseline,
    }),
  ) as Record<string, unknown>;
  const omitted =
    result.decisions.length -
    decisions.length +
    Math.max(0, result.evaluation.patterns.length - SUMMARY_ROWS) +
    Math.max(0, result.evaluation.containers.length - SUMMARY_ROWS) +
    (modelJson.length <= SUMMARY_MODEL_BYTES ? 0 : 1);
  return { data, omitted };
}
