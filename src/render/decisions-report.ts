/**
 * The readable `design` report: each decision with what was chosen, the alternatives with their
 * peak RU/s and monthly cost, and why; then the totals against the baseline.
 */
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
