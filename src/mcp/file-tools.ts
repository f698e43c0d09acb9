/**
 * MCP tools over files and single operations: check a workload, estimate the request charge of
 * operations, and render a model's deployable artifacts into the session folder.
 */
import { isAbsolute, relative, resolve } from "node:path";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { checkWorkloadText, summarize } from "../workload/check-report.js";
import { readInputFile } from "../files/io.js";
import { writeOutputs } from "../files/write-outputs.js";
import { CONSISTENCY_LEVELS } from "../cosmos/consistency.js";
import { estimateRequestCharge } from "../estimator/estimate-request-charge.js";
import { OPERATION_KINDS, validateOperation } from "../estimator/validate-operation.js";
import { CosmosModelerError } from "../common/errors.js";
import { formatIssue, hasErrors, type Issue } from "../common/issues.js";
import { loadModel } from "../model/load-model.js";
import { renderModelArtifacts } from "../render/artifacts.js";
import { checkReadiness } from "../session/checklist.js";
import { openSession, WORKLOAD_FILE } from "../session-store/session-files.js";
import type { Workload } from "../workload/types.js";
import { failure, issueSchema, success } from "./results.js";

/** Resolves a path the client gives, relative to the session folder, refusing to leave it for writes. */
export function resolveInside(dir: string, path: string, what: string): string {
  const full = resolve(dir, path);
  const rel = relative(dir, full);
  if (rel.startsWith("..") || isAbsolute(rel)) {
    throw new CosmosModelerError(
      "mcp.outsideSession",
      `${what} ${path} is outside the session folder ${dir}`,
    );
  }
  return full;
}

export const checkWorkloadInput = {
  path: z
    .string()
    .min(1)
    .optional()
    .describe("workload file, relative to the session folder; default: the session's workload.yaml"),
  text: z.string().min(1).optional().describe("workload YAML or JSON given inline instead of a file"),
};

export const checkWorkloadOutput = {
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

/** `check-workload`: validates a workload file, inline text, or the session's workload. */
export async function checkWorkload(
  dir: string,
  args: { path?: string | undefined; text?: string | undefined },
): Promise<CallToolResult> {
  if (args.path !== undefined && args.text !== undefined)
    return failure("Give either path or text, not both.");
  const file = args.text !== undefined ? "(inline)" : (args.path ?? WORKLOAD_FILE);
  let text: string;
  try {
    text = args.text ?? (await readInputFile(resolve(dir, file)));
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
  return success(lines.join("\n"), { ...report, issues: [...report.issues] });
}

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
  partitions: z.number().optional().describe("physical partitions a query visits (1 = single-partition)"),
});

export const estimateRequestChargeInput = {
  operations: z
    .array(operationSchema)
    .min(1)
    .max(1000)
    .describe("operations in the estimate-ru format of DESIGN.md"),
};

const estimateSchema = z.object({ estimate: z.number(), low: z.number(), high: z.number() });

export const estimateRequestChargeOutput = {
  estimates: z
    .array(estimateSchema)
    .describe("request units (RU) per operation, in input order: best estimate and range"),
};

/** `estimate-request-charge`: RU estimates with their ranges for single operations. */
export function estimateRequestCharges(args: { operations: readonly unknown[] }): CallToolResult {
  const issues: Issue[] = [];
  const estimates: z.infer<typeof estimateSchema>[] = [];
  args.operations.forEach((value, index) => {
    const operation = validateOperation(value, index);
    issues.push(...operation.issues);
    if (operation.ok) estimates.push({ ...estimateRequestCharge(operation.value) });
  });
  if (hasErrors(issues)) {
    return failure(`Invalid operations:\n${issues.map(formatIssue).join("\n")}`, { issues });
  }
  const text = estimates
    .map((e, i) => `${i + 1}. ${formatRu(e.estimate)} RU (range ${formatRu(e.low)} to ${formatRu(e.high)})`)
    .join("\n");
  return success(text, { estimates });
}

function formatRu(value: number): string {
  return value.toLocaleString("en-US", { maximumFractionDigits: 2 });
}

export const renderArtifactsInput = {
  model: z
    .string()
    .min(1)
    .describe("model file (model format), relative to the session folder, e.g. model.yaml"),
  outDir: z
    .string()
    .min(1)
    .default("artifacts")
    .describe("folder for the artifacts, inside the session folder"),
  force: z
    .boolean()
    .default(false)
    .describe("overwrite artifacts the user edited by hand since they were written"),
};

export const renderArtifactsOutput = {
  outDir: z.string(),
  files: z.array(z.string()).describe("files written, relative to outDir"),
  unchanged: z.array(z.string()).describe("files that already had this content"),
  warnings: z.array(issueSchema),
};

/** `render-artifacts`: container definitions, Bicep, Terraform, Azure CLI script and diagram of a model. */
export async function renderArtifacts(
  dir: string,
  args: { model: string; outDir: string; force: boolean },
): Promise<CallToolResult> {
  let text: string;
  let outDir: string;
  try {
    outDir = resolveInside(dir, args.outDir, "outDir");
    text = await readInputFile(resolve(dir, args.model));
  } catch (error) {
    return failure(error instanceof Error ? error.message : String(error));
  }
  const workload = await sessionWorkload(dir);
  const model = loadModel(text, { file: args.model, ...(workload === undefined ? {} : { workload }) });
  if (!model.ok) {
    return failure(`${args.model} is not a valid model:\n${model.issues.map(formatIssue).join("\n")}`, {
      issues: [...model.issues],
    });
  }
  const files = renderModelArtifacts(model.value, workload === undefined ? {} : { scale: workload.scale });
  let report;
  try {
    report = await writeOutputs(outDir, files, args.force);
  } catch (error) {
    if (!(error instanceof CosmosModelerError && error.code === "cli.handEdited")) throw error;
    return failure(
      `${error.message.replace(/run again with --force/, "call render-artifacts with force: true")} Ask the user before overwriting.`,
      { files: error.context.files },
    );
  }
  const names = [...report.written, ...report.unchanged];
  return success(
    `Wrote ${report.written.length} files in ${outDir}:\n${names.map((n) => `- ${n}`).join("\n")}`,
    {
      outDir,
      files: [...report.written],
      unchanged: [...report.unchanged],
      warnings: model.issues.filter((issue) => issue.severity !== "error"),
    },
  );
}

/** The session's workload when it loads (for scale and checks), else undefined. */
export async function sessionWorkload(dir: string): Promise<Workload | undefined> {
  const opened = await openSession(dir, { keepEditedCopies: false });
  return checkReadiness(opened.state, WORKLOAD_FILE).workload;
}
