/**
 * Reads a verify run (the document `verify --json` prints) for the report: only the fields the
 * report shows are checked, each problem reported with the file, line and field path.
 */
import { z } from "zod";
import { createIssueSink, type Result } from "../../common/issues.js";
import { parseSourceDocument } from "../../source/parse-document.js";
import { parseWithSchema } from "../../source/schema-issues.js";
import type { VerificationSummary } from "./report-data.js";

const estimate = z.object({ estimate: z.number(), low: z.number(), high: z.number() });

const verificationSchema = z.object({
  endpoint: z.object({ kind: z.enum(["embedded", "real"]) }),
  seed: z.number(),
  ok: z.boolean(),
  counts: z.object({ passed: z.number(), failed: z.number(), notCheckable: z.number() }),
  patterns: z.array(
    z.object({
      patternId: z.string(),
      type: z.enum(["read", "write"]),
      name: z.string(),
      status: z.enum(["passed", "failed", "notCheckable"]),
      detail: z.string().optional(),
      requests: z.number(),
      results: z.number().optional(),
      measuredRu: z.number().optional(),
      estimatedRu: estimate,
      ruVersusEstimate: z.enum(["within", "below", "above"]).optional(),
      latencyMs: z.object({ p50: z.number(), max: z.number() }).optional(),
    }),
  ),
  outOfScope: z.array(z.string()).default([]),
  probes: z
    .array(
      z.object({
        probe: z.string(),
        status: z.enum(["passed", "failed", "notCheckable"]),
        detail: z.string().optional(),
      }),
    )
    .optional(),
});

/**
 * Parses a `verify --json` document.
 * @example loadVerification(await readFile("verification.json", "utf8"), "verification.json")
 */
export function loadVerification(text: string, file?: string): Result<VerificationSummary> {
  const parsed = parseSourceDocument(text, file);
  if (!parsed.ok) return { ok: false, issues: parsed.issues };
  const sink = createIssueSink({ lineOf: parsed.document.lineOf, ...(file === undefined ? {} : { file }) });
  const summary = parseWithSchema(verificationSchema, parsed.document.value, [], sink, {
    codes: {
      unknownField: "report.invalidVerification",
      missingField: "report.invalidVerification",
      invalidValue: "report.invalidVerification",
    },
    suggestion: "pass the output of `cosmos-modeler verify WORKLOAD MODEL --json`",
  });
  return summary === undefined
    ? { ok: false, issues: sink.issues() }
    : { ok: true, value: summary, issues: [] };
}
