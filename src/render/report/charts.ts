/**
 * The report's charts, drawn at build time by Apache ECharts' server-side SVG renderer
 * (`renderToSVGString`): no browser, no script and no network when the report is opened, and
 * the SVG prints. ECharts is loaded on first use only (it takes a few hundred milliseconds), so
 * commands that write no report never pay for it. Series carry decal patterns (ECharts' `aria`
 * decals) and value labels, so the charts read without colour. Every value comes from the report
 * data; series names pass through ECharts, which escapes text in its SVG output.
 */
import type { EChartsCoreOption } from "echarts/core";
import { escapeControlCharacters } from "../../common/safe-text.js";
import type { CostProjection } from "../../cost/projection.js";
import type { Comparison, PatternRow } from "./report-data.js";

/** Renders one chart option to an SVG string. */
export type ChartRenderer = (
  id: string,
  option: EChartsCoreOption,
  size: { width: number; height: number },
) => string;

/** The system font stack of the report (no web font is downloaded). */
export const FONT_STACK =
  'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", "Liberation Sans", sans-serif';

/** Colour-blind-safe palette (Okabe-Ito); the decals carry the distinction without colour. */
const PALETTE = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000"];

let loaded: Promise<ChartRenderer> | undefined;

/**
 * zrender numbers its instances, classes, patterns and clip paths with counters that run for the
 * whole process: renumbered per chart in order of appearance, under the chart's own id, the same
 * chart is the same text every time.
 */
function stableIds(svg: string, id: string): string {
  const seen = new Map<string, string>();
  const perKind = new Map<string, number>();
  return svg.replace(/\bzr\d+-([a-z]+-?)(\d+)/g, (whole, kind: string) => {
    let stable = seen.get(whole);
    if (stable === undefined) {
      const next = perKind.get(kind) ?? 0;
      perKind.set(kind, next + 1);
      stable = `${id}-${kind}${next}`;
      seen.set(whole, stable);
    }
    return stable;
  });
}

/** Loads ECharts (core, bar and line charts, grid, legend, aria, the SVG renderer) once and returns a renderer. */
export function loadChartRenderer(): Promise<ChartRenderer> {
  loaded ??= (async () => {
    const echarts = await import("echarts/core");
    // Each part registers itself when imported (echarts-parts.d.ts): only what the report draws.
    await Promise.all([
      import("echarts/lib/chart/bar"),
      import("echarts/lib/chart/line"),
      import("echarts/lib/component/grid"),
      import("echarts/lib/component/legend"),
      import("echarts/lib/component/aria"),
    ]);
    const renderers = await import("echarts/renderers");
    echarts.use([renderers.SVGRenderer]);
    return (id, option, size) => {
      const chart = echarts.init(null, null, { renderer: "svg", ssr: true, ...size });
      try {
        chart.setOption(option);
        return stableIds(chart.renderToSVGString(), id);
      } finally {
        chart.dispose();
      }
    };
  })();
  return loaded;
}

const usd = (value: number): string =>
  `$${value.toLocaleString("en-US", { maximumFractionDigits: value >= 100 ? 0 : 2 })}`;
const integer = (value: number): string => Math.round(value).toLocaleString("en-US");

const base = {
  animation: false,
  color: PALETTE,
  textStyle: { fontFamily: FONT_STACK, fontSize: 12 },
  aria: { enabled: true, decal: { show: true } },
};

/** Monthly bill over the horizon: throughput and storage as modeled, and the total following the need. */
export function costProjectionChart(render: ChartRenderer, projection: CostProjection): string {
  const months = projection.months.map((m) => `M${m.month}`);
  const showLabels = projection.months.length <= 12;
  const option = {
    ...base,
    legend: { top: 0, itemWidth: 22, itemHeight: 14, itemGap: 40 },
    grid: { left: 70, right: 20, top: 40, bottom: 30 },
    xAxis: { type: "category", data: months },
    yAxis: { type: "value", axisLabel: { formatter: (v: number) => usd(v) } },
    series: [
      {
        name: "Throughput (as modeled)",
        type: "bar",
        stack: "modeled",
        data: projection.months.map((m) => m.asModeled.throughputUSD),
      },
      {
        name: "Storage (as modeled)",
        type: "bar",
        stack: "modeled",
        data: projection.months.map((m) => m.asModeled.storageUSD),
        label: {
          show: showLabels,
          position: "top",
          formatter: (p: { dataIndex: number }) =>
            usd(projection.months[p.dataIndex]?.asModeled.monthlyCostUSD ?? 0),
        },
      },
      {
        name: "Total if throughput followed the need",
        type: "line",
        symbol: "diamond",
        symbolSize: 9,
        lineStyle: { type: "dashed", width: 2 },
        data: projection.months.map((m) => m.followingNeed.monthlyCostUSD),
      },
    ],
  };
  return render("chart-cost", option, { width: 900, height: 340 });
}

/** Monthly throughput cost attributed to each pattern (most expensive first), and storage. */
export function patternCostChart(
  render: ChartRenderer,
  patterns: readonly PatternRow[],
  storageUSD: number,
): string {
  const rows = [
    ...patterns.map((p) => ({ label: shown(p.id), usd: p.monthlyUSD, share: p.shareOfBill })),
    { label: "storage", usd: storageUSD, share: Number.NaN },
  ].sort((x, y) => y.usd - x.usd);
  const ordered = [...rows].reverse();
  const option = {
    ...base,
    grid: { left: 110, right: 110, top: 10, bottom: 30 },
    xAxis: { type: "value", axisLabel: { formatter: (v: number) => usd(v) } },
    yAxis: { type: "category", data: ordered.map((r) => r.label) },
    series: [
      {
        name: "Monthly cost",
        type: "bar",
        data: ordered.map((r) => r.usd),
        label: {
          show: true,
          position: "right",
          formatter: (p: { dataIndex: number }) => usd(ordered[p.dataIndex]?.usd ?? 0),
        },
      },
    ],
  };
  return render("chart-patterns", option, { width: 900, height: Math.max(140, 40 + rows.length * 26) });
}

/** Two models side by side: peak RU/s per pattern, and the monthly bill over the horizon. */
export function comparisonCharts(render: ChartRenderer, comparison: Comparison): readonly string[] {
  const names = [shown(comparison.a.label), shown(comparison.b.label)];
  const patterns = comparison.patterns;
  const perPattern = {
    ...base,
    legend: { top: 0, itemGap: 40 },
    grid: { left: 70, right: 20, top: 40, bottom: 30 },
    xAxis: { type: "category", data: patterns.map((p) => shown(p.id)) },
    yAxis: { type: "value", name: "RU/s at peak", axisLabel: { formatter: (v: number) => integer(v) } },
    series: [
      { name: names[0], type: "bar", data: patterns.map((p) => p.a?.rusPeak ?? 0) },
      { name: names[1], type: "bar", data: patterns.map((p) => p.b?.rusPeak ?? 0) },
    ],
  };
  const months = {
    ...base,
    legend: { top: 0, itemGap: 40 },
    grid: { left: 70, right: 20, top: 40, bottom: 30 },
    xAxis: { type: "category", data: comparison.months.map((m) => `M${m.month}`) },
    yAxis: { type: "value", axisLabel: { formatter: (v: number) => usd(v) } },
    series: [
      {
        name: names[0],
        type: "line",
        symbol: "circle",
        symbolSize: 8,
        data: comparison.months.map((m) => m.a),
      },
      {
        name: names[1],
        type: "line",
        symbol: "triangle",
        symbolSize: 9,
        lineStyle: { type: "dashed" },
        data: comparison.months.map((m) => m.b),
      },
    ],
  };
  return [
    render("chart-compare-patterns", perPattern, { width: 900, height: 320 }),
    render("chart-compare-months", months, { width: 900, height: 300 }),
  ];
}

/** A name from the user as a chart label: ECharts escapes markup, not control characters. */
function shown(name: string): string {
  return escapeControlCharacters(name);
}
