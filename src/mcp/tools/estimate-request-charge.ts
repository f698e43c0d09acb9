/**
 * `estimate-request-charge`: the request units (RU) of single Cosmos DB operations, each with its
 * range, in the `estimate-ru` format of docs/json-output.md.
 */
import { z } from "zod";
import { formatIssue, hasErrors, issueToJson, type Issue } from "../../common/issues.js";
import { CONSISTENCY_LEVELS } from "../../cosmos/consistency.js";
import { estimateRequestCharge } from "../../estimator/estimate-request-charge.js";
import { OPERATION_KINDS, validateOperation } from "../../estimator/validate-operation.js";
import { failure, success } from "../support/results.js";
import { defineTool, READ_ONLY } from "../support/tool-definition.js";

const operationSchema = z.object({
  op: z.enum(OPERATION_KINDS as ["read", ...string[]]),
  itemBytes: z.number().optional().describe("the item's JSON size without system properties"),
  indexedValues: z.number().optional(),
  changedValues: z.number().optional(),
  consistency: z.enum(CONSISTENCY_LEVELS as unknown as ["session", ...string[]]).optional(),
  returned: z.number().optional(),
  returnedBytes: z.number().optional(),
  scannedNotReturned: z.number().optional(),
  scannedBytes: z.number().optional(),
  partitionKeyOnly: z
    .boolean()
    .optional()
    .describe("the query's only filter is the partition key: no per-item index lookup"),
  partitions: z.number().optional().describe("physical partitions a query visits (1 = single-partition)"),
});

const estimateSchema = z.object({ estimate: z.number(), low: z.number(), high: z.number() });

function formatRu(value: number): string {
  return value.toLocaleString("en-US", { maximumFractionDigits: 2 });
}

export const estimateRequestChargeTool = defineTool({
  name: "estimate-request-charge",
  title: "Estimate request charges",
  description:
    "Request units (RU) of single Cosmos DB operations (point read, create, replace, upsert, patch, delete, query) from item size, indexed values and query shape, each with its range.",
  inputSchema: {
    operations: z
      .array(operationSchema)
      .min(1)
      .max(1000)
      .describe(
        "operations in the estimate-ru format (resource cosmos-modeler://docs/json-output.md#estimate-ru)",
      ),
  },
  outputSchema: {
    estimates: z
      .array(estimateSchema)
      .describe("request units (RU) per operation, in input order: best estimate and range"),
  },
  annotations: READ_ONLY,
  run(_context, args) {
    const issues: Issue[] = [];
    const estimates: z.infer<typeof estimateSchema>[] = [];
    args.operations.forEach((value, index) => {
      const operation = validateOperation(value, index);
      issues.push(...operation.issues);
      if (operation.ok) estimates.push({ ...estimateRequestCharge(operation.value) });
    });
    if (hasErrors(issues)) {
      return failure(`Invalid operations:\n${issues.map(formatIssue).join("\n")}`, {
        issues: issues.map(issueToJson),
      });
    }
    const text = estimates
      .map((e, i) => `${i + 1}. ${formatRu(e.estimate)} RU (range ${formatRu(e.low)} to ${formatRu(e.high)})`)
      .join("\n");
    return success(text, { estimates });
  },
});
