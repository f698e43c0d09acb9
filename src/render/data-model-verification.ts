/**
 * The data model document's verification section: the result of running the model on a Cosmos
 * DB endpoint (`verify`), pattern by pattern, as the run reported it. A failed pattern is shown
 * as a failure with its first difference; a run that could not start says why. Fed by typed
 * verify results (`VerificationSummary`, the shape of `verify --json`), never by the evaluation.
 */
import { escapeMarkdownText as e, escapeTableCell as cell, formatNumber, table } from "./markdown.js";
import { ruRange } from "./data-model-context.js";
import type { VerificationSummary } from "./verification-summary.js";

/** What the document shows of verification: a run, or why none could run. */
export type DataModelVerification =
  | { readonly kind: "ran"; readonly run: VerificationSummary }
  | { readonly kind: "notRun"; readonly reason: string };

/** The heading of the section (tests and readers find it by it). */
export const VERIFICATION_HEADING = "## Verification on a Cosmos DB Endpoint";

/** The section, in the document's Markdown. */
export function renderVerification(verification: DataModelVerification): string {
  if (verification.kind === "notRun") {
    return [VERIFICATION_HEADING, `[ ] ❌ The model was **not verified**: ${e(verification.reason)}`].join(
      "\n\n",
    );
  }
  const run = verification.run;
  const { passed, failed, notCheckable } = run.counts;
  const total = run.patterns.length;
  const endpoint =
    run.endpoint.kind === "embedded"
      ? "the embedded Cosmos DB endpoint (@vercel/cosmosdb-server; request charges are not measured there)"
      : "a real Azure Cosmos DB account";
  const status = (pattern: VerificationSummary["patterns"][number]): string =>
    pattern.status === "passed"
      ? "✅ passed"
      : pattern.status === "failed"
        ? "❌ FAILED"
        : "⚠️ not checkable";
  const lines = [
    VERIFICATION_HEADING,
    `Every access pattern was run through the generated data-access code on ${endpoint}, with synthetic data shaped like the workload (seed ${String(run.seed)}); each read's answer was compared with the answer computed from the data itself, after the writes and their maintenance.`,
    failed === 0
      ? `[x] ✅ **${formatNumber(passed, 0)} of ${formatNumber(total, 0)}** access patterns passed${notCheckable === 0 ? "" : ` (${formatNumber(notCheckable, 0)} not checkable on this endpoint)`}.`
      : `[ ] ❌ **${formatNumber(failed, 0)} of ${formatNumber(total, 0)} access patterns FAILED** (${formatNumber(passed, 0)} passed${notCheckable === 0 ? "" : `, ${formatNumber(notCheckable, 0)} not checkable`}): ${run.patterns
          .filter((p) => p.status === "failed")
          .map((p) => e(p.patternId))
          .join(
            ", ",
          )}. This model does not answer them as the workload describes; do not deploy it as it is.`,
    table(
      ["Pattern", "Type", "Result", "Requests", "Estimated RU", "Latency p50 / max", "Detail"],
      run.patterns.map((pattern) => [
        cell(pattern.patternId),
        pattern.type,
        status(pattern),
        formatNumber(pattern.requests, 0),
        ruRange(pattern.estimatedRu),
        pattern.latencyMs === undefined
          ? "-"
          : `${formatNumber(pattern.latencyMs.p50, 1)} / ${formatNumber(pattern.latencyMs.max, 1)} ms`,
        cell(pattern.detail ?? ""),
      ]),
    ),
  ];
  lines.push(...probeLines(run.probes ?? []));
  if (run.outOfScope.length > 0)
    lines.push(`Not checked by any verify run: ${run.outOfScope.map((item) => e(item)).join("; ")}.`);
  return lines.join("\n\n");
}

/** The probes of the generated code: their counts, then each one that failed or could not run, and why. */
function probeLines(probes: NonNullable<VerificationSummary["probes"]>): string[] {
  if (probes.length === 0) return [];
  const count = (status: string): number => probes.filter((probe) => probe.status === status).length;
  const failed = count("failed");
  const head = `${failed === 0 ? "[x] ✅" : "[ ] ❌"} Probes of the generated data-access code (concurrent counters, a child changed and removed, paging, a change-feed processor restarted): **${formatNumber(count("passed"), 0)} passed, ${formatNumber(failed, 0)} failed**, ${formatNumber(count("notCheckable"), 0)} not checkable on this endpoint.`;
  const notes = probes
    .filter((probe) => probe.status !== "passed")
    .map(
      (probe) => `- ${probe.status === "failed" ? "❌" : "⚠️"} ${e(probe.probe)}: ${e(probe.detail ?? "")}`,
    );
  return notes.length === 0 ? [head] : [head, notes.join("\n")];
}
