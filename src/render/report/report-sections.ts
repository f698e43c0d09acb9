/**
 * The sections of the HTML report, each a function of the report data returning HTML. Figures are
 * formatted here, never computed: they come from `ReportData`. Every piece of user text (names,
 * descriptions, keys, SQL, findings) passes through `escapeHtml`.
 */
import type { ProjectionEvent } from "../../cost/projection.js";
import type { Decision } from "../../design/search.js";
import type { Issue } from "../../common/issues.js";
import { formatUsd } from "../../common/format-number.js";
import { BYTES_PER_GB } from "../../cosmos/limits.js";
import { describeStep } from "../data-model-patterns.js";
import { gb, ru, ruRange, rus, usd } from "../data-model-context.js";
import { escapeHtml as h, formatNumber, formatPercent } from "../markdown.js";
import type { ContainerRow, LimitGauge, PatternRow, PatternScope, ReportData } from "./report-data.js";

const code = (text: string): string => `<code>${h(text)}</code>`;
const int = (value: number): string => formatNumber(value, 0);

/** A `<th>` whose button sorts its table (numbers right-aligned). */
function th(label: string, numeric = false, html = h(label)): string {
  return `<th scope="col"${numeric ? ' class="num"' : ""}><button type="button">${html}</button></th>`;
}

/**
 * Escaped text that may break after each "/" and before each capital of a camel-case word (a
 * model's path, "singlePartitionQuery"): long tokens wrap in their cell, so a table fits 1,400 px.
 * @example breakable("a/model.yaml") // "a/<wbr>model.yaml"
 */
function breakable(text: string): string {
  return h(text)
    .replace(/\//g, "/<wbr>")
    .replace(/(?<=[a-z])(?=[A-Z])/g, "<wbr>");
}

/** A numeric cell: the formatted text, sorted by the raw value. */
function num(value: number, text: string): string {
  return `<td class="num" data-sort="${Number.isFinite(value) ? value : 0}">${text}</td>`;
}

export function summaryCards(data: ReportData): string {
  const f = data.figures;
  const cards = [
    [
      "Monthly cost",
      usd(f.monthlyCostUSD),
      `at month ${data.projection.horizonMonths}, ${h(data.prices.currency)}${f.monthlyCostRange.highUSD - f.monthlyCostRange.lowUSD > 0.005 ? `; ${usd(f.monthlyCostRange.lowUSD)} to ${usd(f.monthlyCostRange.highUSD)} from autoscale average-billed to peak-billed (the figure: ${h(f.autoscaleBasis ?? "")})` : ""}`,
    ],
    [
      `${data.projection.horizonMonths}-month total`,
      formatUsd(f.horizonCostUSD),
      data.projection.everyMonth ? "sum of the monthly bills" : "from evenly spread months",
    ],
    ["Peak RU/s", int(f.rus.peak), `${int(f.rus.avg)} on average`],
    ["Storage", gb(f.storageGB), `at month ${data.projection.horizonMonths}`],
    ["Containers", int(f.containers), `${int(f.physicalPartitions)} physical partition(s)`],
    ["Findings", `${int(f.errors)} error(s)`, `${int(f.warnings)} warning(s)`],
  ];
  if (data.baseline !== undefined) {
    const saving = data.baseline.monthlyCostUSD - f.monthlyCostUSD;
    cards.push([
      "Versus baseline",
      `${saving >= 0 ? "&minus;" : "+"}${formatUsd(Math.abs(saving))}`,
      `per month against one container per entity (${formatUsd(data.baseline.monthlyCostUSD)})`,
    ]);
  }
  return `<div class="cards">${cards
    .map(
      ([label, value, sub]) =>
        `<div class="card"><div class="label">${label ?? ""}</div><div class="value">${value ?? ""}</div><div class="sub">${sub ?? ""}</div></div>`,
    )
    .join("")}</div>`;
}

export function diagramSection(svg: string, data: ReportData): string {
  const sample = (dash: string, label: string) =>
    `<span><svg width="46" height="10" aria-hidden="true"><line x1="0" y1="5" x2="46" y2="5" stroke="#6e3a8a" stroke-width="2"${dash === "" ? "" : ` stroke-dasharray="${dash}"`}/></svg> ${label}</span>`;
  return `<section id="diagram"><h2>Containers and item types</h2>
<p class="lead">${int(data.diagram.groups.length)} container(s); each box is an item type with its id and partition key templates. Arrows carry data derived from another item type.</p>
<div class="diagram-wrap">${svg}</div>
<div class="legend">${sample("6 4", "change-feed copy of an item type")}${sample("", "attribute copied (denormalized)")}${sample("2 3", "counter kept up to date")}</div>
</section>`;
}

const SCOPE_LABEL: Readonly<Record<PatternScope, string>> = {
  point: "point read",
  singlePartition: "single partition",
  keyPrefix: "key prefix",
  fanOut: "fan-out",
  write: "single partition",
};

function scopeBadge(row: PatternRow): string {
  if (row.scope === "fanOut")
    return `<span class="badge fanout">&#9888; fan-out, ${int(row.partitionsVisited)} partition(s)</span>`;
  if (row.scope === "keyPrefix" && row.partitionsVisited > 1)
    return `<span class="badge single">key prefix, ${int(row.partitionsVisited)} partition(s)</span>`;
  return `<span class="badge ${row.type === "write" ? "write" : "single"}">${SCOPE_LABEL[row.scope]}</span>`;
}

function planCell(row: PatternRow): string {
  const steps = [
    ...row.steps.map((s) => describeStep(s, code)),
    ...row.asyncSteps.map((s) => `async: ${describeStep(s, code)}`),
  ];
  const notes = row.notes.map((n) => `<li class="muted">${h(n)}</li>`).join("");
  return `<td><strong>${breakable(row.planKind)}</strong>${row.served ? "" : ' <span class="badge error">not served</span>'}<details><summary>${int(steps.length)} step(s)</summary><ol class="steps">${steps.map((s) => `<li>${s}</li>`).join("")}${notes}</ol></details></td>`;
}

export function patternsSection(chart: string, data: ReportData): string {
  const rows = data.patterns
    .map(
      (p) =>
        `<tr><td data-sort="${h(p.id)}"><strong>${h(p.id)}</strong><br><span class="muted">${h(p.name)}</span></td>` +
        `<td>${p.type}</td>` +
        num(p.rps.peak, `${formatNumber(p.rps.avg, 2)} / ${formatNumber(p.rps.peak, 2)}`) +
        planCell(p) +
        num(
          p.ru.estimate,
          `${ru(p.ru.estimate)}<br><span class="muted">${ru(p.ru.low)}&ndash;${ru(p.ru.high)}</span>`,
        ) +
        num(p.ru.async, p.ru.async > 0 ? ru(p.ru.async) : "&ndash;") +
        num(p.rus.avg, rus(p.rus.avg)) +
        num(p.rus.peak, rus(p.rus.peak)) +
        num(p.monthlyUSD, usd(p.monthlyUSD)) +
        `<td class="num" data-sort="${p.shareOfBill}"><div class="share"><div class="bar"><span style="width:${Math.min(100, p.shareOfBill * 100).toFixed(1)}%"></span></div>${formatPercent(p.shareOfBill)}</div></td>` +
        `<td data-sort="${p.scope === "fanOut" ? p.partitionsVisited : 0}">${scopeBadge(p)}</td></tr>`,
    )
    .join("\n");
  return `<section id="patterns"><h2>Access patterns</h2>
<p class="lead">What each read and write costs on this model. RU per request is the synchronous request(s) with the estimator's range (request charges from ${h(data.requestCharges)}); async is the change-feed work a write triggers; RU/s include both. The monthly cost divides each container's throughput bill among the patterns that use it, in proportion to the RU/s the bill follows (peak for manual, average for autoscale and serverless); storage (${usd(data.storageUSD)}, ${formatPercent(data.storageShare)}) is shown apart. Click a column to sort.</p>
<figure>${chart}<figcaption>Monthly cost per access pattern and storage, most expensive first.</figcaption></figure>
<div class="table-wrap"><table data-sortable id="patterns-table"><thead><tr>${th("Pattern")}${th("Type")}${th("Requests/s avg / peak", true)}${th("Plan")}${th("RU per request", true)}${th("Async RU", true)}${th("RU/s avg", true)}${th("RU/s peak", true)}${th("Cost/month", true)}${th("Share of bill", true)}${th("Reach")}</tr></thead>
<tbody>
${rows}
</tbody></table></div>
</section>`;
}

/** The bar's style and words for a status (the evaluation's), or for a figure without one. */
function heatState(status: LimitGauge["status"]): { style: string; words: string } {
  switch (status) {
    case "over":
      return { style: "over", words: "over the limit" };
    case "near":
      return { style: "warn", words: "near the limit" };
    case "ok":
      return { style: "ok", words: "within the limit" };
    case undefined:
      return { style: "ok", words: "split by the service before the limit" };
    default:
      return status satisfies never;
  }
}

function heatBar(title: string, gauge: LimitGauge, unit: (v: number) => string, note = ""): string {
  const { style, words } = heatState(gauge.status);
  // The track shows up to 150% of the limit so an overload is visible; the mark is the limit.
  const scale = Math.max(1, Math.min(1.5, gauge.share));
  const width = Math.min(100, (gauge.share / scale) * 100);
  const mark = (1 / scale) * 100;
  return `<div class="heat" role="meter" aria-valuemin="0" aria-valuemax="${gauge.limit}" aria-valuenow="${Math.round(gauge.value * 1000) / 1000}" aria-label="${h(title)}: ${h(unit(gauge.value))}, ${formatPercent(gauge.share)} of ${h(unit(gauge.limit))}, ${words}">
<div class="heat-title"><span>${h(title)}</span><span><span class="state">${gauge.status === "over" ? "&#9888; " : ""}${formatPercent(gauge.share)}</span> of ${unit(gauge.limit)} &middot; ${unit(gauge.value)} &middot; ${words}${note === "" ? "" : `: ${h(note)}`}</span></div>
<div class="track"><div class="fill ${style}" style="width:${width.toFixed(1)}%"></div>${scale > 1 ? `<div class="limit-mark" style="left:${mark.toFixed(1)}%"></div>` : ""}</div></div>`;
}

/** The growth that makes a logical partition near 20 GB, in words (empty when there is none). */
function growthNote(check: ContainerRow["hottestLogicalGB"]): string {
  const growth = check.growth;
  return growth === undefined || growth.hoursToLimit >= growth.withinHours
    ? ""
    : `its ${growth.itemType} partition grows ${gb(growth.gbPerHour)} per hour at peak and would reach ${gb(check.limit)} after ${formatNumber(growth.hoursToLimit, 1)} hours of peak`;
}

function containerCard(row: ContainerRow): string {
  const c = row.evaluation;
  const t = c.throughput;
  const provisioned =
    t.mode === "serverless"
      ? "billed per RU"
      : t.mode === "shared"
        ? "database throughput"
        : `${int(t.provisionedRus)} RU/s${t.mode === "autoscale" ? " maximum" : ""}`;
  const findings = row.issues
    .map((i) => `<li><span class="badge ${i.severity}">${i.severity}</span> ${h(i.message)}</li>`)
    .join("");
  return `<article class="container-card" id="container-${h(c.name)}"><h3>${h(c.name)}</h3>
<div><span class="badge single">${h(t.mode)}</span> ${provisioned}</div>
<p class="reason">${h(t.reason)}</p>
<dl class="facts"><dt>RU/s avg / peak</dt><dd>${rus(c.rus.avg)} / ${rus(c.rus.peak)}</dd>
<dt>Storage</dt><dd>${gb(c.storageGB)}</dd>
<dt>Physical partitions</dt><dd>${int(c.physicalPartitions)}</dd>
<dt>Hottest logical key</dt><dd>${code(c.hottestLogicalPartition.key === "" ? "(spread evenly)" : c.hottestLogicalPartition.key)}</dd>
<dt>Cost per month</dt><dd>${usd(c.monthlyCostUSD)} (throughput ${usd(c.costBreakdown.throughputUSD)}, storage ${usd(c.costBreakdown.storageUSD)})</dd></dl>
${heatBar("Hottest logical partition, RU/s at peak", row.hottestLogicalRus, rus)}
${heatBar("Largest logical partition, storage", row.hottestLogicalGB, gb, growthNote(row.hottestLogicalGB))}
${heatBar("Busiest physical partition, RU/s at peak", row.hottestPhysicalRus, rus)}
${heatBar("Storage per physical partition", row.physicalPartitionGB, gb)}
${findings === "" ? "" : `<ul class="findings">${findings}</ul>`}
<details><summary>Cost formula</summary><p class="note">${h(c.costBreakdown.formula)}</p></details>
</article>`;
}

export function containersSection(data: ReportData): string {
  return `<section id="containers"><h2>Containers</h2>
<p class="lead">Throughput mode and why, load, storage and partitions per container. The heat bars put the hottest logical and physical partitions against the limits of one physical partition (${int(data.limits.physicalPartitionRus)} RU/s, ${int(data.limits.physicalPartitionGB)} GB) and of one logical partition (${int(data.limits.logicalPartitionGB)} GB), with the evaluation's status: solid within the limit, striped near it (from ${formatPercent(data.limits.nearPartitionRusShare, 0)} of a partition's RU/s, from ${formatPercent(data.limits.nearLogicalPartitionGBShare, 0)} of ${int(data.limits.logicalPartitionGB)} GB, or when a partition would reach ${int(data.limits.logicalPartitionGB)} GB within ${int(data.limits.growthWarningHours / 24)} days of peak writes), cross-hatched over it.</p>
<div class="containers">${data.containers.map(containerCard).join("\n")}${gatewayCard(data)}</div>
</section>`;
}

/** The dedicated gateway: its nodes and bill, and each cached read's requests, misses and savings. */
function gatewayCard(data: ReportData): string {
  const g = data.integratedCache;
  if (g === undefined) return "";
  const reads = g.patterns
    .map(
      (p) =>
        `<li>${code(p.id)}: ${formatNumber(p.requests.peak, 2)} requests/s at peak, ${formatNumber(p.misses.peak, 2)} misses/s reach the database (hit ratio ${formatPercent(p.hitRatio.peak, 2)}, answers up to ${int(p.stalenessSeconds)} s old), ${rus(p.rusSaved.peak)} RU/s saved at peak</li>`,
    )
    .join("");
  return `<article class="container-card gateway-card" id="dedicated-gateway"><h3>Dedicated gateway (integrated cache)</h3>
<div><span class="badge single">${int(g.nodes)} x ${h(g.size)}</span> ${int(g.regions)} region(s)</div>
<dl class="facts"><dt>Cache per node</dt><dd>${gb(g.cacheBytesPerNode / BYTES_PER_GB)} (working set ${gb(g.workingSetBytesPerNode / BYTES_PER_GB)})</dd>
<dt>Cost per month</dt><dd>${usd(g.monthlyCostUSD)}</dd></dl>
<ul class="findings">${reads}</ul>
<details><summary>Cost formula</summary><p class="note">${h(g.formula)}; the price per node-hour is an assumption unless --prices gives it</p></details>
</article>`;
}

function describeEvent(event: ProjectionEvent): string {
  switch (event.kind) {
    case "partitionSplit":
      return `${code(event.container)} splits from ${int(event.from)} to ${int(event.to)} physical partitions`;
    case "modeChange":
      return `${code(event.container)}: the cheapest throughput mode becomes ${h(event.to)} (was ${h(event.from)})`;
    case "throughputChange":
      return `${code(event.container)} would need ${int(event.to)} RU/s ${event.mode === "autoscale" ? "maximum " : ""}(${h(event.mode)}), was ${int(event.from)}`;
    case "newFinding":
      return `<span class="badge ${event.issue.severity}">${event.issue.severity}</span> ${h(event.issue.message)}`;
    default:
      return event satisfies never;
  }
}

export function costSection(chart: string, data: ReportData): string {
  const p = data.projection;
  // Months whose figures are all the same as the month before are one row ("1-12").
  const cells = p.months.map(
    (m) =>
      `<td class="num">${gb(m.storageGB)}</td><td class="num">${int(m.physicalPartitions)}</td><td class="num">${rus(m.rus.peak)}</td>` +
      `<td class="num">${usd(m.asModeled.throughputUSD)}</td><td class="num">${usd(m.asModeled.storageUSD)}</td><td class="num"><strong>${usd(m.asModeled.monthlyCostUSD)}</strong></td>` +
      `<td class="num">${usd(m.followingNeed.monthlyCostUSD)}</td><td>${m.followingNeed.containers.map((c) => `${h(c.name)}: ${h(c.mode)}${c.provisionedRus > 0 ? ` ${int(c.provisionedRus)}` : ""}`).join("<br>")}</td>`,
  );
  const runs: { first: number; last: number; cells: string }[] = [];
  p.months.forEach((m, index) => {
    const run = runs.at(-1);
    const row = cells[index] ?? "";
    if (run !== undefined && run.cells === row) run.last = m.month;
    else runs.push({ first: m.month, last: m.month, cells: row });
  });
  const rows = runs
    .map(
      (run) =>
        `<tr><td class="num">${run.first === run.last ? int(run.first) : `${int(run.first)}&ndash;${int(run.last)}`}</td>${run.cells}</tr>`,
    )
    .join("\n");
  const events =
    p.events.length === 0
      ? `<p class="note">Nothing changes over the horizon: no partition splits, no change of throughput mode or size, no new finding.</p>`
      : `<ul class="events">${p.events.map((e) => `<li><strong>Month ${int(e.month)}</strong>: ${describeEvent(e)}</li>`).join("")}</ul>`;
  const growth = p.growth
    .map(
      (g) =>
        `<tr><td>${h(g.entity)}</td><td class="num">${int(g.itemsNow)}</td><td class="num">${int(g.growthPerMonth)}</td><td class="num">${int(g.itemsAtHorizon)}</td><td>${h(g.formula)}</td></tr>`,
    )
    .join("");
  return `<section id="cost"><h2>Cost over ${int(p.horizonMonths)} months</h2>
<p class="lead">Each month is the evaluation of the model on the data it holds at the end of that month (so its storage is an upper bound). <strong>As modeled</strong> keeps the model's throughput settings; <strong>following the need</strong> lets each container take the cheapest allowed mode and size for that month. Total over the horizon: ${usd(p.totalUSD.asModeled)} as modeled, ${usd(p.totalUSD.followingNeed)} following the need${p.everyMonth ? "" : " (evaluated at evenly spread months; each stands for the months before it)"}.</p>
<figure>${chart}<figcaption>Monthly bill: throughput and storage as modeled (bars), and the total if throughput followed the need (dashed line).</figcaption></figure>
<h3>What changes</h3>${events}
<div class="table-wrap"><table id="months-table"><thead><tr><th class="num">Month</th><th class="num">Storage</th><th class="num">Physical partitions</th><th class="num">Peak RU/s</th><th class="num">Throughput</th><th class="num">Storage cost</th><th class="num">Total as modeled</th><th class="num">Total following the need</th><th>Throughput following the need</th></tr></thead><tbody>
${rows}
</tbody></table></div>
<h3>Assumptions</h3>
<ul class="assumptions">
<li>Prices: ${h(data.prices.region)} (${h(data.prices.currency)}, checked ${h(data.prices.checked)}).</li>
${p.billing.map((r) => `<li>${h(r.rule)} (<a href="${h(r.source)}">source</a>)</li>`).join("\n")}
<li>Request rates stay as the workload gives them; the data grows as below.</li>
</ul>
<div class="table-wrap"><table id="growth-table"><thead><tr><th>Entity</th><th class="num">Items now</th><th class="num">New per month</th><th class="num">Items at month ${int(p.horizonMonths)}</th><th>Formula</th></tr></thead><tbody>${growth}</tbody></table></div>
</section>`;
}

function decisionBlock(decision: Decision): string {
  const alternatives =
    decision.alternatives.length === 0
      ? ""
      : `<div class="table-wrap"><table><thead><tr><th>Alternative</th><th class="num">Peak RU/s</th><th class="num">Monthly cost</th><th class="num">Hard-limit errors</th></tr></thead><tbody>${decision.alternatives
          .map(
            (a) =>
              `<tr><td>${a.name === decision.chosen ? "<strong>&#10003; chosen:</strong> " : ""}${h(a.name)}</td><td class="num">${int(a.rusPeak)}</td><td class="num">${usd(a.monthlyCostUSD)}</td><td class="num">${int(a.errors)}</td></tr>`,
          )
          .join("")}</tbody></table></div>`;
  return `<details class="decision"><summary><strong>${h(decision.title)}</strong> &rarr; ${h(decision.chosen)}</summary><p class="note">${h(decision.why)}</p>${alternatives}</details>`;
}

export function decisionsSection(data: ReportData): string {
  if (data.decisions.length === 0 && data.baseline === undefined) {
    return `<section id="decisions"><h2>Decisions</h2><p class="note">This model was evaluated as given; no design decisions were recorded (the design command records them).</p></section>`;
  }
  const f = data.figures;
  const baseline =
    data.baseline === undefined
      ? ""
      : `<h3>Compared with the baseline (one container per entity, keyed by its key)</h3>
<div class="table-wrap"><table id="baseline-table"><thead><tr><th></th><th class="num">Monthly cost</th><th class="num">Peak RU/s</th><th class="num">Hard-limit errors</th></tr></thead><tbody>
<tr><td>Baseline</td><td class="num">${usd(data.baseline.monthlyCostUSD)}</td><td class="num">${int(data.baseline.rusPeak)}</td><td class="num">${int(data.baseline.errors)}</td></tr>
<tr><td><strong>This design</strong></td><td class="num"><strong>${usd(f.monthlyCostUSD)}</strong></td><td class="num"><strong>${int(f.rus.peak)}</strong></td><td class="num"><strong>${int(f.errors)}</strong></td></tr>
</tbody></table></div>`;
  return `<section id="decisions"><h2>Decisions</h2>
<p class="lead">Every choice of the design search with the alternatives it priced (open one to see them).</p>
${baseline}
<h3>${int(data.decisions.length)} decision(s)</h3>
${data.decisions.map(decisionBlock).join("\n")}
</section>`;
}

export function verificationSection(data: ReportData): string {
  const v = data.verification;
  if (v === undefined) {
    return `<section id="verify"><h2>Verification</h2><p class="note">No verify run is included. Run <code>cosmos-modeler verify WORKLOAD MODEL --json &gt; verification.json</code> and pass <code>--verification verification.json</code> (or run <code>verify --html FILE</code>) to show its results here.</p></section>`;
  }
  const rows = v.patterns
    .map(
      (p) =>
        `<tr><td><strong>${h(p.patternId)}</strong><br><span class="muted">${h(p.name)}</span></td><td>${p.type}</td><td><span class="badge ${p.status}">${p.status === "passed" ? "&#10003; passed" : p.status === "failed" ? "&#10007; failed" : "not checkable"}</span>${p.detail === undefined ? "" : `<br><span class="muted">${h(p.detail)}</span>`}</td>` +
        `<td class="num">${int(p.requests)}</td><td class="num">${p.results === undefined ? "&ndash;" : int(p.results)}</td><td class="num">${ruRange(p.estimatedRu)}</td>` +
        `<td class="num">${p.measuredRu === undefined ? "not measured" : `${ru(p.measuredRu)} RU${p.ruVersusEstimate === undefined ? "" : ` (${p.ruVersusEstimate})`}`}</td>` +
        `<td class="num">${p.latencyMs === undefined ? "&ndash;" : `${formatNumber(p.latencyMs.p50, 1)} / ${formatNumber(p.latencyMs.max, 1)} ms`}</td></tr>`,
    )
    .join("\n");
  return `<section id="verify"><h2>Verification</h2>
<p class="lead">A verify run on ${v.endpoint.kind === "embedded" ? "the embedded endpoint (flat 1 RU charges, so request charges are not measured there)" : "a real Cosmos DB account"}, seed ${int(v.seed)}: <strong>${int(v.counts.passed)} passed</strong>, ${int(v.counts.failed)} failed, ${int(v.counts.notCheckable)} not checkable &mdash; ${v.ok ? "the model passed" : "the model failed"}.</p>
<div class="table-wrap"><table data-sortable id="verify-table"><thead><tr>${th("Pattern")}${th("Type")}${th("Result")}${th("Requests", true)}${th("Results expected", true)}${th("Estimated RU", true)}${th("Measured RU", true)}${th("Latency p50 / max", true)}</tr></thead><tbody>
${rows}
</tbody></table></div>
${v.outOfScope.length === 0 ? "" : `<p class="note">No verify run checks: ${v.outOfScope.map(h).join("; ")}.</p>`}
</section>`;
}

export function comparisonSection(charts: readonly string[], data: ReportData): string {
  const c = data.comparison;
  if (c === undefined) return "";
  const delta = (a: number, b: number, text: (v: number) => string) =>
    b === a
      ? "same"
      : `<span class="${b < a ? "delta-down" : "delta-up"}">${b < a ? "&minus;" : "+"}${text(Math.abs(b - a))}</span>`;
  const figures: readonly [string, number, number, (v: number) => string][] = [
    ["Monthly cost", c.a.monthlyCostUSD, c.b.monthlyCostUSD, usd],
    [`${int(data.projection.horizonMonths)}-month total`, c.a.horizonCostUSD, c.b.horizonCostUSD, usd],
    ["Peak RU/s", c.a.rus.peak, c.b.rus.peak, int],
    ["Average RU/s", c.a.rus.avg, c.b.rus.avg, int],
    ["Storage", c.a.storageGB, c.b.storageGB, gb],
    ["Containers", c.a.containers, c.b.containers, int],
    ["Physical partitions", c.a.physicalPartitions, c.b.physicalPartitions, int],
    ["Hard-limit errors", c.a.errors, c.b.errors, int],
  ];
  const side = (x: { planKind: string; ru: number; rusPeak: number; monthlyUSD: number } | undefined) =>
    x === undefined
      ? `<td colspan="4" class="muted">not evaluated</td>`
      : `<td>${breakable(x.planKind)}</td>${num(x.ru, ru(x.ru))}${num(x.rusPeak, rus(x.rusPeak))}${num(x.monthlyUSD, usd(x.monthlyUSD))}`;
  return `<section id="compare"><h2>Side by side: ${h(c.a.label)} and ${h(c.b.label)}</h2>
<div class="table-wrap"><table id="compare-figures"><thead><tr><th></th><th class="num">${breakable(c.a.label)}</th><th class="num">${breakable(c.b.label)}</th><th class="num">Difference</th></tr></thead><tbody>
${figures.map(([label, a, b, text]) => `<tr><td>${label}</td><td class="num">${text(a)}</td><td class="num">${text(b)}</td><td class="num">${delta(a, b, text)}</td></tr>`).join("\n")}
</tbody></table></div>
<div class="compare-grid"><figure>${charts[0] ?? ""}<figcaption>Peak RU/s per access pattern.</figcaption></figure><figure>${charts[1] ?? ""}<figcaption>Monthly bill over the horizon, as modeled.</figcaption></figure></div>
<div class="table-wrap"><table data-sortable id="compare-table"><thead><tr>${th("Pattern")}${th("", false, `Plan (${breakable(c.a.label)})`)}${th("RU per request incl. async", true)}${th("RU/s peak", true)}${th("Cost/month", true)}${th("", false, `Plan (${breakable(c.b.label)})`)}${th("RU per request incl. async", true)}${th("RU/s peak", true)}${th("Cost/month", true)}</tr></thead><tbody>
${c.patterns.map((p) => `<tr><td data-sort="${h(p.id)}"><strong>${h(p.id)}</strong><br><span class="muted">${h(p.name)}</span></td>${side(p.a)}${side(p.b)}</tr>`).join("\n")}
</tbody></table></div>
</section>`;
}

/**
 * The figures of the containers near a limit (status "near": over its share of the limit, under
 * the limit), in words: a report whose findings are empty still says them (issue 29: a partition
 * at 87.5% under "nothing to report").
 * @example nearLimits(data.containers) // ["posts: the hottest logical partition at 87.5% of 10,000 RU/s"]
 */
export function nearLimits(containers: readonly ContainerRow[]): string[] {
  return containers.flatMap((row) => {
    const name = row.evaluation.name;
    const checks: readonly [string, LimitGauge, string][] = [
      ["the hottest logical partition", row.hottestLogicalRus, "RU/s"],
      ["the hottest physical partition", row.hottestPhysicalRus, "RU/s"],
      ["the largest logical partition", row.hottestLogicalGB, "GB"],
      ["a physical partition's data", row.physicalPartitionGB, "GB"],
    ];
    const growth = row.hottestLogicalGB.growth;
    return checks
      .filter(([, gauge]) => gauge.status === "near")
      .map(([what, gauge, unit]) =>
        // A logical partition near its size limit by the rate it grows at, not by what it holds now.
        gauge === row.hottestLogicalGB && growth !== undefined
          ? `${name}: ${what} would reach ${formatNumber(gauge.limit, 0)} ${unit} within ${formatNumber(growth.hoursToLimit, 0)} hours of ${growth.itemType} writes at the peak rate`
          : `${name}: ${what} at ${formatPercent(gauge.share)} of ${formatNumber(gauge.limit, 0)} ${unit}`,
      );
  });
}

export function findingsSection(
  issues: readonly Issue[],
  where: readonly string[],
  near: readonly string[] = [],
): string {
  const order = { error: 0, warning: 1, info: 2 } as const;
  const sorted = issues
    .map((issue, index) => ({ ...issue, where: where[index] ?? "" }))
    .sort((a, b) => order[a.severity] - order[b.severity]);
  const nearNote =
    near.length === 0 ? "" : `<p class="note">Near a limit (not over it): ${near.map(h).join("; ")}.</p>`;
  return `<section id="findings"><h2>Findings</h2>${nearNote}${
    sorted.length === 0
      ? near.length === 0
        ? `<p class="note">The evaluation found nothing to report: every pattern is served within the limits.</p>`
        : `<p class="note">No errors or warnings: every pattern is served within the limits, the figures above near them.</p>`
      : `<ul class="findings">${sorted
          .map(
            (i) =>
              `<li><span class="badge ${i.severity}">${i.severity}</span> ${code(i.code)} ${i.where === "" ? "" : `${code(i.where)} `}${h(i.message)}${i.suggestion === undefined ? "" : ` <span class="muted">(${h(i.suggestion)})</span>`}</li>`,
          )
          .join("")}</ul>`
  }</section>`;
}
