/**
 * `report.html`: one self-contained page (styles, the one script, the diagram and the charts all
 * inline; system fonts) that opens from a file: URL with no network. Its Content-Security-Policy
 * forbids every fetch, so a browser could not load anything even if the page asked.
 *
 * Why these tools: the charts are drawn by Apache ECharts' server-side SVG renderer at build time
 * (a well-kept charting library with decal patterns for reading without colour, and no script
 * needed to view the result); the diagram is laid out by dagre (the layout engine Mermaid itself
 * uses) and drawn as SVG here, because Mermaid's own renderer needs a browser. Sorting is the
 * one thing done in the page: a short typed function (`report-client.ts`) rather than a library,
 * since the page must carry its whole source inline.
 */
import { createHash } from "node:crypto";
import { escapeHtml as h } from "../markdown.js";
import { comparisonCharts, costProjectionChart, loadChartRenderer, patternCostChart } from "./charts.js";
import { renderDiagramSvg } from "./diagram-svg.js";
import { enhanceReport } from "./report-client.js";
import type { ReportData } from "./report-data.js";
import {
  comparisonSection,
  containersSection,
  costSection,
  decisionsSection,
  diagramSection,
  findingsSection,
  nearLimits,
  patternsSection,
  summaryCards,
  verificationSection,
} from "./report-sections.js";
import { REPORT_CSS } from "./report-style.js";

/** The page's script and the hash its Content-Security-Policy allows. */
export interface PageScript {
  readonly source: string;
  readonly hash: string;
}

let pageScript: Promise<PageScript> | undefined;

/**
 * The page's script: the sorting function's own source, called on the document. The source text
 * of a compiled function depends on the compiler (tsc keeps the author's layout, the test
 * runner's transform reprints it), so it is rewritten as its tokens (TypeScript's scanner:
 * comments dropped, one space between tokens): the same page and hash whichever compiled it.
 */
export function reportScript(): Promise<PageScript> {
  pageScript ??= (async () => {
    const ts = (await import("typescript")).default;
    const text = `(${enhanceReport.toString()})(document);`;
    const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, ts.LanguageVariant.Standard, text);
    const tokens: string[] = [];
    for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
      // A regular expression or template literal would need the parser's context to scan.
      if (
        kind === ts.SyntaxKind.SlashToken ||
        kind === ts.SyntaxKind.SlashEqualsToken ||
        kind === ts.SyntaxKind.BacktickToken ||
        kind === ts.SyntaxKind.TemplateHead ||
        kind === ts.SyntaxKind.NoSubstitutionTemplateLiteral
      )
        throw new Error("internal: report-client.ts must not use regular expressions, division or templates");
      tokens.push(scanner.getTokenText());
    }
    const source = tokens.join(" ");
    return { source, hash: createHash("sha256").update(source, "utf8").digest("base64") };
  })();
  return pageScript;
}

/**
 * The report as one HTML document.
 * @example await renderReportHtml(buildReportData({ workload, model, evaluation }))
 */
export async function renderReportHtml(data: ReportData): Promise<string> {
  const render = await loadChartRenderer();
  const script = await reportScript();
  const costChart = costProjectionChart(render, data.projection);
  const patternChart = patternCostChart(render, data.patterns, data.storageUSD);
  const compareCharts = data.comparison === undefined ? [] : comparisonCharts(render, data.comparison);
  const nav = [
    ["diagram", "Diagram"],
    ["patterns", "Access patterns"],
    ["containers", "Containers"],
    ["cost", "Cost over time"],
    ["decisions", "Decisions"],
    ["verify", "Verification"],
    ...(data.comparison === undefined ? [] : [["compare", "Side by side"]]),
    ["findings", "Findings"],
  ];
  const csp = `default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-${script.hash}'; img-src data:; base-uri 'none'; form-action 'none'`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="generator" content="cosmos-modeler">
<title>${h(data.title)}: Cosmos DB data model report</title>
<style>${REPORT_CSS}</style>
</head>
<body>
<header class="top">
<h1>${h(data.title)}</h1>
${data.description === undefined ? "" : `<p>${h(data.description)}</p>`}
<p>Azure Cosmos DB for NoSQL data model report &middot; ${h(data.figures.label)} &middot; prices ${h(data.prices.region)}, checked ${h(data.prices.checked)} &middot; ${data.projection.horizonMonths}-month horizon</p>
</header>
<nav class="toc" aria-label="Sections">${nav.map(([id, label]) => `<a href="#${id}">${label}</a>`).join("")}</nav>
<main>
${summaryCards(data)}
${diagramSection(renderDiagramSvg(data.diagram), data)}
${patternsSection(patternChart, data)}
${containersSection(data)}
${costSection(costChart, data)}
${decisionsSection(data)}
${verificationSection(data)}
${comparisonSection(compareCharts, data)}
${findingsSection(data.issues, data.issueWhere, nearLimits(data.containers))}
</main>
<footer>Generated by cosmos-modeler from the workload, the model and its evaluation: every figure is computed by the planner and the cost model (RU estimates with their range). The page needs no network.</footer>
<script>${script.source}</script>
</body>
</html>
`;
}
