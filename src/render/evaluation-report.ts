/**
 * The readable `evaluate` report for a terminal (the CLI) or an assistant (the MCP server): per
 * pattern, per container, totals, in plain text.
 */
import type { Prices } from "../cosmos/prices.js";
import type { Evaluation } from "../cost/evaluation-types.js";
import type { Workload } from "../workload/types.js";

const n0 = (value: number): string => Math.round(value).toLocaleString("en-US");
const n1 = (value: number): string =>
  value >= 100
    ? n0(value)
    : value.toLocaleString("en-US", { maximumFractionDigits: 1, minimumFractionDigits: 1 });
const usd = (value: number): string =>
  `$${value.toLocaleString("en-US", { maximumFractionDigits: 2, minimumFractionDigits: 2 })}`;

/** Pads cells into aligned columns (the last column is not padded). */
export function formatColumns(rows: readonly (readonly string[])[]): string {
  const widths: number[] = [];
  for (const row of rows)
    row.forEach((cell, index) => (widths[index] = Math.max(widths[index] ?? 0, cell.length)));
  return rows
    .map((row) =>
      row
        .map((cell, index) => (index === row.length - 1 ? cell : cell.padEnd(widths[index] ?? 0)))
        .join("  "),
    )
    .join("\n");
}

/** One line per plan step, indented. */
function describeSteps(evaluation: Evaluation["patterns"][number]): string[] {
  const lines: string[] = [];
  const plan = evaluation.plan;
  const steps = plan.type === "write" ? [...plan.operations, ...plan.async] : plan.operations;
  for (const step of steps) {
    const times = step.times === 1 ? "" : ` x${n1(step.times)}`;
    const async = step.kind === "changeFeed" ? " (change feed)" : "";
    lines.push(
      `      ${step.kind} ${step.container}/${step.itemType}${times}: ${n1(step.ru.estimate)} RU${async} - ${step.note}`,
    );
  }
  for (const note of plan.notes) lines.push(`      note: ${note}`);
  return lines;
}

/** The full report. */
export function formatEvaluationReport(workload: Workload, evaluation: Evaluation, prices: Prices): string {
  const out: string[] = [`Evaluation of ${workload.name}`, "", "Access patterns"];
  const rows: string[][] = [["id", "plan", "RU (range)", "async RU", "RU/s avg", "RU/s peak"]];
  for (const pattern of evaluation.patterns) {
    const plan = pattern.plan;
    const where = plan.type === "read" ? `${plan.kind} ${plan.container}` : plan.kind;
    rows.push([
      pattern.id,
      `${where}${plan.served ? "" : " (NOT SERVED)"}`,
      `${n1(pattern.ru.estimate)} (${n1(pattern.ru.low)}-${n1(pattern.ru.high)})`,
      n1(pattern.ru.async),
      n0(pattern.rus.avg),
      n0(pattern.rus.peak),
    ]);
  }
  out.push(formatColumns(rows), "", "Plans");
  for (const pattern of evaluation.patterns) out.push(`  ${pattern.id}`, ...describeSteps(pattern));
  out.push("", "Containers");
  const containers: string[][] = [
    [
      "container",
      "partitions",
      "storage GB",
      "RU/s avg",
      "RU/s peak",
      "hottest key RU/s",
      "throughput",
      "$/month",
    ],
  ];
  for (const container of evaluation.containers) {
    const throughput = container.throughput;
    containers.push([
      container.name,
      String(container.physicalPartitions),
      n1(container.storageGB),
      n0(container.rus.avg),
      n0(container.rus.peak),
      n0(container.hottestLogicalPartition.rus),
      throughput.mode === "serverless" ? "serverless" : `${throughput.mode} ${n0(throughput.provisionedRus)}`,
      usd(container.monthlyCostUSD),
    ]);
  }
  out.push(formatColumns(containers), "");
  for (const container of evaluation.containers) {
    out.push(`  ${container.name}: ${container.throughput.reason}`, `    ${container.costBreakdown.formula}`);
  }
  out.push(
    "",
    `Total: ${n0(evaluation.totals.rus.avg)} RU/s average, ${n0(evaluation.totals.rus.peak)} RU/s at peak, ${usd(evaluation.totals.monthlyCostUSD)} per month${evaluation.totals.monthlyCostRange.highUSD - evaluation.totals.monthlyCostRange.lowUSD > 0.005 ? ` (${usd(evaluation.totals.monthlyCostRange.lowUSD)} with autoscale average-billed to ${usd(evaluation.totals.monthlyCostRange.highUSD)} peak-billed; see each container's reason for the assumption)` : ""}`,
    `Prices: ${prices.region}, checked ${prices.checked} (override with --prices FILE)`,
    "",
  );
  return out.join("\n");
}
