/**
 * The report's stylesheet, inlined into the page: system fonts only (nothing to download), a
 * layout for screens and one for print (A4/Letter, no navigation, sections kept whole where they
 * fit), and heat bars and badges that carry their meaning in text and patterns, not colour alone.
 */
import { FONT_STACK } from "./charts.js";

export const REPORT_CSS = `
:root { color-scheme: light; --ink: #1b1f24; --muted: #57606a; --line: #d0d7de; --panel: #f6f8fa;
  --accent: #0072B2; --ok: #1a7f37; --warn: #9a6700; --bad: #cf222e; }
* { box-sizing: border-box; }
html { font-family: ${FONT_STACK}; font-size: 15px; color: var(--ink); background: #fff; }
body { margin: 0; line-height: 1.45; }
header.top { background: linear-gradient(135deg, #0b3d62, #0072B2); color: #fff; padding: 28px 40px 22px; }
header.top h1 { margin: 0 0 4px; font-size: 1.8rem; font-weight: 650; }
header.top p { margin: 2px 0; opacity: .92; max-width: 80ch; }
nav.toc { position: sticky; top: 0; z-index: 2; background: #fff; border-bottom: 1px solid var(--line);
  padding: 8px 40px; display: flex; flex-wrap: wrap; gap: 6px 18px; font-size: .92rem; }
nav.toc a { color: var(--accent); text-decoration: none; }
nav.toc a:hover, nav.toc a:focus { text-decoration: underline; }
main { padding: 8px 40px 40px; max-width: 1600px; }
section { margin-top: 34px; }
h2 { font-size: 1.35rem; border-bottom: 2px solid var(--line); padding-bottom: 4px; margin: 0 0 12px; }
h3 { font-size: 1.08rem; margin: 18px 0 8px; }
p.lead, p.note { color: var(--muted); max-width: 100ch; margin: 4px 0 12px; }
code { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: .86em;
  background: var(--panel); border: 1px solid #e4e8ec; border-radius: 4px; padding: 0 3px; word-break: break-word; }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(190px, 1fr)); gap: 12px; margin: 18px 0 4px; }
.card { border: 1px solid var(--line); border-radius: 10px; padding: 12px 14px; background: #fff; }
.card .label { font-size: .8rem; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
.card .value { font-size: 1.45rem; font-weight: 650; margin-top: 2px; }
.card .sub { font-size: .85rem; color: var(--muted); }
figure { margin: 8px 0 16px; }
figure svg { max-width: 100%; height: auto; display: block; }
figcaption { font-size: .88rem; color: var(--muted); margin-top: 6px; }
.diagram-wrap { overflow-x: auto; border: 1px solid var(--line); border-radius: 10px; padding: 10px; background: #fbfcfd; }

.diagram-wrap svg { max-width: 100%; height: auto; display: block; margin: 0 auto; }
.dg-container { fill: #eef5fb; stroke: #0b3d62; stroke-width: 1.5; }
.dg-container-name { font-weight: 700; fill: #0b3d62; }
.dg-item-box { fill: #fff; stroke: #57606a; stroke-width: 1; }
.dg-item-name { font-weight: 700; fill: var(--ink); }
.dg-line { fill: var(--muted); }
.dg-edge-line { stroke: #6e3a8a; stroke-width: 1.6; }
.dg-arrow { fill: #6e3a8a; }
.dg-edge-label-bg { fill: #fff; stroke: #d8c6e4; }
.dg-edge-label { fill: #4a2360; font-size: 11px; }
.legend { display: flex; flex-wrap: wrap; gap: 6px 20px; font-size: .85rem; color: var(--muted); margin-top: 8px; }
.legend svg { vertical-align: middle; }
.table-wrap { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; font-size: .86rem; margin: 6px 0 14px; }
th, td { border-bottom: 1px solid var(--line); padding: 5px 6px; text-align: left; vertical-align: top; }
/* Headers wrap between words (a table fits 1,400 px: issue 29); numbers never wrap. */
thead th { background: var(--panel); font-weight: 600; position: relative; vertical-align: bottom; }
#patterns-table td:first-child, #compare-table td:first-child, #verify-table td:first-child { min-width: 160px; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
th button { font: inherit; font-weight: 600; background: none; border: 0; padding: 0; cursor: pointer; color: inherit; }
th button::after { content: " \\2195"; color: var(--muted); font-weight: 400; }
th[aria-sort="ascending"] button::after { content: " \\2191"; color: var(--ink); }
th[aria-sort="descending"] button::after { content: " \\2193"; color: var(--ink); }
tbody tr:hover { background: #fafbfc; }
.badge { display: inline-block; border-radius: 999px; padding: 1px 8px; font-size: .78rem; font-weight: 600;
  border: 1px solid currentColor; white-space: nowrap; }
.badge.single { color: var(--ok); }
.badge.fanout { color: var(--bad); background: repeating-linear-gradient(45deg, #fff, #fff 3px, #fde7e9 3px, #fde7e9 6px); }
.badge.write { color: #3d4a57; }
.badge.error { color: var(--bad); }
.badge.warning { color: var(--warn); }
.badge.info { color: var(--muted); }
.badge.passed { color: var(--ok); }
.badge.failed { color: var(--bad); }
.badge.notCheckable { color: var(--muted); }
.share { display: flex; align-items: center; gap: 6px; min-width: 96px; }
.share .bar { flex: 1; height: 10px; border: 1px solid #9fb3c8; border-radius: 3px; background: #fff; overflow: hidden; }
.share .bar span { display: block; height: 100%; background: repeating-linear-gradient(90deg, #0072B2, #0072B2 4px, #3d8fc6 4px, #3d8fc6 6px); }
details { margin: 2px 0; }
details summary { cursor: pointer; color: var(--accent); }
ol.steps { margin: 4px 0 0 18px; padding: 0; font-size: .86rem; }
.containers { display: grid; grid-template-columns: repeat(auto-fill, minmax(420px, 1fr)); gap: 14px; }
.container-card { border: 1px solid var(--line); border-radius: 10px; padding: 14px 16px; break-inside: avoid; }
.container-card h3 { margin: 0 0 2px; }
.container-card .reason { font-size: .84rem; color: var(--muted); margin: 6px 0 10px; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 14px; margin: 8px 0; font-size: .9rem; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; font-variant-numeric: tabular-nums; }
.heat { margin: 8px 0; }
.heat .heat-title { font-size: .84rem; display: flex; justify-content: space-between; gap: 8px; }
.heat .track { position: relative; height: 16px; border: 1px solid #8c959f; border-radius: 4px; background: #fff; overflow: hidden; }
.heat .fill { position: absolute; left: 0; top: 0; bottom: 0; }
.heat .fill.ok { background: #2da44e; }
.heat .fill.warn { background: repeating-linear-gradient(45deg, #bf8700, #bf8700 4px, #f2cc60 4px, #f2cc60 8px); }
.heat .fill.over { background: repeating-linear-gradient(45deg, #a40e26, #a40e26 3px, #ff8182 3px, #ff8182 6px),
  repeating-linear-gradient(-45deg, #a40e26, #a40e26 3px, transparent 3px, transparent 6px); }
.heat .limit-mark { position: absolute; top: -2px; bottom: -2px; width: 2px; background: var(--ink); }
.heat .state { font-weight: 600; }
.events li, .findings li { margin: 3px 0; }
.assumptions li { margin: 3px 0; }
.compare-grid { display: grid; grid-template-columns: 1fr; gap: 14px; }
.muted { color: var(--muted); }
.delta-down { color: var(--ok); }
.delta-up { color: var(--bad); }
footer { margin: 40px; color: var(--muted); font-size: .85rem; }
@media (max-width: 760px) { main, header.top, nav.toc { padding-left: 14px; padding-right: 14px; }
  .containers, .compare-grid { grid-template-columns: 1fr; } }
@media print {
  @page { margin: 14mm; }
  html { font-size: 11px; }
  nav.toc, th button::after { display: none; }
  header.top { background: none; color: var(--ink); padding: 0 0 8px; border-bottom: 2px solid var(--ink); }
  main { padding: 0; max-width: none; }
  section { break-inside: auto; }
  figure, .card, .container-card, tr, .heat { break-inside: avoid; }
  h2, h3 { break-after: avoid; }
  .diagram-wrap { overflow: visible; border: 0; }
  .diagram-wrap svg { max-width: 100%; height: auto; }
  .table-wrap { overflow: visible; }
  details { display: block; }
  details > summary { list-style: none; color: var(--ink); }
  a { color: inherit; }
  * { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
}
`;
