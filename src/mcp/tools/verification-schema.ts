/**
 * A verify run as the MCP tools return it (write-data-model, verify-model): whether every pattern
 * passed, the counts, and each pattern's result with its first difference when it failed.
 */
import { z } from "zod";
import type { ModelVerification } from "../../session-store/deliverables.js";

export const verificationSchema = z.object({
  ran: z.boolean().describe("false when verify could not run (reason says why)"),
  ok: z.boolean().describe("true only when it ran and no pattern failed"),
  reason: z.string().optional(),
  endpoint: z.string().optional(),
  counts: z.object({ passed: z.number(), failed: z.number(), notCheckable: z.number() }).optional(),
  failed: z.array(z.string()).describe("ids of the patterns that failed"),
  patterns: z
    .array(
      z.object({
        id: z.string(),
        type: z.enum(["read", "write"]),
        status: z.enum(["passed", "failed", "notCheckable"]),
        detail: z.string().optional(),
        requests: z.number(),
      }),
    )
    .optional(),
  limitations: z.array(z.string()).optional(),
});

/** The structured result of a verification. */
export function verificationResult(verification: ModelVerification): z.infer<typeof verificationSchema> {
  if (verification.kind === "notRun")
    return { ran: false, ok: false, reason: verification.reason, failed: [] };
  const report = verification.report;
  return {
    ran: true,
    ok: report.ok,
    endpoint: report.endpoint.kind,
    counts: { ...report.counts },
    failed: report.patterns.filter((p) => p.status === "failed").map((p) => p.patternId),
    patterns: report.patterns.map((p) => ({
      id: p.patternId,
      type: p.type,
      status: p.status,
      ...(p.detail === undefined ? {} : { detail: p.detail }),
      requests: p.requests,
    })),
    limitations: report.limitations.map((l) => `${l.capability}: ${l.reason}`),
  };
}
