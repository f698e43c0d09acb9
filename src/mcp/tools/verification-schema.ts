/**
 * A verify run as the MCP tools return it (write-data-model, verify-model): whether every pattern
 * and probe passed, the counts, each pattern's result with its first difference when it failed,
 * and each probe of the generated code with its figures.
 */
import { z } from "zod";
import type { ModelVerification } from "../../session-store/deliverables.js";
import { probeFigures, probeTitle } from "../../verify/probe-outcomes.js";

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
  probes: z
    .array(
      z.object({
        probe: z
          .enum(["concurrentCounter", "childLifecycle", "paging", "feedRestart"])
          .describe("what the probe checks of the generated data-access code"),
        status: z.enum(["passed", "failed", "notCheckable"]),
        title: z.string(),
        figures: z.string().describe("what was expected and what was found"),
        detail: z.string().optional(),
      }),
    )
    .optional()
    .describe("the probes of the generated code that apply to the model (see docs/json-output.md#probes)"),
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
    probes: report.probes.map((p) => ({
      probe: p.probe,
      status: p.status,
      title: probeTitle(p),
      figures: probeFigures(p),
      ...(p.detail === undefined ? {} : { detail: p.detail }),
    })),
  };
}
