/**
 * The capacity section of `cosmosdb_data_model.md`: the account's capacity mode with its reason,
 * the one traffic assumption every mode is compared on, the comparison table (manual vs
 * autoscale with its range vs serverless, per container and for the account), the range of the
 * total, and the term that separates the patterns' RU/s from the containers'.
 */
import type { ContainerEvaluation, Evaluation } from "../cost/evaluation-types.js";
import {
  bulletList,
  escapeMarkdownText as e,
  escapeTableCell as cell,
  formatNumber,
  table,
} from "./markdown.js";
import { code, rus, usd } from "./data-model-context.js";

type Option = ContainerEvaluation["throughputOptions"][number];
type Mode = Option["mode"];

const MODES: readonly Mode[] = ["manual", "autoscale", "serverless"];

/** The option of `mode`, if priced. */
const optionOf = (c: ContainerEvaluation, mode: Mode): Option | undefined =>
  c.throughputOptions.find((o) => o.mode === mode);

/** A mode's figure in a table cell (escaped): its cost and provisioned RU/s, or "not possible". */
function optionCell(o: Option | undefined, chosen: boolean): string {
  if (o === undefined) return "-";
  if (!o.allowed) return "not possible (see below)";
  const figure = cell(
    `${usd(o.monthlyThroughputUSD)}${o.mode === "serverless" ? "" : ` at ${formatNumber(o.provisionedRus, 0)} RU/s, ${formatNumber(o.physicalPartitions, 0)} partition(s)`}`,
  );
  return chosen ? `**${figure}**` : figure;
}

/** Autoscale's range and where manual wins, in a cell. */
function rangeCell(o: Option | undefined): string {
  if (o?.range === undefined) return "-";
  const breakEven = o.range.manualCheaperAbovePeakHours;
  return `${usd(o.range.lowUSD)} to ${usd(o.range.highUSD)}${breakEven === undefined ? "" : `; manual cheaper over ${formatNumber(breakEven, 1)} peak h/day`}`;
}

/** The account's row: each mode summed over the containers, when every container can use it. */
function accountRow(evaluation: Evaluation): string[] {
  const sum = (mode: Mode): string => {
    const options = evaluation.containers.map((c) => optionOf(c, mode));
    if (options.some((o) => o === undefined || !o.allowed)) return "not possible";
    return usd(options.reduce((total, o) => total + (o?.monthlyThroughputUSD ?? 0), 0));
  };
  const ranges = evaluation.containers.map((c) => optionOf(c, "autoscale")?.range);
  const range = ranges.every((r) => r !== undefined)
    ? `${usd(ranges.reduce((t, r) => t + r.lowUSD, 0))} to ${usd(ranges.reduce((t, r) => t + r.highUSD, 0))}`
    : "-";
  const chosen = evaluation.containers.reduce((t, c) => t + c.costBreakdown.throughputUSD, 0);
  return ["**Account**", sum("manual"), sum("autoscale"), range, sum("serverless"), `**${usd(chosen)}**`];
}

/** The comparison table and the reasons a mode is not possible. */
function comparisonTable(evaluation: Evaluation): string[] {
  const rows = evaluation.containers.map((c) => {
    const chosenMode = c.throughput.mode === "shared" ? "manual" : c.throughput.mode;
    return [
      code(c.name),
      ...MODES.slice(0, 2).map((m) => optionCell(optionOf(c, m), m === chosenMode)),
      cell(rangeCell(optionOf(c, "autoscale"))),
      optionCell(optionOf(c, "serverless"), chosenMode === "serverless"),
      `${c.throughput.mode} ${usd(c.costBreakdown.throughputUSD)}`,
    ];
  });
  const blocked = evaluation.containers.flatMap((c) =>
    c.throughputOptions
      .filter((o) => !o.allowed)
      .map((o) => `${code(c.name)} ${o.mode} is not possible: ${e(o.why)}`),
  );
  return [
    table(
      [
        "Container",
        "Manual",
        "Autoscale",
        "Autoscale range (average-billed to peak-billed)",
        "Serverless",
        "Chosen",
      ],
      [...rows, accountRow(evaluation)],
    ),
    "",
    ...(blocked.length === 0 ? [] : [bulletList(blocked), ""]),
  ];
}

/** The assumption each column uses, from the options' typed bases. */
function assumptions(evaluation: Evaluation): string {
  const basisOf = (mode: Mode): string | undefined =>
    evaluation.containers.flatMap((c) => optionOf(c, mode)?.basis.description ?? []).find(() => true);
  const parts = MODES.flatMap((m) => {
    const basis = basisOf(m);
    return basis === undefined ? [] : [`${m}: ${e(basis)}`];
  });
  return `**Modes compared on one assumption**: ${parts.join("; ")}. Each mode is priced on its own partition layout; the account's capacity mode is chosen on these same figures.`;
}

/**
 * The capacity section: mode and reason, assumption, comparison table, the total's range, and the
 * change-feed term that separates the patterns' RU/s from the containers'.
 * @example renderCapacity(evaluation).join("\n")
 */
export function renderCapacity(evaluation: Evaluation): string[] {
  const { totals } = evaluation;
  const aggregated = evaluation.patterns.reduce(
    (sum, p) => sum + p.rusBreakdown.aggregatedChangeFeed.peak,
    0,
  );
  const spread = totals.monthlyCostRange.highUSD - totals.monthlyCostRange.lowUSD > 0.005;
  return [
    `**Capacity mode (one per account)**: ${e(evaluation.account.reason)}.`,
    "",
    assumptions(evaluation),
    "",
    "Throughput per month in each mode (the chosen figure in bold):",
    "",
    ...comparisonTable(evaluation),
    ...(spread
      ? [
          `The total of ${usd(totals.monthlyCostUSD)} a month ranges from ${usd(totals.monthlyCostRange.lowUSD)} (autoscale average-billed: each hour at the average rate) to ${usd(totals.monthlyCostRange.highUSD)} (autoscale peak-billed: every hour reaches the peak); a traffic profile in the workload (\`scale.trafficProfile\`) replaces the assumption with the actual day.`,
          "",
        ]
      : []),
    ...(aggregated > 0
      ? [
          `The access patterns' RU/s add up to the containers' load once the change-feed updates summed per parent are taken off: ${rus(aggregated)} at peak never reach the database (see the pattern table).`,
          "",
        ]
      : []),
  ];
}
