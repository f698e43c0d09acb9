/**
 * The readable `design` report: each decision with what was chosen, the alternatives with their
 * peak RU/s and monthly cost, and why; then the totals against the baseline.
 */
import type { Issue } from "../common/issues.js";
import type { DesignResult } from "../design/design-model.js";
import type { Workload } from "../workload/types.js";
import { formatColumns } from "./evaluation-report.js";

const usd = (value: number): string => `$${value.toLocaleString("en-US", { maximumFractionDigits: 0 })}`;
const rus = (value: number): string => Math.round(value).toLocaleString("en-US");

/** The full report. */
export function formatDecisions(workload: Workload, result: DesignResult): string {
  const out: string[] = [`Design of ${workload.name}`, ""];
  for (const decision of result.decisions) {
    out.push(`* ${decision.title}`, `  chosen: ${decision.chosen}`);
    if (decision.alternatives.length > 1) {
      const rows = [["alternative", "RU/s peak", "$/month", "limits"]];
      for (const alternative of decision.alternatives) {
        rows.push([
          `${alternative.name === decision.chosen ? "> " : "  "}${alternative.name}`,
          rus(alternative.rusPeak),
          usd(alternative.monthlyCostUSD),
          alternative.errors === 0 ? "ok" : `${alternative.errors} error(s)`,
        ]);
      }
      out.push(
        ...formatColumns(rows)
          .split("\n")
          .map((line) => `    ${line}`),
      );
    }
    out.push(`  why: ${decision.why}`, "");
  }
  const totals = result.evaluation.totals;
  out.push(
    `Model: ${result.model.containers.length} container(s), ${rus(totals.rus.peak)} RU/s at peak, ${usd(totals.monthlyCostUSD)} per month`,
    `Baseline (one container per entity): ${rus(result.baseline.rusPeak)} RU/s at peak, ${usd(result.baseline.monthlyCostUSD)} per month, ${result.baseline.errors} hard-limit error(s)`,
  );
  return `${out.join("\n")}\n`;
}

/** Containers listed by name in the summary (the costliest first); the rest are counted. */
const SUMMARY_CONTAINERS = 10;

/** What `design` wrote, when it wrote files (`--out`). */
export interface WrittenSummary {
  readonly folder: string;
  readonly written: readonly string[];
  readonly unchanged: readonly string[];
}

/**
 * The short report `design` ends with (under 30 lines whatever the workload's size): the model's
 * containers (the ten costliest), its monthly cost with the baseline's, its findings by severity,
 * the decisions' count and whether the search budget stopped it, and where the files are. The
 * decisions in full are in cosmosdb_data_model.md and the report, or printed with `--decisions`.
 */
export function formatDesignSummary(
  workload: Workload,
  result: DesignResult,
  written: WrittenSummary | undefined,
  workloadIssues: readonly Issue[] = [],
  /** The CLI's hints (`--decisions`, `--out`); an MCP result has its own. */
  cliHints = true,
): string {
  const { evaluation, model } = result;
  const issues = [...workloadIssues, ...evaluation.issues];
  const count = (severity: string): number => issues.filter((i) => i.severity === severity).length;
  const errors = count("error");
  const warnings = count("warning");
  const out: string[] = [
    `Design of ${workload.name}: ${model.containers.length} container(s), ${rus(evaluation.totals.rus.peak)} RU/s at peak, ${usd(evaluation.totals.monthlyCostUSD)} per month`,
    `  ${errors === 0 ? "no hard-limit error" : `${errors} hard-limit error(s)`}, ${warnings} warning(s), ${count("info")} note(s)`,
    `  baseline (one container per entity): ${usd(result.baseline.monthlyCostUSD)} per month, ${result.baseline.errors} hard-limit error(s)`,
    ...(evaluation.requestCharges === undefined
      ? []
      : [`  request charges from coefficients fitted on ${evaluation.requestCharges.source}`]),
    "",
  ];
  const byCost = [...evaluation.containers].sort((a, b) => b.monthlyCostUSD - a.monthlyCostUSD);
  const rows = [["container", "partition key", "RU/s peak", "$/month"]];
  for (const container of byCost.slice(0, SUMMARY_CONTAINERS)) {
    const key = model.containers.find((c) => c.name === container.name)?.partitionKey ?? [];
    rows.push([container.name, key.join(", "), rus(container.rus.peak), usd(container.monthlyCostUSD)]);
  }
  out.push(
    ...formatColumns(rows)
      .split("\n")
      .map((line) => `  ${line}`),
  );
  if (byCost.length > SUMMARY_CONTAINERS) {
    const rest = byCost.slice(SUMMARY_CONTAINERS);
    out.push(
      `  and ${rest.length} more container(s): ${usd(rest.reduce((sum, c) => sum + c.monthlyCostUSD, 0))} per month`,
    );
  }
  const cache = evaluation.integratedCache;
  if (cache !== undefined)
    out.push(`  dedicated gateway: ${cache.nodes} x ${cache.size}, ${usd(cache.monthlyCostUSD)} per month`);
  out.push("");
  const budget = result.decisions.find((d) => d.subject.kind === "searchBudget");
  out.push(
    `${result.decisions.length} decision(s)${budget === undefined ? "" : "; the search stopped at its work budget (a cheaper or valid model may exist)"}${!cliHints ? "" : written === undefined ? ": printed with --decisions" : ": in cosmosdb_data_model.md and report.html, or printed with --decisions"}`,
  );
  if (written === undefined) {
    if (cliHints) out.push("(use --out DIR to write model.yaml, the documents and the artifacts)");
  } else {
    const files = [...written.written, ...written.unchanged];
    const first = files.filter((f) => !f.includes("/")).slice(0, 6);
    out.push(
      `Wrote ${written.written.length} file(s) to ${written.folder}${written.unchanged.length > 0 ? ` (${written.unchanged.length} unchanged)` : ""}: ${first.join(", ")}${files.length > first.length ? ` and ${files.length - first.length} more` : ""}`,
    );
  }
  return `${out.join("\n")}\n`;
}
