import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { evaluateModel } from "../../cost/evaluate.js";
import { projectCost } from "../../cost/projection.js";
import { formatUsd } from "../../common/format-number.js";
import { loadExample } from "../../test-support/evaluate-fixtures.js";
import type { Workload } from "../../workload/types.js";
import { DEFAULT_RU_COEFFICIENTS } from "../../estimator/coefficients.js";
import { escapeHtml } from "../markdown.js";
import { loadVerification } from "./load-verification.js";
import { buildReportData } from "./report-data.js";
import { renderReportHtml, reportScript } from "./report-html.js";
import { findingsSection, nearLimits } from "./report-sections.js";

const { workload, model } = loadExample("blogging");
const evaluation = evaluateModel(workload, model);
const projection = projectCost(workload, model);

describe("renderReportHtml", () => {
  it("inlines the sorting script as its tokens: valid JavaScript, allowed by the page's hash", async () => {
    const script = await reportScript();
    expect(() => new Function(script.source)).not.toThrow();
    expect(script.source).not.toMatch(/\n|\t| {2}/);
    const html = await renderReportHtml(buildReportData({ workload, model, evaluation, projection }));
    expect(html).toContain(`<script>${script.source}</script>`);
    expect(html).toContain(`script-src 'sha256-${script.hash}'`);
  });

  it("shows the evaluation's own figures, and renders the same bytes twice", async () => {
    const data = buildReportData({ workload, model, evaluation, projection });
    const html = await renderReportHtml(data);
    expect(html).toContain(formatUsd(evaluation.totals.monthlyCostUSD));
    // Every pattern row sorts by the evaluation's RU/s at peak.
    for (const pattern of evaluation.patterns) {
      const row = html.split("<tr>").find((r) => r.includes(`<strong>${escapeHtml(pattern.id)}</strong>`));
      expect(row, pattern.id).toContain(`data-sort="${pattern.rus.peak}"`);
    }
    expect(html.match(/<script/g)?.length).toBe(1);
    expect(html).toContain("Content-Security-Policy");
    expect(await renderReportHtml(data)).toBe(html);
  });

  it("escapes every piece of user text", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 1, maxLength: 40 }), async (text) => {
        const hostile = `<script>alert(1)</script>${text}"'&`;
        const named: Workload = {
          ...workload,
          name: hostile,
          description: hostile,
          accessPatterns: workload.accessPatterns.map((p) => ({ ...p, name: hostile })),
        };
        const html = await renderReportHtml(
          buildReportData({ workload: named, model, evaluation, projection, label: hostile }),
        );
        expect(html.match(/<script/g)?.length).toBe(1);
        expect(html).toContain(escapeHtml(hostile));
      }),
      { numRuns: 6 },
    );
  });
});

describe("the projection beside the evaluation", () => {
  it("is made with the evaluation's coefficients and follow-ups: its last month is the evaluation shown, on both sides", () => {
    // A calibrated account whose queries cost twice the defaults, fetched one item at a time.
    const options = {
      coefficients: {
        ...DEFAULT_RU_COEFFICIENTS,
        queryPerPartition: DEFAULT_RU_COEFFICIENTS.queryPerPartition * 2,
        writeBase: DEFAULT_RU_COEFFICIENTS.writeBase * 2,
      },
      coefficientsSource: "a test recording",
      followUps: "perItem" as const,
    };
    const calibrated = evaluateModel(workload, model, options);
    expect(calibrated.totals.monthlyCostUSD).not.toBe(evaluation.totals.monthlyCostUSD);
    const data = buildReportData({
      workload,
      model,
      evaluation: calibrated,
      evaluateOptions: options,
      compare: { label: "the same model", model, evaluation: calibrated },
    });
    const last = data.projection.months.at(-1);
    expect(last?.asModeled.monthlyCostUSD).toBe(calibrated.totals.monthlyCostUSD);
    expect(data.comparison?.months.at(-1)?.b).toBe(calibrated.totals.monthlyCostUSD);
    // Earlier months are evaluated with the same options: with the defaults they would differ.
    const first = data.projection.months[0];
    const defaults = projectCost(workload, model).months[0];
    if (first !== undefined && defaults !== undefined && first.month < (last?.month ?? 0))
      expect(first.asModeled.monthlyCostUSD).not.toBe(defaults.asModeled.monthlyCostUSD);
  });
});

describe("loadVerification", () => {
  it("names the field of a document that is not a verify run", () => {
    const result = loadVerification('{"endpoint": {"kind": "embedded"}, "seed": "x"}', "v.json");
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues.map((i) => i.path)).toContainEqual(["seed"]);
    expect(result.issues.every((i) => i.code === "report.invalidVerification" && i.file === "v.json")).toBe(
      true,
    );
  });
});

describe("the months table", () => {
  it("collapses months whose figures are all the same into one row (issue 29: twelve identical rows)", async () => {
    const still: Workload = {
      ...workload,
      entities: workload.entities.map((entity) => ({ ...entity, growthPerMonth: 0 })),
    };
    const stillEvaluation = evaluateModel(still, model);
    const html = await renderReportHtml(
      buildReportData({
        workload: still,
        model,
        evaluation: stillEvaluation,
        projection: projectCost(still, model),
      }),
    );
    const table = /<table id="months-table">[\s\S]*?<\/table>/.exec(html)?.[0] ?? "";
    const rows = table.match(/<tr><td class="num">/g) ?? [];
    expect(rows).toHaveLength(1);
    expect(table).toContain(`<td class="num">1&ndash;${still.scale.horizonMonths}</td>`);
    // a growing workload keeps a row per month whose figures differ
    const grows: Workload = {
      ...workload,
      entities: workload.entities.map((entity) => ({ ...entity, growthPerMonth: entity.count })),
    };
    const growing = await renderReportHtml(
      buildReportData({
        workload: grows,
        model,
        evaluation: evaluateModel(grows, model),
        projection: projectCost(grows, model),
      }),
    );
    const growingRows = (/<table id="months-table">[\s\S]*?<\/table>/.exec(growing)?.[0] ?? "").match(
      /<tr><td class="num">/g,
    );
    expect(growingRows?.length ?? 0).toBeGreaterThan(1);
  });
});

describe("the findings section", () => {
  const check = (share: number, status: "ok" | "near" | "over") => ({
    value: share * 10_000,
    limit: 10_000,
    share,
    nearShare: 0.7,
    status,
  });
  const row = (status: "ok" | "near") =>
    ({
      evaluation: { name: "posts" },
      hottestLogicalRus: check(status === "near" ? 0.875 : 0.2, status),
      hottestPhysicalRus: check(0.3, "ok"),
      hottestLogicalGB: { ...check(0.1, "ok"), limit: 20 },
      physicalPartitionGB: { value: 1, limit: 50, share: 0.02 },
      issues: [],
    }) as unknown as Parameters<typeof nearLimits>[0][number];

  it("never says nothing to report beside a container near a limit (issue 29)", () => {
    const near = nearLimits([row("near")]);
    expect(near).toEqual(["posts: the hottest logical partition at 87.5% of 10,000 RU/s"]);
    const html = findingsSection([], [], near);
    expect(html).not.toContain("nothing to report");
    expect(html).toContain("Near a limit (not over it): posts: the hottest logical partition at 87.5%");
    expect(findingsSection([], [], nearLimits([row("ok")]))).toContain("nothing to report");
  });
});
