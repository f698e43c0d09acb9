/**
 * The evaluation in output schemas (evaluate-model, design-model): per access pattern and per
 * container, with totals, as `cosmos-modeler evaluate --json` prints it.
 */
import { z } from "zod";
import { issueSchema } from "../support/results.js";

const rate = z.object({ avg: z.number(), peak: z.number() });

export const totalsSchema = z.object({
  rus: rate,
  monthlyCostUSD: z.number(),
  /** The total from autoscale average-billed to peak-billed (docs/json-output.md). */
  monthlyCostRange: z.object({ lowUSD: z.number(), highUSD: z.number() }),
});

export const evaluationShape = {
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
  totals: totalsSchema,
  issues: z.array(issueSchema),
};
