/**
 * The HTML report in a real browser: the built CLI writes the blogging example's report
 * (`design --out`) and a side-by-side one (`evaluate --html --compare`); headless Chromium opens
 * them from file: URLs. Any JavaScript error or console error fails; the diagram, the charts and
 * the tables must be drawn (element sizes and non-blank pixels of their screenshots); the tables
 * sort; print media hides the navigation; and with the network disabled the page loads exactly
 * one resource, itself, from a file: URL. At 1,400 px nothing scrolls sideways, and no edge label
 * of the diagram covers another label, an item type's card or a container's title (issue 29),
 * in the reports of every example's design and expert model.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Browser, Page } from "playwright-core";
import { PNG } from "pngjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, ROOT, runCli } from "../support/built-cli.js";
import { CHROMIUM_MISSING, launchChromium } from "../support/chromium.js";

if (CHROMIUM_MISSING !== undefined) console.warn(`report browser tests skipped: ${CHROMIUM_MISSING}`);

/** Share of pixels that differ from the most common (background) colour of a PNG screenshot. */
function inkShare(png: Buffer): number {
  const image = PNG.sync.read(png);
  const counts = new Map<number, number>();
  for (let i = 0; i < image.data.length; i += 4) {
    const key = (image.data[i] ?? 0) * 65536 + (image.data[i + 1] ?? 0) * 256 + (image.data[i + 2] ?? 0);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const total = image.width * image.height;
  const background = Math.max(...counts.values());
  return (total - background) / total;
}

/** Opens a report, failing on any page error or console error. */
async function open(page: Page, file: string): Promise<string[]> {
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console error: ${message.text()}`);
  });
  await page.goto(pathToFileURL(file).href, { waitUntil: "load" });
  return problems;
}

/**
 * The reports of every example's design and expert model: the golden files, which
 * src/deliverables/golden.test.ts keeps equal to what `design --out` and `render --out` write.
 */
const GOLDEN = join(ROOT, "src", "deliverables", "__golden__");
const GOLDEN_REPORTS = readdirSync(GOLDEN).flatMap((example) =>
  ["design", "expert"].map(
    (kind) => [`${example} ${kind}`, join(GOLDEN, example, kind, "report.html")] as const,
  ),
);

/**
 * What a page at its viewport shows wrongly: sideways scrolling of the page or of a table or
 * diagram box, and diagram edge labels overlapping another label, a card or a container's title
 * (boxes in the SVG's own coordinates, 1 px of slack).
 */
const LAYOUT_PROBLEMS = `(() => {
  const problems = [];
  const page = document.documentElement;
  if (page.scrollWidth > page.clientWidth + 1)
    problems.push("the page scrolls sideways: " + page.scrollWidth + " px in " + page.clientWidth);
  for (const wrap of document.querySelectorAll(".table-wrap, .diagram-wrap")) {
    if (wrap.scrollWidth > wrap.clientWidth + 1)
      problems.push((wrap.querySelector("table")?.id || wrap.className) + " scrolls sideways: " + wrap.scrollWidth + " px in " + wrap.clientWidth);
  }
  const svg = document.querySelector("#diagram svg.diagram");
  if (svg) {
    const box = (element) => { const b = element.getBBox(); return { x: b.x, y: b.y, w: b.width, h: b.height }; };
    const cross = (a, b) => a.x + 1 < b.x + b.w && b.x + 1 < a.x + a.w && a.y + 1 < b.y + b.h && b.y + 1 < a.y + a.h;
    const labels = [...svg.querySelectorAll(".dg-edge-label-bg")].map((rect) => ({ what: "label " + rect.nextElementSibling.textContent, box: box(rect) }));
    const others = [
      ...[...svg.querySelectorAll(".dg-item-box")].map((rect) => ({ what: "card " + rect.nextElementSibling.textContent, box: box(rect) })),
      ...[...svg.querySelectorAll(".dg-group text")].map((text) => ({ what: "title " + text.textContent, box: box(text) })),
    ];
    labels.forEach((label, i) => {
      for (const other of [...labels.slice(i + 1), ...others])
        if (cross(label.box, other.box)) problems.push(label.what + " covers " + other.what);
    });
  }
  return problems;
})()`;

describe.skipIf(CHROMIUM_MISSING !== undefined)("report.html in headless Chromium", () => {
  let dir: string;
  let browser: Browser;
  let report: string;
  let compared: string;

  beforeAll(async () => {
    ensureBuilt();
    dir = mkdtempSync(join(tmpdir(), "cosmos-report-"));
    const workload = join(ROOT, "examples", "blogging", "workload.yaml");
    runCli(["design", workload, "--out", join(dir, "design")]);
    report = join(dir, "design", "report.html");
    compared = join(dir, "compared.html");
    // The designed model against the baseline model (which breaks hard limits: exit 1), side by side.
    runCli(["design", workload, "--baseline", "--out", join(dir, "baseline")], 1);
    runCli(
      [
        "evaluate",
        workload,
        join(dir, "design", "model.yaml"),
        "--html",
        compared,
        "--compare",
        join(dir, "baseline", "model.yaml"),
      ],
      0,
    );
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  it("draws the diagram, the charts and the tables without a script or console error", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems = await open(page, report);
    expect(await page.title()).toContain("Blogging platform");
    const sizes = await page.evaluate(`(() => {
      const box = (selector) => {
        const element = document.querySelector(selector);
        if (!element) return null;
        const r = element.getBoundingClientRect();
        return { width: r.width, height: r.height };
      };
      return {
        diagram: box("#diagram svg.diagram"),
        costChart: box("#cost figure svg"),
        patternChart: box("#patterns figure svg"),
        patternsTable: box("#patterns-table"),
        containerCards: document.querySelectorAll(".container-card:not(.gateway-card)").length,
        gatewayCards: document.querySelectorAll(".gateway-card").length,
        heatBars: document.querySelectorAll(".container-card .heat").length,
        patternRows: document.querySelectorAll("#patterns-table tbody tr").length,
        itemBoxes: document.querySelectorAll("#diagram .dg-item").length,
        bars: document.querySelectorAll("#cost figure svg path").length,
      };
    })()`);
    const s = sizes as Record<string, { width: number; height: number } | number | null>;
    for (const key of ["diagram", "costChart", "patternChart", "patternsTable"]) {
      const size = s[key] as { width: number; height: number } | null;
      expect(size, key).not.toBeNull();
      expect(size?.width ?? 0, key).toBeGreaterThan(400);
      expect(size?.height ?? 0, key).toBeGreaterThan(100);
    }
    const workload = readFileSync(join(ROOT, "examples", "blogging", "workload.yaml"), "utf8");
    const patterns = (workload.match(/^\s+- id: /gm) ?? []).length;
    expect(s["patternRows"]).toBe(patterns);
    expect(s["containerCards"]).toBeGreaterThan(0);
    expect(s["heatBars"]).toBe((s["containerCards"] as number) * 4);
    // The blogging design reads its front page through the integrated cache: the gateway's card.
    expect(s["gatewayCards"]).toBe(1);
    expect(s["itemBoxes"]).toBeGreaterThan(0);
    expect(s["bars"] as number).toBeGreaterThan(12);
    // Pixels: each drawn element has real content, not a blank box.
    for (const selector of [
      "#diagram svg.diagram",
      "#cost figure svg",
      "#patterns figure svg",
      "#patterns-table",
    ]) {
      const shot = await page.locator(selector).screenshot();
      expect(inkShare(shot), selector).toBeGreaterThan(0.02);
    }
    expect(problems).toEqual([]);
    await page.close();
  });

  it("sorts a table by a column's header button", async () => {
    const page = await browser.newPage();
    const problems = await open(page, report);
    const header = page.locator("#patterns-table thead th", { hasText: "RU/s peak" });
    await header.locator("button").click();
    expect(await header.getAttribute("aria-sort")).toBe("ascending");
    await header.locator("button").click();
    expect(await header.getAttribute("aria-sort")).toBe("descending");
    const column = await page.evaluate(`(() => {
      const headers = [...document.querySelectorAll("#patterns-table thead th")];
      const index = headers.findIndex((h) => h.textContent.includes("RU/s peak"));
      return [...document.querySelectorAll("#patterns-table tbody tr")].map((row) =>
        Number(row.children[index].getAttribute("data-sort")));
    })()`);
    const values = column as number[];
    expect(values.length).toBeGreaterThan(1);
    expect(values).toEqual([...values].sort((a, b) => b - a));
    expect(problems).toEqual([]);
    await page.close();
  });

  it("loads with the network disabled and requests nothing but the file itself", async () => {
    const context = await browser.newContext({ offline: true });
    const routed: string[] = [];
    const requested: string[] = [];
    await context.route("**/*", (route) => {
      const url = route.request().url();
      routed.push(url);
      return url.startsWith("file:") ? route.continue() : route.abort();
    });
    const page = await context.newPage();
    page.on("request", (request) => requested.push(request.url()));
    const problems = await open(page, compared);
    expect(requested).toEqual([pathToFileURL(compared).href]);
    expect(routed.filter((url) => !url.startsWith("file:"))).toEqual([]);
    expect(await page.locator("#compare svg").count()).toBe(2);
    expect(await page.locator("#compare-table tbody tr").count()).toBeGreaterThan(0);
    // Two files named model.yaml: each side is named by its path (issue 29), not both "model.yaml".
    const compareText = (await page.locator("#compare").textContent()) ?? "";
    expect(compareText).toContain(join(dir, "design", "model.yaml"));
    expect(compareText).toContain(join(dir, "baseline", "model.yaml"));
    expect(problems).toEqual([]);
    await context.close();
  });

  it("fits 1,400 px without sideways scrolling, and no diagram label covers another, a card or a title", async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const found: Record<string, unknown> = {};
    for (const [name, file] of [["blogging", report], ["compared", compared], ...GOLDEN_REPORTS] as const) {
      const problems = await open(page, file);
      const layout = (await page.evaluate(LAYOUT_PROBLEMS)) as string[];
      if (problems.length + layout.length > 0) found[name] = [...problems, ...layout];
    }
    expect(found).toEqual({});
    expect(GOLDEN_REPORTS.length).toBeGreaterThanOrEqual(12);
    await page.close();
  });

  it("prints without the navigation", async () => {
    const page = await browser.newPage();
    await open(page, report);
    await page.emulateMedia({ media: "print" });
    expect(await page.locator("nav.toc").isVisible()).toBe(false);
    expect(await page.locator("#diagram svg.diagram").isVisible()).toBe(true);
    await page.close();
  });
});
