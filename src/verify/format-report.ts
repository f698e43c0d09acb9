/**
 * The readable `verify` report: one row per access pattern (result, RU measured against the
 * estimate, latency), then the first difference of each failure, the reason of each check that
 * could not run on this endpoint, and what the endpoint could not check at all. Pure.
 */
import { formatColumns } from "../render/evaluation-report.js";
import { probeFigures, probeTitle } from "./probe-outcomes.js";
import type { PatternOutcome, VerificationReport } from "./run-verification.js";

const n0 = (value: number): string => Math.round(value).toLocaleString("en-US");
const n1 = (value: number): string =>
  value >= 100
    ? n0(value)
    : value.toLocaleString("en-US", { maximumFractionDigits: 1, minimumFractionDigits: 1 });

/** Text printed where a charge was not measured (the embedded endpoint answers 1 RU for everything). */
export const RU_NOT_MEASURED_EMBEDDED = "n/a (embedded)";

function statusText(outcome: PatternOutcome): string {
  switch (outcome.status) {
    case "passed":
      return "passed";
    case "failed":
      return "FAILED";
    case "notCheckable":
      return "not checkable here";
    default:
      return outcome.status satisfies never;
  }
}

function measuredText(report: VerificationReport, outcome: PatternOutcome): string {
  if (outcome.measuredRu !== undefined) return n1(outcome.measuredRu);
  if (outcome.status === "notCheckable" || outcome.requests === 0) return "-";
  return report.endpoint.kind === "embedded" ? RU_NOT_MEASURED_EMBEDDED : "n/a";
}

/** Measured charge against the estimate's range: within, or how far off. */
function comparisonText(outcome: PatternOutcome): string {
  if (outcome.measuredRu === undefined || outcome.ruVersusEstimate === undefined) return "";
  if (outcome.ruVersusEstimate === "within") return "within the estimate's range";
  const estimate = outcome.estimatedRu.estimate;
  const ratio = estimate === 0 ? "" : ` (x${n1(outcome.measuredRu / estimate)} the estimate)`;
  return `${outcome.ruVersusEstimate} the estimate's range${ratio}`;
}

/** The probes: one line each (result, what it did, its figures), then why each failed or was not run. */
function probeLines(report: VerificationReport): string[] {
  if (report.probes.length === 0) return [];
  const lines = ["", "probes of the generated data-access code:"];
  for (const probe of report.probes) {
    const status =
      probe.status === "passed" ? "passed" : probe.status === "failed" ? "FAILED" : "not checkable here";
    lines.push(`  ${status}: ${probeTitle(probe)}`);
    if (probe.status !== "notCheckable") lines.push(`    ${probeFigures(probe)}`);
    if (probe.detail !== undefined) lines.push(`    ${probe.detail}`);
  }
  return lines;
}

/**
 * The report as text for a terminal.
 * @example formatVerificationReport(report, "blogging") // "verify blogging on the embedded endpoint ..."
 */
export function formatVerificationReport(report: VerificationReport, workloadName: string): string {
  const lines: string[] = [];
  const where =
    report.endpoint.kind === "embedded"
      ? "the embedded endpoint (@vercel/cosmosdb-server)"
      : `${report.endpoint.url}`;
  lines.push(
    `verify ${workloadName} on ${where}, seed ${report.seed}${report.fault === undefined ? "" : `, fault injected: ${report.fault}`}`,
  );
  const containers = Object.entries(report.data.itemsPerContainer)
    .map(([name, count]) => `${name} ${n0(count)}`)
    .join(", ");
  lines.push(
    `data: ${n0(report.data.loaded)} items loaded in ${n1(report.data.loadMs / 1000)} s (${containers}); ${n0(report.data.writes)} writes with their maintenance`,
  );
  if (report.load.status === "failed") lines.push(`load FAILED: ${report.load.detail ?? ""}`);
  lines.push("");
  const rows: string[][] = [
    ["pattern", "type", "result", "RU measured", "RU estimated", "latency p50 / max", ""],
  ];
  for (const outcome of report.patterns) {
    rows.push([
      outcome.patternId,
      outcome.type,
      statusText(outcome),
      measuredText(report, outcome),
      `${n1(outcome.estimatedRu.estimate)} (${n1(outcome.estimatedRu.low)}-${n1(outcome.estimatedRu.high)})`,
      outcome.latencyMs === undefined
        ? "-"
        : `${n1(outcome.latencyMs.p50)} / ${n1(outcome.latencyMs.max)} ms`,
      comparisonText(outcome),
    ]);
  }
  lines.push(formatColumns(rows).replace(/ +$/gm, ""));
  lines.push(...probeLines(report));
  const failed = report.patterns.filter((outcome) => outcome.status === "failed");
  if (failed.length > 0) {
    lines.push("", "failures (first difference):");
    for (const outcome of failed) {
      const detail = outcome.detail ?? "failed";
      lines.push(
        `  ${detail.startsWith(`${outcome.patternId}: `) ? detail : `${outcome.patternId}: ${detail}`}`,
      );
    }
  }
  const skipped = report.patterns.filter((outcome) => outcome.status === "notCheckable");
  if (skipped.length > 0) {
    lines.push("", "not checkable here:");
    for (const outcome of skipped) lines.push(`  ${outcome.patternId}: ${outcome.detail ?? ""}`);
  }
  if (report.limitations.length > 0) {
    lines.push("", "not checked on this endpoint:");
    for (const limitation of report.limitations) {
      const extra =
        limitation.capability === "changeFeed"
          ? "; the model's change-feed handlers ran directly after each write instead"
          : limitation.capability === "patchInBatch" || limitation.capability === "atomicBatch"
            ? "; co-located writes ran one request at a time"
            : "";
      lines.push(`  - ${limitation.reason}${extra}`);
    }
  }
  if (report.outOfScope.length > 0) {
    lines.push("", "never checked by verify:");
    for (const check of report.outOfScope) lines.push(`  - ${check}`);
  }
  lines.push(
    "",
    `database ${report.databaseId} ${report.kept ? `kept (--keep)${report.endpoint.kind === "embedded" ? "; the embedded endpoint's data ends with this process" : ""}` : "removed"}`,
    `result: ${report.counts.passed} passed, ${report.counts.failed} failed, ${report.counts.notCheckable} not checkable here${report.load.status === "failed" ? ", load failed" : ""}; probes: ${report.probeCounts.passed} passed, ${report.probeCounts.failed} failed, ${report.probeCounts.notCheckable} not checkable here (${n1(report.elapsedMs / 1000)} s)`,
  );
  return `${lines.join("\n")}\n`;
}
